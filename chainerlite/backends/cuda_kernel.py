"""CuPy kernels of the package, created lazily and memoized per device.

Every kernel chainerlite runs on the GPU is defined once, at import time of
the module that uses it, as an :class:`Elementwise` or a :class:`Reduction`.
The definition is only text until the kernel is first called with CuPy
arrays: then the ``cupy.ElementwiseKernel`` (or ``cupy.ReductionKernel``)
is made for the current device and kept for the next calls on that device.
Importing a module never needs CUDA.

Each definition is also recorded in :func:`registered`, so that
``make check-kernels`` (``tools/check_kernels.py``) can compile the CUDA
source of every kernel through NVRTC on a machine without a GPU.
"""

import re

import numpy

from chainerlite.backends import cuda

FLOAT_TYPES = ('float16', 'float32', 'float64')

#: A preamble defining ``acc_type<T>::type``: the type to compute in for
#: elements of type ``T`` (float for half and single precision, double for
#: double), so that one operation serves all three dtypes.
ACC_TYPE = '''
template <typename T> struct acc_type { typedef float type; };
template <> struct acc_type<double> { typedef double type; };
'''

_registry = []
# One parameter of CuPy's syntax: 'T x', 'raw T w', 'float32 lr'.
_PARAM = re.compile(r'^\s*(raw\s+)?(\w+)\s+(\w+)\s*$')


def is_placeholder(ctype):
    """Tells whether a parameter type is a type placeholder (one capital
    letter, as ``T``) rather than a dtype name."""
    return len(ctype) == 1 and ctype.isupper()


def parse_params(params):
    """Splits CuPy's parameter list into ``(raw, ctype, name)`` triples.

    Raises:
        ValueError: If a parameter is not ``[raw] TYPE NAME``.

    """
    parsed = []
    for param in params.split(','):
        if not param.strip():
            continue
        match = _PARAM.match(param)
        if match is None:
            raise ValueError(
                'cannot parse kernel parameter {!r} in {!r}'.format(param, params)
            )
        parsed.append((bool(match.group(1)), match.group(2), match.group(3)))
    return parsed


def _placeholders(*params):
    names = []
    for spec in params:
        for _, ctype, _ in parse_params(spec):
            if is_placeholder(ctype) and ctype not in names:
                names.append(ctype)
    return tuple(names)


class _Kernel(object):
    def __init__(self, name, in_params, out_params, check_types):
        self.name = name
        self.in_params = in_params
        self.out_params = out_params
        placeholders = _placeholders(in_params, out_params)
        if check_types is None:
            check_types = (
                [dict.fromkeys(placeholders, t) for t in FLOAT_TYPES]
                if placeholders
                else [{}]
            )
        for types in check_types:
            if set(types) != set(placeholders):
                raise ValueError(
                    'kernel {}: check_types must give a dtype to each of '
                    '{}, got {}'.format(name, placeholders, sorted(types))
                )
        #: list of dict: the dtypes of the type placeholders that
        #: ``make check-kernels`` compiles the kernel with.
        self.check_types = check_types
        self._by_device = {}
        _registry.append(self)

    def _kernel(self):
        device = cuda.cupy.cuda.runtime.getDevice()
        kernel = self._by_device.get(device)
        if kernel is None:
            kernel = self._by_device[device] = self._create()
        return kernel

    def __call__(self, *args, **kwargs):
        """Runs the kernel (see ``cupy.ElementwiseKernel.__call__``).

        Raises:
            TypeError: If an argument is a NumPy array (a kernel runs on
                CuPy arrays only; nothing falls back to the CPU).
            ValueError: If the arrays are on different GPUs.

        """
        check_arrays(self.name, args)
        return self._kernel()(*args, **kwargs)

    def __repr__(self):
        return '<{} {}>'.format(type(self).__name__, self.name)


class Elementwise(_Kernel):
    """An elementwise CUDA kernel: ``cupy.ElementwiseKernel``'s arguments.

    Args:
        in_params (str): Input parameters, e.g. ``'T x, T gy'``.
        out_params (str): Output parameters, e.g. ``'T gx'``.
        operation (str): The CUDA code run for each element.
        name (str): The kernel's name (a C identifier, unique in the
            package).
        preamble (str): CUDA code put before the kernel (device functions).
        check_types (list of dict): The dtypes given to the type
            placeholders (``T``...) when the source is compiled by
            ``make check-kernels``; by default each of float16, float32 and
            float64 for all of them.

    """

    def __init__(
        self, in_params, out_params, operation, name, preamble='', check_types=None
    ):
        super(Elementwise, self).__init__(name, in_params, out_params, check_types)
        self.operation = operation
        self.preamble = preamble

    def _create(self):
        return cuda.cupy.ElementwiseKernel(
            self.in_params,
            self.out_params,
            self.operation,
            self.name,
            preamble=self.preamble,
        )


class Reduction(_Kernel):
    """A reduction CUDA kernel: ``cupy.ReductionKernel``'s arguments.

    Args:
        in_params (str): Input parameters.
        out_params (str): Output parameters.
        map_expr (str): The value mapped from each input element.
        reduce_expr (str): How two mapped values ``a`` and ``b`` combine.
        post_map_expr (str): What is written from the reduced value ``a``.
        identity (str): The identity of ``reduce_expr``.
        name (str): The kernel's name.
        reduce_type (str): The C type of the reduced values (the first
            input's type by default).
        preamble (str): CUDA code put before the kernel.
        check_types (list of dict): As for :class:`Elementwise`.

    """

    def __init__(
        self,
        in_params,
        out_params,
        map_expr,
        reduce_expr,
        post_map_expr,
        identity,
        name,
        reduce_type=None,
        preamble='',
        check_types=None,
    ):
        super(Reduction, self).__init__(name, in_params, out_params, check_types)
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = identity
        self.reduce_type = reduce_type
        self.preamble = preamble

    def _create(self):
        return cuda.cupy.ReductionKernel(
            self.in_params,
            self.out_params,
            self.map_expr,
            self.reduce_expr,
            self.post_map_expr,
            self.identity,
            self.name,
            reduce_type=self.reduce_type,
            preamble=self.preamble,
        )


def check_arrays(name, args):
    """Checks that the arrays given to the kernel ``name`` are CuPy arrays
    on one device (see :meth:`Elementwise.__call__`)."""
    device_id = None
    for i, a in enumerate(args):
        if isinstance(a, numpy.ndarray):
            raise TypeError(
                '{}: argument {} is a NumPy array; this CuPy kernel takes '
                'CuPy arrays (NumPy and CuPy arrays cannot be mixed in one '
                'function: send all the inputs to one device)'.format(name, i)
            )
        a_id = getattr(getattr(a, 'device', None), 'id', None)
        if a_id is None:
            continue
        if device_id is None:
            device_id = a_id
        elif a_id != device_id:
            raise ValueError(
                '{}: the arrays are on different GPUs ({} and {}); send '
                'them to one device'.format(name, device_id, a_id)
            )


def registered():
    """Returns every kernel defined so far (in the modules imported)."""
    return list(_registry)
