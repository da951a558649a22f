"""``Variable``, ``Parameter`` and the conversion helpers.

``Variable`` and ``VariableNode`` are compiled (``chainerlite._core.node``);
``Parameter`` is a Python subclass that adds lazy initialisation.
"""

from __future__ import annotations

import typing

import numpy

from chainerlite import _core
from chainerlite._core import handover
from chainerlite._core import Variable, VariableNode  # NOQA

if typing.TYPE_CHECKING:
    from chainerlite import types


def as_variable(obj: Variable | types.NdArray) -> Variable:
    """Returns ``obj`` as a Variable.

    Args:
        obj (Variable or ndarray): A Variable is returned as is; an array is
            wrapped in a new Variable with ``requires_grad=False``.

    Returns:
        Variable: The variable.
    """
    return _core._as_variable(obj)


def _check_grad_type(func, x, is_node_x, gx):
    """Raises if ``gx`` cannot be the gradient of ``x``: Chainer's check of
    each gradient that a node's backward returns (chainerlite's backward
    makes the same check in the core).

    Args:
        func (FunctionNode or None): The node whose backward computed
            ``gx``, named in the message (None: no node to name).
        x (Variable or VariableNode): The input that ``gx`` is the gradient
            of; one without a dtype (no array yet) accepts any gradient.
        is_node_x (bool): Whether ``x`` is a VariableNode.
        gx (numpy.ndarray or cupy.ndarray): The gradient.

    Raises:
        AssertionError: If ``gx`` is None.
        TypeError: If ``gx`` is not an array of the kind of ``x``'s (NumPy
            or CuPy), or its dtype is not ``x``'s.
        ValueError: If its shape is not ``x``'s.

    """
    import chainerlite

    assert gx is not None, '_check_grad_type: the gradient is None'
    # a node may hold no array (not retained) but knows its dtype and shape
    data = x.data if is_node_x else x.array
    if (x.dtype if is_node_x else data) is None:
        return  # no array yet: any gradient
    where = '_check_grad_type: ' if func is None else '%s.backward: ' % func.label
    if not isinstance(gx, chainerlite.get_array_types()) or not (
        chainerlite.is_arrays_compatible((gx, data))
    ):
        raise TypeError(
            '%sthe gradient is a %s.%s, not an array on the device of the '
            'input' % (where, type(gx).__module__, type(gx).__name__)
        )
    if gx.dtype != x.dtype:
        raise TypeError(
            '%sthe gradient has dtype %s; the input has dtype %s'
            % (where, gx.dtype, x.dtype)
        )
    if tuple(gx.shape) != tuple(x.shape):
        raise ValueError(
            '%sthe gradient has shape %s; the input has shape %s'
            % (where, tuple(gx.shape), tuple(x.shape))
        )


def variable_repr(var: Variable) -> str:
    """Returns ``repr(var)``: ``variable NAME(ARRAY)``, the array as
    ``repr`` shows it (``variable(None)`` for no array).

    Args:
        var (Variable): The variable.

    Returns:
        str: The representation.

    """
    return repr(var)


def variable_str(var: Variable) -> str:
    """Returns ``str(var)``: ``variable NAME(ARRAY)``, the array as
    ``str`` shows it.

    Args:
        var (Variable): The variable.

    Returns:
        str: The text.

    """
    return str(var)


def as_array(obj: Variable | types.NdArray) -> types.NdArray:
    """Returns the array of ``obj`` (``obj`` itself if it is an array).

    Args:
        obj (Variable or ndarray): Input.

    Returns:
        ndarray: ``obj.array`` for a Variable, else ``obj``.
    """
    if isinstance(obj, Variable):
        return obj.array
    return obj


class Parameter(Variable):
    """Variable that a Link owns and an optimizer updates.

    Its array may be created later: with ``shape=None`` the parameter stays
    uninitialised (``array is None``) until :meth:`initialize` is called,
    typically by a link at its first forward pass once the input size is
    known.

    Args:
        initializer: An initializer (called on the new array), a scalar (the
            fill value), an array (used as the data), or None (NaN).
        shape (int or tuple of int): Shape of the array; None defers the
            creation of the array.
        name (str): Name of the parameter.
        layout: The memory layout; only ``None`` (the standard one), as
            chainerlite has no memory layouts (docs/differences.rst).

    Raises:
        NotImplementedError: If ``layout`` is not ``None``.
    """

    _grad_initializer: typing.Any = None
    # False while the parameter is uninitialised and nothing gave it a
    # gradient: reading grad then raises, as in Chainer
    _grad_valid = True
    _initial_device = None  # where an uninitialised array will live
    update_rule: typing.Any = None
    initializer: typing.Any = None

    def __init__(
        self,
        initializer: types.InitializerSpec | None = None,
        shape: types.ShapeSpec | None = None,
        name: str | None = None,
        *,
        layout: typing.Any = None,
    ) -> None:
        from chainerlite import initializers

        if layout is not None:
            raise NotImplementedError(
                'Parameter: memory layouts are not supported by chainerlite '
                '(layout={!r}); only layout=None'.format(layout)
            )
        if isinstance(initializer, Variable):
            initializer = initializer.array
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer):
            initializer = initializers.Constant(initializer)
        if shape is None and not callable(initializer):
            # an array: it is the data itself
            super().__init__(initializer, name=name)
            self.initializer = initializers.Constant(initializer)
            return
        if not callable(initializer):
            # an array with a shape: the value broadcast to that shape (what
            # is no array is a TypeError, as Chainer's call of it)
            initializer = initializers._get_initializer(initializer)
        self.initializer = initializer
        # As in Chainer, a parameter whose array the initializer makes has
        # a gradient full of NaN until the first backward or cleargrads().
        self._grad_initializer = initializers.NaN()
        if shape is None:
            super().__init__(name=name)
            self._grad_valid = False
        else:
            dtype = getattr(initializer, 'dtype', None)
            data = initializers.generate_array(initializer, shape, numpy, dtype=dtype)
            super().__init__(data, name=name)
            if data.dtype.kind == 'f':
                self.grad = numpy.full_like(data, numpy.nan)

    @property
    def grad(self):
        """The gradient array (see :attr:`Variable.grad`).

        Raises:
            RuntimeError: If the parameter was created uninitialised and
                neither :meth:`initialize`, :meth:`cleargrad`,
                :meth:`zerograd` nor an assignment gave it a gradient yet
                (Chainer's rule).
        """
        if not self._grad_valid:
            raise RuntimeError(
                'Parameter.grad: cannot read the gradient of an uninitialised '
                'parameter yet: set it, or call cleargrad() (or '
                'Link.cleargrads()) first'
            )
        return Variable.grad.__get__(self)

    @grad.setter
    def grad(self, g):
        Variable.grad.__set__(self, g)
        self._grad_valid = True

    @property
    def grad_var(self):
        """The gradient variable (see :attr:`Variable.grad_var`)."""
        return Variable.grad_var.__get__(self)

    @grad_var.setter
    def grad_var(self, g):
        Variable.grad_var.__set__(self, g)
        self._grad_valid = True

    @property
    def is_initialized(self) -> bool:
        """True once the parameter has an array."""
        return self.array is not None

    @property
    def dtype(self):
        """The array's dtype; before the array exists, the initializer's.

        Raises:
            RuntimeError: If the parameter is uninitialised and its
                initializer has no ``dtype`` attribute.
        """
        array = self.array
        if array is not None:
            return array.dtype
        if not hasattr(self.initializer, 'dtype'):
            raise RuntimeError(
                'Parameter.dtype: the parameter is uninitialised and its '
                'initializer {!r} gives no dtype'.format(self.initializer)
            )
        # As in Chainer, an initializer's dtype None reads as NumPy's
        # default (float64), not as the config.dtype the array will take.
        return numpy.dtype(self.initializer.dtype)

    def initialize(self, shape: types.ShapeSpec) -> None:
        """Creates the array of the given shape with the initializer.

        Args:
            shape (int or tuple of int): Shape of the new array.
        """
        from chainerlite import backend, initializers

        device = backend.get_device(self._initial_device or '@numpy')
        dtype = getattr(self.initializer, 'dtype', None)
        # The old gradient goes first, as it may be of another shape or
        # dtype than the new array (copy('init') under another config.dtype)
        self.grad = None
        self.array = device.send(
            initializers.generate_array(self.initializer, shape, numpy, dtype=dtype)
        )
        ginit = self._grad_initializer
        if ginit is not None:
            self.grad = device.send(
                initializers.generate_array(ginit, shape, numpy, dtype=self.array.dtype)
            )
        self._remember_device(device)

    def to_device(self, device: types.DeviceSpec) -> None:
        """Moves the parameter; an uninitialised one remembers the device."""
        from chainerlite import backend

        device = backend.get_device(device)
        if self.is_initialized:
            super().to_device(device)
            self._remember_device(device)
        else:
            self._initial_device = device

    def _remember_device(self, device):
        # A device of a user-defined kind that sends arrays as another
        # device's arrays is still the parameter's device, as in Chainer;
        # it is kept as long as the array it sent is.
        from chainerlite import backend

        self._sent_by = None
        if backend.get_device_from_array(self.array) != device:
            self._sent_by = (device, self.array)

    _sent_by = None

    @property
    def device(self):
        """The device of the array (the one :meth:`to_device` moved it
        to); for an uninitialised parameter, the device its array will be
        created on."""
        if not self.is_initialized:
            if self._initial_device is not None:
                return self._initial_device
        elif self._sent_by is not None:
            if self._sent_by[1] is self.array:
                return self._sent_by[0]
            self._sent_by = None
        return super().device

    def to_cpu(self) -> None:
        """Moves the parameter to host memory (see :meth:`to_device`)."""
        self.to_device('@numpy')

    def to_gpu(self, device: types.CudaDeviceSpec | None = None) -> None:
        """Moves the parameter to a GPU (see :meth:`to_device`)."""
        self.to_device('@cupy:%d' % (0 if device is None else int(device)))  # type: ignore[arg-type]

    def copydata(self, var):
        """Copies ``var``'s array; an uninitialised parameter is created."""
        if not self.is_initialized:
            self.initialize(var.array.shape)
        super().copydata(var)

    def addgrad(self, var):
        """Adds ``var``'s grad; an uninitialised parameter is created."""
        if not self.is_initialized and var.grad_var is not None:
            self.initialize(var.grad_var.shape)
            self.grad = None  # the added gradient replaces the NaN fill
        super().addgrad(var)

    def cleargrad(self) -> None:
        Variable.cleargrad(self)
        self._grad_valid = True
        if self._grad_initializer is not None:
            self._grad_initializer = None

    def zerograd(self) -> None:
        super().zerograd()
        self._grad_valid = True
        if not self.is_initialized:
            from chainerlite import initializers

            self._grad_initializer = initializers.Zero()

    def update(self) -> None:
        """Updates the array with its update rule (set by an optimizer)."""
        if self.update_rule is not None:
            self.update_rule.update(self)


def _debug_summary(var: Variable) -> str:
    # The text of Variable.debug_print, laid out as Chainer lays it out.
    def statistics(array):
        if array is None:
            return 'None'
        return 'mean={:.8f}, std={:.8f}'.format(float(array.mean()), float(array.std()))

    array = var.array
    if var.name is None:
        lines = ['<variable at {:#x}>'.format(id(var))]
    else:
        lines = ['<variable {}>'.format(var.name)]
    if array is None:
        lines += [
            '- {}: None'.format(key)
            for key in ('device', 'backend', 'shape', 'dtype', 'statistics')
        ]
    else:
        if isinstance(array, numpy.ndarray) or numpy.isscalar(array):
            device = 'CPU'
        else:
            device = '<CUDA Device {}>'.format(array.device.id)
        lines += [
            '- device: {}'.format(device),
            '- backend: {}'.format(type(array)),
            '- shape: {}'.format(array.shape),
            '- dtype: {}'.format(array.dtype),
            '- statistics: {}'.format(statistics(array)),
        ]
    lines.append('- grad: {}'.format(statistics(var.grad)))
    return '\n'.join(lines)


handover.provide(debug_summary=_debug_summary)  # Variable.debug_print
