"""Running the same tests on several backends (NumPy, CuPy).

:func:`inject_backend_tests` makes one test class per backend configuration;
its test methods receive a :class:`BackendConfig` that says which array
module and device to use.
"""

import contextlib
import functools
import sys

import numpy

from chainerlite.testing import attr
from chainerlite.testing import parameterized

# Options of a backend configuration and their defaults (Chainer's names).
_DEFAULTS = {
    'use_chainerx': False,
    'chainerx_device': None,
    'use_cuda': False,
    'cuda_device': None,
    'use_cudnn': 'never',
    'cudnn_deterministic': False,
    'autotune': False,
    'cudnn_fast_batch_normalization': False,
    'use_ideep': 'never',
}

# Options that are chainerlite configuration entries, set while a config is
# entered.
_CONFIG_KEYS = (
    'use_cudnn',
    'cudnn_deterministic',
    'autotune',
    'cudnn_fast_batch_normalization',
    'use_ideep',
)


def given_options(config):
    """The options a :class:`BackendConfig` was made with, as ``k=v, ...``
    (sorted; empty for the default CPU backend), for messages."""
    return ', '.join('{}={}'.format(k, v) for k, v in sorted(config._params.items()))


class BackendConfig:
    """One backend on which tests run.

    Made by :func:`inject_backend_tests` from a dict such as ``{}`` (NumPy on
    the CPU) or ``{'use_cuda': True, 'cuda_device': 0}`` (CuPy). Entering it
    (``with backend_config:``) makes its device current and sets the
    configuration entries it names (``use_cudnn``, ``cudnn_deterministic``,
    ``autotune``, ``cudnn_fast_batch_normalization``, ``use_ideep``).

    Args:
        params (dict): The options, by Chainer's names: ``use_cuda``,
            ``cuda_device`` (default 0 with CUDA), ``use_cudnn``,
            ``cudnn_deterministic``, ``autotune``,
            ``cudnn_fast_batch_normalization``, ``use_ideep``,
            ``use_chainerx`` and ``chainerx_device``. chainerlite has no
            ChainerX, so tests of a config with ``use_chainerx=True`` are
            skipped; ``use_ideep`` is only set in the configuration (there is
            no iDeep path, the NumPy code runs).

    Raises:
        ValueError: If ``params`` names an unknown option, or sets
            ``cuda_device`` without ``use_cuda``.

    """

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError(
                'a backend config must be a dict, not {}'.format(type(params).__name__)
            )
        unknown = sorted(set(params) - set(_DEFAULTS))
        if unknown:
            raise ValueError(
                'unknown backend config options: {}'.format(', '.join(unknown))
            )
        self._params = dict(params)
        values = dict(_DEFAULTS, **params)
        self.use_chainerx = bool(values['use_chainerx'])
        self.chainerx_device = values['chainerx_device']
        self.use_cuda = bool(values['use_cuda'])
        if values['cuda_device'] is not None and not self.use_cuda:
            raise ValueError('cuda_device is given without use_cuda=True')
        if self.use_cuda and values['cuda_device'] is None:
            values['cuda_device'] = 0
        self.cuda_device = values['cuda_device']
        for key in _CONFIG_KEYS:
            setattr(self, key, values[key])
        self._contexts = []

    @property
    def xp(self):
        """The array module: ``numpy`` or ``cupy``."""
        return self.device.xp

    @property
    def device(self):
        """The :class:`chainerlite.backend.Device` arrays are sent to."""
        from chainerlite import backend

        if self.use_cuda:
            return backend.GpuDevice(self.cuda_device)
        return backend.CpuDevice()

    def get_array(self, np_array):
        """Returns an array (or a tuple/list of arrays) on this device.

        ``None`` entries stay ``None``; NumPy scalars become 0-dim arrays.
        """
        if isinstance(np_array, (tuple, list)):
            return type(np_array)(self.get_array(a) for a in np_array)
        if np_array is None:
            return None
        if isinstance(np_array, numpy.generic):
            np_array = numpy.asarray(np_array)
        return self.device.send(np_array)

    def get_func_str(self):
        """Returns the options as text fit for a method name, every option in
        Chainer's order (``use_chainerx_false__chainerx_device_None__...``)."""
        words = {True: 'true', False: 'false'}
        return '__'.join(
            '{}_{}'.format(
                key, words.get(value, value) if isinstance(value, bool) else value
            )
            for key, value in ((k, getattr(self, k)) for k in _DEFAULTS)
        )

    def __enter__(self):
        import chainerlite

        stack = contextlib.ExitStack()
        try:
            for key in _CONFIG_KEYS:
                stack.enter_context(chainerlite.using_config(key, getattr(self, key)))
            if self.use_cuda:
                stack.enter_context(self.xp.cuda.Device(self.cuda_device))
        except BaseException:
            stack.close()
            raise
        self._contexts.append(stack)
        return self

    def __exit__(self, *exc_info):
        return self._contexts.pop().__exit__(*exc_info)

    def __repr__(self):
        # Chainer's text: every option, in its order, with its value
        return '<BackendConfig {}>'.format(
            ' '.join('{}={!r}'.format(k, getattr(self, k)) for k in _DEFAULTS)
        )

    @property
    def name(self):
        """Every option as ``key_value``, joined by ``__`` (Chainer's form).

        For example ``use_chainerx_false__chainerx_device_None__use_cuda_
        false__cuda_device_None__use_cudnn_never__cudnn_deterministic_false
        __autotune_false__cudnn_fast_batch_normalization_false__use_ideep_
        never`` for ``{}``.
        """
        values = dict(_DEFAULTS, **self._params)
        return '__'.join(
            '{}_{}'.format(
                key,
                str(values[key]).lower()
                if isinstance(values[key], bool)
                else values[key],
            )
            for key in _DEFAULTS
        )

    def get_pytest_marks(self):
        """Returns the pytest marks that tests on this backend carry."""
        marks = []
        if self.use_ideep != 'never':
            marks.append(attr._pytest_mark().ideep)
        if self.use_chainerx:
            mark = attr._pytest_mark()
            return marks + [
                mark.chainerx,
                mark.skip(reason='chainerlite has no ChainerX'),
            ]
        if self.use_cuda:
            if self.cuda_device > 0:
                return marks + [attr.multi_gpu(self.cuda_device + 1)]
            return marks + [attr.gpu]
        return marks


def _bind(method, backend_config):
    def test(self, *args, **kwargs):
        return method(self, backend_config, *args, **kwargs)

    functools.update_wrapper(test, method)
    # pytest would read the signature of __wrapped__ and ask for a
    # ``backend_config`` fixture.
    del test.__wrapped__
    return test


def _test_names(base, method_names):
    if method_names is not None:
        missing = [
            name for name in method_names if not callable(getattr(base, name, None))
        ]
        if missing:
            raise AttributeError(
                '{} has no test methods {}'.format(base.__name__, ', '.join(missing))
            )
        return list(method_names)
    return sorted(
        name
        for name in dir(base)
        if name.startswith('test') and callable(getattr(base, name))
    )


def _make_class(base, name, backend_config, method_names, module_name):
    members = {
        test_name: _bind(getattr(base, test_name), backend_config)
        for test_name in _test_names(base, method_names)
    }
    members['__module__'] = module_name
    members['__qualname__'] = name
    members['__test__'] = True
    cls = type(base)(name, (base,), members)
    for mark in backend_config.get_pytest_marks():
        cls = mark(cls)
    return cls


def inject_backend_tests(method_names, params):
    """Makes one test class per backend configuration.

    For each dict of ``params`` a subclass of the decorated class is made,
    named as in Chainer after every option of the configuration (see
    :attr:`BackendConfig.name`), e.g. ``TestFoo_use_chainerx_false__...``,
    whose test methods are called with one more argument, the
    :class:`BackendConfig`::

        @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
        class TestSquare:
            def test_forward(self, backend_config):
                x = backend_config.get_array(numpy.arange(3.0))
                ...

    Classes of CUDA configurations carry the ``gpu`` marker and are skipped
    when CuPy or the device is missing (:mod:`chainerlite.testing.attr`);
    those with ``use_ideep`` other than ``'never'`` carry the ``ideep``
    marker, those of ChainerX the ``chainerx`` marker (and are skipped).
    It works with :class:`unittest.TestCase` subclasses and plain pytest
    classes, and stacks with :func:`~chainerlite.testing.parameterize` in
    either order. Like ``parameterize``, it leaves a non-class placeholder
    under the decorated class's name.

    Args:
        method_names (list of str or None): The test methods that take
            ``backend_config``; ``None`` means every method whose name starts
            with ``test``.
        params (list of dict): Backend configurations (see
            :class:`BackendConfig`).

    Returns:
        callable: The class decorator.

    """
    if method_names is not None and not isinstance(method_names, list):
        raise TypeError('method_names must be None or a list of names')
    if not isinstance(params, list) or not all(isinstance(p, dict) for p in params):
        raise TypeError('params must be a list of dicts')
    configs = [BackendConfig(p) for p in params]

    def decorator(target):
        if isinstance(target, parameterized._ParameterizedClasses):
            bases = target.classes
        elif isinstance(target, type):
            bases = [target]
        else:
            raise TypeError(
                'inject_backend_tests decorates test classes, not {}'.format(
                    type(target).__name__
                )
            )
        namespace = parameterized._module_namespace(
            target.__module__, sys._getframe(1).f_globals
        )
        classes = []
        for base in bases:
            if namespace is not None and namespace.get(base.__name__) is base:
                del namespace[base.__name__]
            names = set()
            for index, config in enumerate(configs):
                name = '{}_{}'.format(base.__name__, config.name)
                if name in names:  # the same options given twice
                    name = '{}_{}'.format(name, index)
                names.add(name)
                cls = _make_class(base, name, config, method_names, target.__module__)
                classes.append(cls)
                if namespace is not None:
                    namespace[cls.__name__] = cls
        return parameterized._ParameterizedClasses(
            target.__name__, target.__module__, classes
        )

    return decorator
