"""Base classes of the optimizers.

:class:`Optimizer` updates the parameters of a target link; the first-order
methods derive from :class:`GradientMethod`, which gives every parameter an
:class:`UpdateRule` (``param.update_rule``) holding that parameter's state
and a :class:`Hyperparameter` whose missing entries are read from the
optimizer's one.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import functools
import math
import threading
import typing
import warnings

import numpy

from chainerlite import _read_only
from chainerlite import backend
from chainerlite import link as link_module
from chainerlite import serializer as serializer_module
from chainerlite import variable
from chainerlite.backends import cuda
from chainerlite.backends import cuda_multi_tensor
from chainerlite.serializers import _checks

if typing.TYPE_CHECKING:
    from typing_extensions import Self

    # A callable, often with `name` and `timing` attributes.
    _Hook = typing.Any


def _using_device(device):
    # Makes the GPU of ``device`` current while arrays are created or
    # updated on it; a no-op on the CPU.
    if isinstance(device, backend.GpuDevice):
        return device.xp.cuda.Device(device.device_id)
    return contextlib.nullcontext()


class Hyperparameter:
    """Set of hyperparameters, with lookup in a parent set.

    Entries are plain attributes. An entry missing here is read from the
    parent, recursively, so an update rule's hyperparameter follows its
    optimizer's until the rule overrides an entry for its own parameter.

    Args:
        parent (Hyperparameter): The set that provides missing entries.

    .. admonition:: Example

        >>> from chainerlite import optimizer
        >>> defaults = optimizer.Hyperparameter()
        >>> defaults.lr = 0.1
        >>> own = optimizer.Hyperparameter(defaults)
        >>> own.lr
        0.1
        >>> own.lr = 0.5
        >>> own.lr, defaults.lr
        (0.5, 0.1)

    """

    def __init__(self, parent: Hyperparameter | None = None) -> None:
        self._parent = parent

    if typing.TYPE_CHECKING:
        # Tells type checkers that entries of any name may be set.
        def __setattr__(self, name: str, value: typing.Any) -> None: ...

    def __getattr__(self, name: str) -> typing.Any:
        if '_parent' not in self.__dict__:
            raise AttributeError('_parent is not set up yet')
        parent = self._parent
        if parent is None:
            raise AttributeError('hyperparameter {!r} is not defined'.format(name))
        return getattr(parent, name)

    def __repr__(self):
        entries = sorted(self.get_dict().items())
        return 'Hyperparameter({})'.format(
            ', '.join('{}={!r}'.format(k, v) for k, v in entries)
        )

    @property
    def parent(self) -> Hyperparameter | None:
        """Hyperparameter: The parent set, or ``None``."""
        return self._parent

    def get_dict(self) -> dict[str, typing.Any]:
        """Returns every entry visible from this set, the parents' included.

        Returns:
            dict: Entry names mapped to values; entries of this set win over
            the parents'.

        """
        d = {} if self._parent is None else self._parent.get_dict()
        for key, value in self.__dict__.items():
            if key != '_parent':
                d[key] = value
        return d


class HyperparameterProxy:
    """Property that aliases an entry of ``self.hyperparam``.

    Optimizers declare one per hyperparameter, e.g. ``lr =
    HyperparameterProxy('lr')``, so that ``optimizer.lr`` reads and writes
    ``optimizer.hyperparam.lr``.

    Args:
        attr_name (str): Name of the hyperparameter entry.

    """

    def __init__(self, attr_name: str) -> None:
        self._attr_name = attr_name
        self.__doc__ = 'Alias to ``self.hyperparam.{}``.'.format(attr_name)

    def __get__(self, obj: typing.Any, type: typing.Any = None) -> typing.Any:
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj: typing.Any, value: typing.Any) -> None:
        setattr(obj.hyperparam, self._attr_name, value)


# Taken only while an update rule creates its state (see _create_state).
_STATE_CREATION = threading.RLock()


def skips_missing(update_core):
    """Decorates an update rule's ``update_core_cpu``/``update_core_gpu``:
    a parameter without an array or a gradient is left as it is (Chainer's
    rules return at once for one).

    Args:
        update_core (callable): The method, ``(rule, param) -> None``.

    Returns:
        callable: The method that first checks the parameter.
    """

    @functools.wraps(update_core)
    def update(rule, param):
        if param.array is not None and param.grad is not None:
            update_core(rule, param)

    return update


def _register_hook(owner, hook, name, timing, odd_timing):
    """Adds ``hook`` to the pre- or post-update hooks of ``owner`` (an
    update rule or an optimizer), as their ``add_hook`` describe.

    ``odd_timing``: where a hook whose own ``timing`` attribute is neither
    ``'pre'`` nor ``'post'`` goes under ``timing='auto'``: an optimizer
    warns and takes ``'pre'``; an update rule (``None``) takes it as
    ``'post'``, as Chainer 7.8.1's do.
    """
    if not callable(hook):
        raise TypeError('hook function must be callable')
    if timing not in ('pre', 'post', 'auto'):
        raise ValueError(
            "timing must be one of ('pre', 'post', 'auto'), got {!r}".format(timing)
        )
    if timing == 'auto':
        timing = getattr(hook, 'timing', 'pre')
        if timing not in ('pre', 'post') and odd_timing is not None:
            warnings.warn(
                "hook timing {!r} is not in ('pre', 'post'): the hook runs "
                "at {!r}".format(timing, odd_timing)
            )
            timing = odd_timing
    if name is None:
        name = getattr(hook, 'name', getattr(hook, '__name__', None))
        if name is None:
            raise ValueError('the name of the hook function is not specified')
    pre, post = owner._pre_update_hooks, owner._post_update_hooks
    if name in pre or name in post:
        raise KeyError('hook "{}" already exists'.format(name))
    (pre if timing == 'pre' else post)[name] = hook


class UpdateRule:
    """How one parameter is updated, with its state and hyperparameters.

    Subclasses implement :meth:`update_core_cpu` and :meth:`update_core_gpu`
    (and :meth:`init_state` when they keep state).

    Args:
        parent_hyperparam (Hyperparameter): Parent of :attr:`hyperparam`,
            usually the optimizer's hyperparameter.

    Attributes:
        enabled (bool): When ``False``, :meth:`update` does nothing.
        hyperparam (Hyperparameter): Hyperparameters of this rule; setting
            an entry overrides the optimizer's value for this parameter.
        t (int): Number of updates done by this rule.
        is_elementwise (bool): Whether the rule updates each element of a
            parameter from the same element of its gradient and states
            alone (True for the built-in rules; False here).

    """

    is_elementwise = False

    def __init__(self, parent_hyperparam: Hyperparameter | None = None) -> None:
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        self._state = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param = None

    @property
    def state(self) -> dict[str, typing.Any] | None:
        """dict: The state arrays of the rule (``None`` before the first
        update)."""
        return self._state

    def add_hook(
        self, hook: _Hook, name: str | None = None, timing: str = 'auto'
    ) -> None:
        """Registers a hook called as ``hook(rule, param)`` at each update.

        Args:
            hook (callable): The hook.
            name (str): Registration name; ``hook.name`` (or the function
                name) when ``None``.
            timing (str): ``'pre'`` (before the update), ``'post'``, or
                ``'auto'``: ``hook.timing`` when the hook has it, ``'pre'``
                otherwise (as in Chainer 7.8.1, a ``hook.timing`` other than
                ``'pre'`` runs the hook after the update).

        Raises:
            TypeError: If ``hook`` is not callable.
            ValueError: If ``timing`` is invalid or no name can be found.
            KeyError: If the name is already registered.

        """
        _register_hook(self, hook, name, timing, odd_timing=None)

    def remove_hook(self, name: str) -> None:
        """Unregisters the hook registered as ``name``.

        Raises:
            KeyError: If no hook has that name.

        """
        if name in self._pre_update_hooks:
            del self._pre_update_hooks[name]
        else:
            del self._post_update_hooks[name]

    def update(self, param: variable.Parameter) -> None:
        """Updates ``param`` with its gradient.

        As in Chainer, every call of an enabled rule counts in :attr:`t`
        and runs the hooks and :meth:`update_core`, also for a parameter
        without an array or a gradient (whose states are then not made and
        which the built-in rules leave untouched). Otherwise the update
        works on the parameter, or on a float32 copy of a float16 parameter
        when :meth:`use_fp32_update` is on: a gradient computed with
        ``loss_scale`` is divided by it (once: the parameter's
        ``_loss_scale`` is reset), then the pre-update hooks,
        :meth:`update_core` and the post-update hooks run.

        Args:
            param (~chainerlite.Variable): The parameter to update.

        Raises:
            ValueError: If the parameter's array, a state array or a
                gradient to divide by the loss scale is a read-only NumPy
                array (checked before anything is written).

        """
        if not self.enabled:
            return
        if param.array is None:
            self.t += 1
            self._run_core(param)
            return
        _read_only.check(self, param)
        self.t += 1
        with _using_device(param.device):
            target = param
            if (
                self._use_fp32_update
                and param.dtype == numpy.float16
                and param.grad is not None
            ):
                target = self._fp32_copy(param)
            self._prepare(target)
            if param._loss_scale is not None and target.grad is not None:
                grad = target.grad
                grad /= param._loss_scale
                param._loss_scale = None
            self._run_core(target)
            if target is not param:
                param.xp.copyto(param.array, target.array, casting='unsafe')
                target.grad = None

    def _run_core(self, param):
        for hook in self._pre_update_hooks.values():
            hook(self, param)
        self.update_core(param)
        for hook in self._post_update_hooks.values():
            hook(self, param)

    def update_core(self, param: variable.Parameter) -> None:
        """Runs :meth:`update_core_cpu` or :meth:`update_core_gpu`.

        Args:
            param (~chainerlite.Variable): The parameter to update.

        Raises:
            ValueError: If the parameter's array or a state array is a
                read-only NumPy array (nothing is written).

        """
        if param.array is not None and param.grad is not None:
            _read_only.check(self, param, unscale=False)
        # called for a parameter without an array or a gradient too, as
        # Chainer does (its rules, like chainerlite's, then do nothing)
        if param.array is None or backend.get_array_module(param.array) is numpy:
            self.update_core_cpu(param)
        else:
            self.update_core_gpu(param)

    def update_core_chainerx(self, param: variable.Parameter) -> None:
        """Updates a parameter held in ChainerX arrays: through
        :meth:`update_core_cpu` or :meth:`update_core_gpu` on the NumPy or
        CuPy arrays that hold it (here every array is one of those, since
        ChainerX is not available).

        Args:
            param (~chainerlite.Variable): The parameter to update.

        """
        self.update_core(param)

    def update_core_cpu(self, param: variable.Parameter) -> None:
        """Updates a parameter held in NumPy arrays (subclasses define it).

        Args:
            param (~chainerlite.Variable): The parameter to update.

        """
        raise NotImplementedError()

    def update_core_gpu(self, param: variable.Parameter) -> None:
        """Updates a parameter held in CuPy arrays (subclasses define it).

        Args:
            param (~chainerlite.Variable): The parameter to update.

        """
        raise NotImplementedError()

    def init_state(self, param: variable.Parameter) -> None:
        """Fills :attr:`state` before the first update (no state here).

        Args:
            param (~chainerlite.Variable): The parameter; states are
                created like its array.

        """

    def use_fp32_update(self, flag: bool = True) -> None:
        """Updates float16 parameters through a float32 master copy.

        Args:
            flag (bool): Whether to use the float32 copy.

        """
        self._use_fp32_update = flag

    def serialize(self, serializer: serializer_module.AbstractSerializer) -> None:
        """Saves or loads ``t`` and the state arrays.

        When loading into a rule with no state yet, the state names come
        from :meth:`init_state`; if the file has no state (saved before
        any update), the state stays ``None`` and is created at the next
        update. A missing state entry raises ``KeyError`` unless the rule
        is disabled.

        Args:
            serializer (~chainerlite.serializer.AbstractSerializer): The
                (de)serializer, positioned at this parameter's path.

        """
        self.t = _checks.load_count(serializer, 't', self.t, 'UpdateRule.serialize')
        if self._state is not None:
            for key in list(self._state):
                self._state[key] = serializer(key, self._state[key])
        elif isinstance(serializer, serializer_module.Deserializer):
            self._load_new_state(serializer)

    def _initialized_copy(self, param):
        # A shallow copy of this rule on which init_state(param) ran
        # (into a dict of its own), leaving this rule as it is
        probe = copy.copy(self)
        probe._state = {}
        probe.init_state(param)
        return probe

    def _state_template(self, shape, dtype):
        # The state init_state makes for a parameter of this shape and
        # dtype, on the host
        dummy = numpy.zeros(shape, dtype)
        param = variable.Variable(dummy, grad=dummy.copy())
        return self._initialized_copy(param)._state

    def _load_new_state(self, serializer):
        # Every entry is asked for, even after one came back None: a load
        # that checks the whole file before assigning anything must see
        # each of them.
        state = {}
        for key in self._state_template(1, numpy.float32):
            try:
                state[key] = serializer(key, None)
            except KeyError:
                if self.enabled:
                    raise
                state[key] = None
        if all(value is not None for value in state.values()):
            self._state = state

    def _prepare(self, param):
        if self._state is None:
            self._create_state(param)
        device = param.device
        for key, value in self._state.items():
            if (
                isinstance(value, (numpy.ndarray, cuda.ndarray))
                and backend.get_device_from_array(value) != device
            ):
                self._state[key] = device.send(value)

    def _create_state(self, param):
        # Once, and atomically: threads updating through the same rule
        # see no state or all of it (init_state fills a copy's dict, which
        # is then published), never a half-made one. The lock is taken on
        # this path only.
        with _STATE_CREATION:
            if self._state is not None:
                return
            probe = self._initialized_copy(param)
            mine = vars(self)
            for key, value in vars(probe).items():
                if key != '_state' and mine.get(key, probe) is not value:
                    setattr(self, key, value)
            self._state = probe._state

    def _fp32_copy(self, param):
        fp32 = self._fp32_param
        if fp32 is None:
            fp32 = variable.Variable(param.array.astype(numpy.float32), name=param.name)
            self._fp32_param = fp32
        fp32.grad = param.grad.astype(numpy.float32)
        return fp32


class Optimizer:
    """Base class of the optimizers, which update a link's parameters.

    Call :meth:`setup` with the target link, then :meth:`update` at each
    iteration. Hooks added with :meth:`add_hook` run before (``'pre'``) or
    after (``'post'``) the update; a hook whose ``call_for_each_param``
    attribute is true is called as ``hook(param.update_rule, param)`` for
    each parameter, any other as ``hook(optimizer)``.

    Attributes:
        target (~chainerlite.Link): The link being optimized.
        t (int): Number of updates done.
        epoch (int): Current epoch, counted by :meth:`new_epoch`.
        use_auto_new_epoch (bool): Set by an updater that calls
            ``new_epoch(auto=True)`` itself.

    """

    target: typing.Any = None
    t = 0
    epoch = 0
    _pre_update_hooks = None
    _post_update_hooks = None
    _loss_scale = None
    use_auto_new_epoch = False

    def setup(self, link: link_module.Link) -> Self:
        """Sets the target link and resets ``t``, ``epoch`` and the hooks.

        Args:
            link (~chainerlite.Link): The link to optimize.

        Returns:
            Optimizer: This optimizer.

        Raises:
            TypeError: If ``link`` is not a Link.

        """
        if not isinstance(link, link_module.Link):
            raise TypeError('optimization target must be a link')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        return self

    def update(
        self,
        lossfun: typing.Callable[..., typing.Any] | None = None,
        *args: typing.Any,
        **kwds: typing.Any,
    ) -> None:
        """Updates the parameters (subclasses define it).

        Args:
            lossfun (callable): Loss function called with ``args`` and
                ``kwds``; when ``None``, the gradients must already be
                computed.

        """
        raise NotImplementedError()

    def new_epoch(self, auto: bool = False) -> None:
        """Starts a new epoch: increments :attr:`epoch`.

        Args:
            auto (bool): ``True`` when an updater calls it; this must
                agree with :attr:`use_auto_new_epoch`.

        Raises:
            RuntimeError: If ``auto`` disagrees with
                :attr:`use_auto_new_epoch`.

        """
        if auto and not self.use_auto_new_epoch:
            raise RuntimeError(
                'invalid new_epoch call with auto=True: set '
                'use_auto_new_epoch to let an updater start epochs'
            )
        if not auto and self.use_auto_new_epoch:
            raise RuntimeError(
                'duplicated new_epoch with the updater: use_auto_new_epoch '
                'is set, so the updater already starts the epochs'
            )
        self.epoch += 1

    def add_hook(
        self, hook: _Hook, name: str | None = None, timing: str = 'auto'
    ) -> None:
        """Registers a hook function.

        Args:
            hook (callable): The hook (see the class description for how it
                is called).
            name (str): Registration name; ``hook.name`` (or its
                ``__name__``) when ``None``.
            timing (str): ``'pre'``, ``'post'``, or ``'auto'``, which uses
                ``hook.timing`` when the hook has it and ``'pre'`` otherwise
                (with a warning when ``hook.timing`` is neither).

        Raises:
            RuntimeError: If :meth:`setup` has not been called.
            TypeError: If ``hook`` is not callable.
            ValueError: If ``timing`` is invalid, or ``name`` is None and
                the hook has neither ``name`` nor ``__name__``.
            KeyError: If the name is already registered.

        """
        self._check_set_up()
        _register_hook(self, hook, name, timing, odd_timing='pre')

    def remove_hook(self, name: str) -> None:
        """Unregisters the hook registered as ``name``.

        Raises:
            KeyError: If no hook has that name.

        """
        self._check_set_up()
        if name in self._pre_update_hooks:
            del self._pre_update_hooks[name]
        elif name in self._post_update_hooks:
            del self._post_update_hooks[name]
        else:
            raise KeyError('hook "{}" is not registered'.format(name))

    def call_hooks(self, timing: str = 'pre') -> None:
        """Calls the hooks registered for ``timing``, in registration order.

        Args:
            timing (str): ``'pre'`` or ``'post'``.

        Raises:
            ValueError: If ``timing`` is neither.

        """
        self._check_set_up()
        if timing not in ('pre', 'post'):
            raise ValueError("timing must be either 'pre' or 'post'")
        hooks = self._pre_update_hooks if timing == 'pre' else self._post_update_hooks
        for hook in hooks.values():
            self.call_hook(hook)

    def _check_set_up(self):
        if self._pre_update_hooks is None:
            raise RuntimeError('Optimizer is not set up: call the `setup` method first')

    def call_hook(self, hook):
        """Calls one optimizer hook: once with the optimizer, or, for a hook
        whose ``call_for_each_param`` is true, once per parameter with its
        update rule and the parameter.

        Args:
            hook (callable): The hook.

        """
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                with _using_device(param.device):
                    hook(param.update_rule, param)
        else:
            hook(self)

    @property
    def loss_scale(self) -> float | None:
        """float: The loss scale ``update(lossfun)`` back-propagates with
        (``None`` for none); set by :meth:`set_loss_scale` or
        :meth:`loss_scaling`. Beyond Chainer, which keeps it private."""
        return self._loss_scale

    def set_loss_scale(self, loss_scale: float | None) -> None:
        """Sets a static loss scale used by ``update(lossfun)``.

        The loss is back-propagated with ``loss_scale``, and each gradient
        is divided by it before the update.

        Args:
            loss_scale (float): The scale, or ``None`` for none.

        """
        self._loss_scale = loss_scale

    def loss_scaling(self, interval: int = 1000, scale: float | None = None) -> None:
        """Configures static or dynamic loss scaling.

        With ``scale``, the loss is back-propagated with that fixed scale
        (as :meth:`set_loss_scale`). Without it, the scale is dynamic, as
        in Chainer: it starts at 1 and doubles after each update until a
        gradient first overflows; from then on it grows by
        ``2 ** (1 / interval)`` per update whose gradients are all finite.
        An update that finds an infinite or NaN gradient leaves the
        parameters alone (the hooks still run and :attr:`t` still counts
        it) and halves the scale. The scale stays within [1, 65504], the
        float16 range.

        Args:
            interval (int): Number of good updates, once a gradient has
                overflowed, over which a dynamic scale doubles.
            scale (float): Static scale, or ``None`` for a dynamic one.

        Raises:
            ValueError: If ``interval`` is below 1 or ``scale`` is not
                positive.

        """
        if interval < 1:
            raise ValueError(
                'loss_scaling: interval must be at least 1, got {}'.format(interval)
            )
        if scale is not None and scale <= 0:
            raise ValueError(
                'loss_scaling: scale must be positive, got {}'.format(scale)
            )
        if scale is None:
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            self._loss_scale = scale

    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    _loss_scaling_isnan_ever = False
    _loss_scale_max = 65504  # the largest float16 (an int, as in Chainer)

    def check_nan_in_grads(self) -> None:
        """Under dynamic loss scaling, records whether a gradient of the
        target holds NaN or Inf (read by :meth:`is_safe_to_update` and
        :meth:`update_loss_scale`), with a warning naming each such
        parameter, as Chainer does."""
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for name, param in self.target.namedparams(include_uninit=False):
            grad = param.grad
            if grad is not None and not bool(param.xp.isfinite(grad).all()):
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                warnings.warn(
                    'Non finite number found in param.grad of {} (iteration: '
                    '{}, loss_scale: {})'.format(name, self.t, self._loss_scale)
                )

    def is_safe_to_update(self) -> bool:
        """False when :meth:`check_nan_in_grads` last found NaN or Inf."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self) -> None:
        """Adjusts a dynamic loss scale (see :meth:`loss_scaling`) after
        :meth:`check_nan_in_grads`: halved after an overflow, doubled while
        no gradient has ever overflowed, else grown by its multiplier;
        kept within [1, 65504]. Does nothing for a fixed scale or none."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        scale = self._loss_scale
        assert scale is not None  # dynamic scaling set it (loss_scaling)
        self._loss_scale = max(1, min(self._loss_scale_max, scale * multiplier))

    def serialize(self, serializer: serializer_module.AbstractSerializer) -> None:
        """Saves or loads ``t``, ``epoch`` and each update rule's state.

        The rule of the parameter at path ``'/l1/W'`` of the target is
        serialized under ``serializer['/l1/W']``.

        Args:
            serializer (~chainerlite.serializer.AbstractSerializer): The
                (de)serializer.

        """
        self.t = _checks.load_count(serializer, 't', self.t, 'Optimizer.serialize')
        self.epoch = _checks.load_count(
            serializer, 'epoch', self.epoch, 'Optimizer.serialize'
        )
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                _check_new_state_shapes(rule, param, serializer[name])
                rule.serialize(serializer[name])


def _check_new_state_shapes(rule, param, serializer):
    # A rule with no state yet takes the file's arrays as they are; one of
    # another shape than init_state gives the parameter fails only at the
    # next update. Checked in both walks of a load, so a bad file assigns
    # nothing, as for a parameter or an existing state of the wrong shape
    # (the deserializer checks those).
    if (
        rule.state is not None
        or param.array is None
        or not isinstance(serializer, serializer_module.Deserializer)
    ):
        return
    template = rule._state_template(param.shape, param.dtype)
    for key, expected in template.items():
        try:
            loaded = _checks.peek(serializer, key, None)
        except KeyError:
            continue  # the rule's own load reports it (or skips it)
        shape = getattr(loaded, 'shape', None)
        if shape is not None and shape != getattr(expected, 'shape', shape):
            raise ValueError(
                'Optimizer.serialize: shape mismatch for key {!r}: the file '
                'has {} but a parameter of shape {} has a state of shape {}; '
                'nothing was loaded'.format(
                    _checks.full_key(serializer, key),
                    shape,
                    param.shape,
                    expected.shape,
                )
            )


class GradientMethod(Optimizer):
    """Base class of the optimizers that update from the gradient alone.

    :meth:`setup` gives every parameter the rule made by
    :meth:`create_update_rule`, whose hyperparameter has :attr:`hyperparam`
    as parent.

    Attributes:
        hyperparam (Hyperparameter): Default hyperparameters of the rules.

    """

    _multi_tensor_update = False  # see use_multi_tensor_update
    _update_in_backward = False  # see use_update_in_backward

    def __init__(self):
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link: link_module.Link) -> Self:
        """Sets the target link and an update rule on each parameter.

        Args:
            link (~chainerlite.Link): The link to optimize.

        Returns:
            GradientMethod: This optimizer.

        """
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        return self

    def create_update_rule(self) -> UpdateRule:
        """Returns a new update rule (subclasses define it).

        Returns:
            UpdateRule: A rule whose hyperparameter's parent is
            :attr:`hyperparam`.

        """
        raise NotImplementedError()

    def reallocate_cleared_grads(self) -> None:
        """Gives zero gradients to the initialized parameters without one
        (before and after the update, and after each hook, as in Chainer:
        a hook that clears gradients leaves zeros)."""
        for param in self.target.params(include_uninit=False):
            if param.grad is None:
                with _using_device(param.device):
                    param.grad = param.xp.zeros_like(param.array)

    def call_hook(self, hook):
        super().call_hook(hook)
        self.reallocate_cleared_grads()

    def update(
        self,
        lossfun: typing.Callable[..., typing.Any] | None = None,
        *args: typing.Any,
        **kwds: typing.Any,
    ) -> None:
        """Updates the parameters.

        With ``lossfun``, computes ``loss = lossfun(*args, **kwds)``, clears
        the gradients and back-propagates the loss (with the loss scale
        set by :meth:`set_loss_scale`). Then missing gradients become
        zeros, the ``'pre'`` hooks run, :attr:`t` is incremented, each
        parameter is updated by its rule (which first divides a gradient
        computed with a loss scale by it, see :meth:`UpdateRule.update`),
        and the ``'post'`` hooks run. As in Chainer, the ``'pre'`` hooks
        thus see gradients still multiplied by the loss scale.

        Args:
            lossfun (callable): Loss function; when ``None``, the gradients
                must already be computed.
            *args: Arguments of ``lossfun``.
            **kwds: Keyword arguments of ``lossfun``.

        Raises:
            ValueError: If a parameter to update has a read-only NumPy
                array, state array, or gradient to divide by the loss
                scale; raised before any hook runs or anything is written,
                naming the parameter's path (Chainer lets NumPy raise
                midway, some parameters and states already updated).

        """
        if lossfun is not None and self._update_in_backward:
            from chainerlite import _update_in_backward

            if _update_in_backward.step(self, lossfun, args, kwds):
                return
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if getattr(self, '_use_cleargrads', True):
                self.target.cleargrads()
            else:
                self.target.zerograds()
            loss.backward(loss_scale=self._loss_scale)
            del loss
        self.update_from_grads()

    def update_from_grads(
        self,
        params: typing.Sequence[variable.Parameter] | None = None,
        exchange: typing.Callable[[], None] | None = None,
    ) -> bool:
        """The update of :meth:`update` once the gradients are computed.

        Beyond Chainer: a data-parallel wrapper (ChainerMN's multi-node
        optimizer) uses it to let each process run the update rules of its
        share of the parameters. Everything else is as in :meth:`update`:
        missing gradients become zeros, the ``'pre'`` hooks see every
        gradient, :attr:`t` is incremented and the ``'post'`` hooks run.

        Args:
            params (list of ~chainerlite.Parameter): The parameters whose
                rules run (in this order); every parameter of the target
                when ``None``.
            exchange (callable): Called without arguments after the rules
                ran and before the ``'post'`` hooks (the wrapper brings the
                other processes' results in here).

        Returns:
            bool: ``False`` when the update was skipped (dynamic loss
            scaling found an infinite or NaN gradient), ``True`` otherwise.

        Raises:
            ValueError: As :meth:`update`, for a read-only array.

        """
        self.reallocate_cleared_grads()
        every = list(self.target.params())
        # a read-only array anywhere: an error before anything is written
        _read_only.check_all(self, every)
        self.check_nan_in_grads()
        self.call_hooks('pre')
        self.t += 1
        safe = self.is_safe_to_update()
        if safe:
            with cuda_multi_tensor.deferred(self._multi_tensor_update):
                for param in every if params is None else params:
                    param.update()
            if exchange is not None:
                exchange()
        self.reallocate_cleared_grads()
        self.call_hooks('post')
        self.update_loss_scale()
        return safe

    def use_cleargrads(self, use: bool = True) -> None:
        """Chooses cleargrads (default) or zerograds in ``update(lossfun)``.

        .. deprecated::
            cleargrads is always better; this only exists for old code.

        Args:
            use (bool): ``True`` for cleargrads, ``False`` for zerograds.

        """
        warnings.warn(
            'GradientMethod.use_cleargrads is deprecated.', DeprecationWarning
        )
        self._use_cleargrads = use

    def use_multi_tensor_update(self, flag: bool = True) -> None:
        """Updates the GPU parameters in a few launches (beyond Chainer).

        With it, the fused update kernels of SGD, MomentumSGD, Adam (and
        its variants), RMSprop and AdaGrad are not launched once per
        parameter in :meth:`update`: all the parameters of one device and
        dtype are updated by one launch (see
        :mod:`chainerlite.backends.cuda_multi_tensor`). Parameters with a
        post-update hook on their rule, or updated through float32 copies,
        are still updated one by one. NumPy parameters are not affected.

        Args:
            flag (bool): Whether to use multi-tensor launches.

        """
        self._multi_tensor_update = flag

    def use_update_in_backward(self, flag: bool = True) -> None:
        """Updates each parameter during backward (beyond Chainer).

        With it, :meth:`update` given a loss function updates each
        parameter as soon as the backward pass has computed its final
        gradient (once every node that reads the parameter, F.forget's
        recomputed ones included, has run its backward), and then frees
        that gradient: the step holds the gradients of a few layers at a
        time instead of all of them, which lowers its peak memory by up to
        the size of the parameters. The parameters, the rules' states and
        ``t`` end as after the ordinary update, bit for bit: each
        parameter gets the same calls (the optimizer hooks, then its rule
        with its own hooks), only at another time. Parameters that no
        gradient reached get zero gradients and are updated after the
        pass, as usual. After the step no parameter holds a gradient.

        Only optimizer hooks that act on each parameter alone are taken
        (WeightDecay, Lasso, GradientHardClipping, GradientNoise,
        GradientLARS); ``update`` refuses any other one, such as
        GradientClipping, and dynamic loss scaling, with RuntimeError
        before anything is computed. GradientNoise's default noise is drawn
        parameter by parameter in another order, so it differs from the
        ordinary update's draws (a noise function that does not draw
        keeps the step exact). A step whose target has an uninitialized
        parameter, and :meth:`update` without a loss function, run the
        ordinary update. If backward raises, the parameters updated so far
        stay updated.

        Args:
            flag (bool): Whether to update during backward.

        Raises:
            RuntimeError: With ``flag``, if a hook or the loss scaling of
                this optimizer cannot go with it.

        """
        if flag:
            from chainerlite import _update_in_backward

            _update_in_backward.check(self)
        self._update_in_backward = flag

    def use_fp32_update(self, flag: bool = True) -> None:
        """Updates float16 parameters through float32 master copies.

        Applies to the current rules and to those of later :meth:`setup`
        calls.

        Args:
            flag (bool): Whether to use float32 copies.

        """
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                param.update_rule.use_fp32_update(flag)


# The hooks were defined here before chainerlite.optimizer_hooks existed in
# Chainer; code written for Chainer still reaches them as optimizer.X (with
# a DeprecationWarning, as Chainer gives).
from chainerlite.optimizer_hooks._deprecated import GradientClipping  # NOQA: E402,F401
from chainerlite.optimizer_hooks._deprecated import GradientHardClipping  # NOQA: E402,F401
from chainerlite.optimizer_hooks._deprecated import GradientNoise  # NOQA: E402,F401
from chainerlite.optimizer_hooks._deprecated import Lasso  # NOQA: E402,F401
from chainerlite.optimizer_hooks._deprecated import WeightDecay  # NOQA: E402,F401
from chainerlite.optimizer_hooks._deprecated import make_deprecation_message  # NOQA: E402,F401
