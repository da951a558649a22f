"""Numerical checks of gradients computed by backpropagation.

:func:`numerical_grad` estimates gradients by central finite differences.
:func:`check_backward` compares the gradients that ``backward`` computes for a
function with a numerical estimate, and :func:`check_double_backward` does the
same for the gradients of those gradients.
"""

import numpy

import chainerlite
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import _chainer_errors


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Chainer's older name of :func:`chainerlite.testing.assert_allclose`
    (same arguments and checks)."""
    # chainerlite.testing needs pytest; import it only when checking
    from chainerlite.testing import array as testing_array

    testing_array.assert_allclose(x, y, atol=atol, rtol=rtol, verbose=verbose)


class NondifferentiableError(Exception):
    """Raised by :func:`numerical_grad` when the function has a kink or jump.

    It is raised only when ``detect_nondifferentiable=True``.
    """


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_cupy_array(x):
    return type(x).__module__.split('.')[0] == 'cupy'


def _array_module(*arrays):
    on_gpu = [_is_cupy_array(x) for x in arrays if x is not None]
    if any(on_gpu):
        if not all(on_gpu):
            raise RuntimeError(
                'NumPy and CuPy arrays cannot be mixed in a gradient check'
            )
        import cupy

        return cupy
    return numpy


def _output_arrays(outputs):
    """Returns the outputs of ``f`` as a tuple of float64 copies."""
    result = []
    for y in _as_tuple(outputs):
        if isinstance(y, chainerlite.Variable):
            y = y.array
        if y is None:
            result.append(None)
        else:
            xp = _array_module(y)
            result.append(xp.asarray(y).astype(numpy.float64))
    return tuple(result)


def _weighted_sum(ys, grad_outputs, xp):
    """Sum over outputs of ``(y * gy).sum()``, skipping ``None`` entries."""
    total = 0.0
    for y, gy in zip(ys, grad_outputs):
        if y is None or gy is None:
            continue
        total += float((y * xp.asarray(gy, dtype=numpy.float64)).sum())
    return total


# Weights of the 4th finite difference on five equally spaced samples. It is
# the only direction a cubic cannot fit, so the samples' distance from the
# best cubic through them is |samples . w| / |w|^2 * w.
_FOURTH_DIFFERENCE = (1.0, -4.0, 6.0, -4.0, 1.0)
_FOURTH_DIFFERENCE_NORM2 = 70.0


def numerical_grad(
    f,
    inputs,
    grad_outputs,
    eps=1e-3,
    detect_nondifferentiable=False,
    diff_atol=0,
    diff_rtol=1e-2,
    center_outputs=None,
):
    """Computes the gradient of a function by central finite differences.

    Each element of each input is moved by ``+eps`` and ``-eps`` in place,
    ``f`` is called, and the change of the outputs, weighted by
    ``grad_outputs``, gives that element's gradient. The arithmetic is done
    in float64 whatever the dtypes (float16 included); the result has the
    inputs' dtypes.

    Args:
        f (callable): Function with no arguments that reads ``inputs`` and
            returns an array, a :class:`~chainerlite.Variable`, or a tuple of
            them (``None`` entries are ignored).
        inputs (tuple of arrays): Floating point arrays (NumPy or CuPy) that
            ``f`` reads; they are modified while the function runs and
            restored before it returns.
        grad_outputs (tuple of arrays or scalars): Gradients of the outputs,
            one per output; ``None`` means the output does not count.
        eps (float): Step of the finite differences.
        detect_nondifferentiable (bool): If ``True``, ``f`` is sampled at
            five points per element (``x - 2 eps`` ... ``x + 2 eps``), the
            samples are checked to lie on a cubic curve, and the gradient is
            computed from the five samples, which is more accurate.
        diff_atol (float): Absolute tolerance of the distance between the
            samples and the best fitting cubic.
        diff_rtol (float): Tolerance of that distance relative to the largest
            absolute output value among the samples.
        center_outputs (tuple of arrays or None): Outputs of ``f`` at
            ``inputs``, used by ``detect_nondifferentiable`` instead of
            calling ``f`` once more.

    Returns:
        tuple of arrays: The numerical gradients, one per input.

    Raises:
        NondifferentiableError: If ``detect_nondifferentiable`` is ``True``
            and an output is not smooth around the inputs.
        ValueError: If ``eps`` is not positive (an ``AssertionError``
            too), or ``f`` returns another number of outputs.
        TypeError: If an input is not floating (a ``RuntimeError`` too).

    .. admonition:: Example

        >>> import numpy
        >>> from chainerlite import gradient_check
        >>> x = numpy.array([1.0, 2.0])
        >>> gx, = gradient_check.numerical_grad(
        ...     lambda: x ** 2, (x,), (numpy.ones(2),))
        >>> numpy.round(gx, 6)
        array([2., 4.])

    """
    if eps <= 0:
        # an AssertionError too, as Chainer 7.8.1 asserts eps > 0
        raise _chainer_errors.AssertedValueError(
            'eps must be positive, got {}'.format(eps)
        )
    inputs = tuple(inputs)
    grad_outputs = tuple(grad_outputs)
    xp = _array_module(
        *(inputs + tuple(gy for gy in grad_outputs if hasattr(gy, 'shape')))
    )
    for i, x in enumerate(inputs):
        if x.dtype.kind != 'f':
            raise _chainer_errors.DtypeRuntimeError(
                'numerical_grad needs floating point inputs, but input {} '
                'has dtype {}'.format(i, x.dtype)
            )

    def evaluate():
        ys = _output_arrays(f())
        if len(ys) != len(grad_outputs):
            raise ValueError(
                'f returned {} outputs but {} grad_outputs were given'.format(
                    len(ys), len(grad_outputs)
                )
            )
        return ys

    center = None
    if detect_nondifferentiable:
        if center_outputs is None:
            center = evaluate()
        else:
            center = _output_arrays(center_outputs)

    grads = []
    for i_input, x in enumerate(inputs):
        gx = numpy.zeros(x.shape, dtype=numpy.float64)
        scalar = x.dtype.type
        for index in numpy.ndindex(x.shape):
            original = x[index].item()
            try:
                if detect_nondifferentiable:
                    gx[index] = _five_point_grad(
                        x,
                        index,
                        original,
                        eps,
                        evaluate,
                        center,
                        grad_outputs,
                        xp,
                        diff_atol,
                        diff_rtol,
                        i_input,
                    )
                else:
                    upper = float(scalar(original + eps))
                    lower = float(scalar(original - eps))
                    x[index] = upper
                    ys_upper = evaluate()
                    x[index] = lower
                    ys_lower = evaluate()
                    diff = [
                        None if a is None else a - b for a, b in zip(ys_upper, ys_lower)
                    ]
                    gx[index] = _weighted_sum(diff, grad_outputs, xp) / (upper - lower)
            finally:
                x[index] = original
        grads.append(xp.asarray(gx).astype(x.dtype, copy=False))
    return tuple(grads)


def _five_point_grad(
    x,
    index,
    original,
    eps,
    evaluate,
    center,
    grad_outputs,
    xp,
    diff_atol,
    diff_rtol,
    i_input,
):
    samples = []
    for k in (-2, -1, 0, 1, 2):
        if k == 0:
            samples.append(center)
        else:
            x[index] = original + k * eps
            samples.append(evaluate())
    for i_output, gy in enumerate(grad_outputs):
        values = [ys[i_output] for ys in samples]
        if gy is None or values[0] is None:
            continue
        misfit = sum(w * v for w, v in zip(_FOURTH_DIFFERENCE, values))
        residual = xp.abs(misfit) * (6.0 / _FOURTH_DIFFERENCE_NORM2)
        scale = values[0]
        for v in values[1:]:
            scale = xp.maximum(xp.abs(scale), xp.abs(v))
        tolerance = diff_atol + diff_rtol * xp.abs(scale)
        if bool((residual > tolerance).any()):
            raise NondifferentiableError(
                'Output {} is not differentiable with respect to input {} '
                'at index {}.\nSampled at x = {!r} + k * {!r} for k = -2 .. 2:'
                '\n{}\nDistance from the best fitting cubic: {}\n'
                'Tolerance: {}'.format(
                    i_output,
                    i_input,
                    index,
                    original,
                    eps,
                    '\n'.join(str(v) for v in values),
                    residual,
                    tolerance,
                )
            )
    weights = (1.0, -8.0, 0.0, 8.0, -1.0)
    combined = [None] * len(grad_outputs)
    for w, ys in zip(weights, samples):
        for i, y in enumerate(ys):
            if y is not None and w != 0.0:
                combined[i] = w * y if combined[i] is None else (combined[i] + w * y)
    return _weighted_sum(combined, grad_outputs, xp) / (12.0 * eps)


_gradient_setter_class = None


def _gradient_setter(grads):
    """Node that feeds ``grads`` to several outputs in one backward pass."""
    global _gradient_setter_class
    if _gradient_setter_class is None:

        class _GradientSetter(chainerlite.FunctionNode):
            def __init__(self, grads):
                self.grads = grads

            def forward(self, inputs):
                xp = _array_module(*inputs)
                return (xp.zeros((), dtype=numpy.float32),)

            def backward(self, target_input_indexes, grad_outputs):
                return tuple(
                    None
                    if self.grads[i] is None
                    else chainerlite.Variable(self.grads[i])
                    for i in target_input_indexes
                )

        _gradient_setter_class = _GradientSetter
    return _gradient_setter_class(grads)


def _call_func(func, xs):
    ys = _as_tuple(func(*xs))
    for i, y in enumerate(ys):
        if not isinstance(y, chainerlite.Variable):
            raise TypeError(
                'func must return a Variable or a tuple of Variables, but '
                'output {} is {}'.format(i, type(y).__name__)
            )
    return ys


def _run_backward(ys, y_grad):
    if len(ys) == 1:
        (y,) = ys
        if y_grad[0] is not None:
            y.grad = y_grad[0]
        y.backward()
        return
    setter = _gradient_setter(y_grad)
    (dummy,) = setter.apply(ys)
    dummy.backward()


def _format_arrays(title, arrays):
    lines = [title]
    for i, a in enumerate(arrays):
        if a is None:
            lines.append('  [{}]: None'.format(i))
            continue
        if _is_cupy_array(a):
            a = a.get()
        a = numpy.asarray(a)
        text = numpy.array2string(a, threshold=100, max_line_width=79)
        lines.append(
            '  [{}]: shape={} dtype={}\n    {}'.format(
                i, a.shape, a.dtype, text.replace('\n', '\n    ')
            )
        )
    return '\n'.join(lines)


def check_backward(
    func,
    x_data,
    y_grad,
    params=(),
    eps=1e-3,
    atol=1e-5,
    rtol=1e-4,
    no_grads=None,
    dtype=None,
    detect_nondifferentiable=False,
):
    """Checks the gradients computed by backpropagation through a function.

    The inputs are wrapped in :class:`~chainerlite.Variable` objects, ``func``
    is called, ``y_grad`` is fed to its outputs and ``backward`` computes the
    gradients of the inputs (and of ``params``). To compare them with finite
    differences cheaply, a random unit direction :math:`r` over all checked
    inputs and parameters is drawn and the directional derivative of

    .. math::

        g(\\delta) = \\sum_i \\langle y_i(x + \\delta r), gy_i \\rangle

    at :math:`\\delta = 0`, computed by :func:`numerical_grad`, is compared
    with :math:`\\sum_j \\langle gx_j, r_j \\rangle` from backpropagation.

    Backpropagation is checked along both of its paths: the raw-array one
    of ``Variable.backward()`` and the one through each node's
    Variable-level ``backward`` (used for double backprop), computed with
    :func:`chainerlite.grad` and ``enable_double_backprop=True`` on the
    same graph. Each must match the numerical derivative, and the two must
    agree element by element.

    A typical test wraps a function node::

        def f(x1, x2):
            y, = MyFunc().apply((x1, x2))
            return y

        check_backward(f, (x1_data, x2_data), gy_data)

    Args:
        func (callable): Takes Variables (one per array of ``x_data``) and
            returns a Variable or a tuple of Variables.
        x_data (array or tuple of arrays): The input arrays (NumPy or CuPy).
        y_grad (array, tuple of arrays or None): Gradients of the outputs
            (``None`` entries count as zero). Pass ``None`` when ``func``
            returns one scalar (size 1) output; its gradient is then one.
        params (tuple of Variable): Parameters used by ``func`` (for example
            the parameters of a link) whose gradients are checked too.
        eps (float): Step of the finite differences.
        atol (float): Absolute tolerance of the comparison.
        rtol (float): Relative tolerance of the comparison.
        no_grads (list of bool or None): For each input, ``True`` to leave it
            out of the check (it gets ``requires_grad=False``). By default the
            inputs whose dtype is not floating point are left out.
        dtype (numpy.dtype or None): If given, the floating point inputs and
            parameters are cast to it for the numerical gradient; float64
            makes checks of float16 and float32 functions reliable. Without
            it the numerical side runs in the arrays' own dtypes. Either way
            type checks are off there (``config.type_check``), as in
            Chainer, so a float32 link can be checked with float64 inputs.
        detect_nondifferentiable (bool): Passed to :func:`numerical_grad`:
            raise :class:`NondifferentiableError` if ``func`` is not smooth
            around the inputs, which usually means the test picked inputs too
            close to a kink.

    Raises:
        AssertionError: If the gradients differ beyond the tolerances, or a
            gradient's shape or dtype differs from its input's. The message
            reports the inputs, the gradients and the direction used.

    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    if dtype is not None and numpy.dtype(dtype).kind != 'f':
        raise ValueError('dtype must be a float type, got {}'.format(dtype))
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in x_data]
    elif len(no_grads) != len(x_data):
        raise ValueError(
            'no_grads has {} entries but there are {} inputs'.format(
                len(no_grads), len(x_data)
            )
        )

    xs = [
        chainerlite.Variable(x, requires_grad=not skip)
        for x, skip in zip(x_data, no_grads)
    ]
    for p in params:
        p.cleargrad()
    ys = _call_func(func, xs)
    scalar_loss = y_grad is None
    y_grad = _normalize_y_grad(y_grad, ys)
    targets = [xv for xv, skip in zip(xs, no_grads) if not skip]
    graph_grads = _graph_path_grads(ys, targets + list(params), y_grad, scalar_loss)
    _run_backward(ys, y_grad)

    checked = [
        (x, xv.grad, 'input {}'.format(i))
        for i, (x, xv, skip) in enumerate(zip(x_data, xs, no_grads))
        if not skip
    ]
    checked += [
        (p.array, p.grad, 'parameter {}'.format(i)) for i, p in enumerate(params)
    ]
    for x, gx, label in checked:
        if gx is None:
            continue
        if gx.shape != x.shape or gx.dtype != x.dtype:
            raise AssertionError(
                'The gradient of {} has shape {} and dtype {}, but {} has '
                'shape {} and dtype {}'.format(
                    label, gx.shape, gx.dtype, label, x.shape, x.dtype
                )
            )
    if not checked:
        return

    xp = _array_module(*[x for x, _, _ in checked])
    directions = _unit_direction([x.shape for x, _, _ in checked])
    if directions is None:
        return
    directions = [xp.asarray(d) for d in directions]

    backprop = _directional(checked, [gx for _, gx, _ in checked], directions)
    graph = (
        None if graph_grads is None else _directional(checked, graph_grads, directions)
    )

    if scalar_loss:
        numeric_y_grad = (xp.ones(ys[0].shape, dtype=numpy.float64),)
    else:
        numeric_y_grad = y_grad
    numeric = _directional_numerical_grad(
        func,
        x_data,
        no_grads,
        params,
        directions,
        numeric_y_grad,
        eps,
        dtype,
        detect_nondifferentiable,
        xp,
    )

    # chainerlite.testing needs pytest; import it only when checking
    from chainerlite.testing import array as testing_array

    for name, value in (
        ('backpropagation', backprop),
        ('backpropagation with enable_double_backprop=True', graph),
    ):
        if value is None:
            continue
        try:
            testing_array.assert_allclose(numeric, value, atol=atol, rtol=rtol)
        except AssertionError as e:
            report = [
                'check_backward failed: the directional derivative from {} '
                'does not match the numerical one (eps={}, atol={}, '
                'rtol={}).'.format(name, eps, atol, rtol),
                'numerical:       {!r}'.format(numeric),
                'backpropagation: {!r}'.format(backprop),
                'backpropagation with enable_double_backprop=True: {!r}'.format(graph),
                _format_arrays('inputs:', x_data),
                _format_arrays('output gradients (y_grad):', y_grad),
                _format_arrays(
                    'gradients from backpropagation:', [gx for _, gx, _ in checked]
                ),
                _format_arrays(
                    'gradients with enable_double_backprop=True:', graph_grads or []
                ),
                _format_arrays('direction:', directions),
                str(e),
            ]
            raise AssertionError('\n'.join(report)) from None
    if graph_grads is not None:
        _compare_paths(checked, graph_grads, atol, rtol, x_data)


def _check_backward_with_params(
    func,
    x_data,
    y_grad,
    params=(),
    eps=1e-3,
    atol=1e-5,
    rtol=1e-4,
    no_grads=None,
    dtype=None,
    detect_nondifferentiable=False,
):
    """:func:`check_backward` with parameters given as arrays, which the
    caller's arrays never see perturbed (Chainer's ``LinkTestCase`` checks
    a link this way).

    ``func(xs, params)`` gets the list of input Variables and a tuple of
    :class:`~chainerlite.Parameter` objects holding ``params`` and returns
    the outputs; the gradients of the inputs and of the parameters are
    checked as :func:`check_backward` does.

    Raises:
        AssertionError: If an item of ``params`` is not an array (as
            Chainer's).
    """
    params = _as_tuple(params)
    if not all(isinstance(p, chainerlite.get_array_types()) for p in params):
        raise AssertionError(
            '_check_backward_with_params: all parameters in params must be '
            'arrays, not {}'.format(', '.join(type(p).__name__ for p in params))
        )
    wrapped = tuple(chainerlite.Parameter(p.copy()) for p in params)

    def forward(*xs):
        return func(list(xs), wrapped)

    check_backward(
        forward,
        x_data,
        y_grad,
        wrapped,
        eps,
        atol,
        rtol,
        no_grads,
        dtype,
        detect_nondifferentiable,
    )


def _graph_path_grads(ys, targets, y_grad, scalar_loss):
    # The gradients through the Variable-level backward() of every node
    # (the path of double backprop), computed on the same graph before the
    # raw-array backward runs: a function that draws random numbers is not
    # called again. None when a node cannot backprop on that path.
    if not targets:
        return []
    grad_outputs = []
    for y, gy in zip(ys, y_grad):
        if gy is None:
            xp = _array_module(y.array)
            gy = (xp.ones_like if scalar_loss else xp.zeros_like)(y.array)
        grad_outputs.append(gy)
    try:
        grads = chainerlite.grad(
            list(ys), targets, grad_outputs=grad_outputs, enable_double_backprop=True
        )
    except function_node.DoubleBackpropError:
        return None
    return [None if g is None else g.array for g in grads]


def _unit_direction(shapes):
    """A random unit direction over arrays of these shapes (None if empty).

    One standard normal vector is drawn for all the entries together, as
    Chainer draws it, so that a test seeding NumPy checks the direction it
    checks under Chainer. Each squared entry of the unit vector keeps 99% of
    its share of the length and gets an equal part of the remaining 1%, so
    that no entry is near zero (a tiny step of an input hides its errors).
    """
    sizes = [int(numpy.prod(shape)) for shape in shapes]
    total = sum(sizes)
    drawn = numpy.random.normal(size=(total,))
    squares = numpy.square(drawn)
    if total == 0 or squares.sum() == 0:
        return None
    flat = numpy.copysign(
        numpy.sqrt(squares * (0.99 / squares.sum()) + 0.01 / total), drawn
    )
    ends = numpy.cumsum(sizes)
    return [
        flat[end - size : end].reshape(shape)
        for shape, size, end in zip(shapes, sizes, ends)
    ]


def _directional(checked, grads, directions):
    total = 0.0
    for (x, _, _), gx, d in zip(checked, grads, directions):
        if gx is not None:
            total += float((gx.astype(numpy.float64) * d).sum())
    return total


def _compare_paths(checked, graph_grads, atol, rtol, x_data):
    # Both paths compute the same gradients; each element must agree.
    from chainerlite.testing import array as testing_array

    for (x, gx, label), gg in zip(checked, graph_grads):
        if gx is None and gg is None:
            continue
        xp = _array_module(x)
        a = xp.zeros_like(x) if gx is None else gx
        b = xp.zeros_like(x) if gg is None else gg
        try:
            testing_array.assert_allclose(a, b, atol=atol, rtol=rtol)
        except AssertionError as e:
            raise AssertionError(
                '\n'.join(
                    [
                        'check_backward failed: the gradient of {} from '
                        'backpropagation differs from the one with '
                        'enable_double_backprop=True (atol={}, rtol={}).'.format(
                            label, atol, rtol
                        ),
                        _format_arrays('inputs:', x_data),
                        _format_arrays('backpropagation:', [gx]),
                        _format_arrays('enable_double_backprop=True:', [gg]),
                        str(e),
                    ]
                )
            ) from None


def _normalize_y_grad(y_grad, ys):
    if y_grad is None:
        if len(ys) != 1 or ys[0].array.size != 1:
            raise ValueError(
                'y_grad may be None only when func returns one scalar '
                'output; got {} output(s) with shapes {}'.format(
                    len(ys), [y.shape for y in ys]
                )
            )
        return (None,)
    y_grad = _as_tuple(y_grad)
    if len(y_grad) != len(ys):
        raise ValueError(
            'func returned {} outputs but y_grad has {} entries'.format(
                len(ys), len(y_grad)
            )
        )
    for i, (y, gy) in enumerate(zip(ys, y_grad)):
        if gy is not None and gy.shape != y.shape:
            raise ValueError(
                'y_grad[{}] has shape {} but output {} has shape {}'.format(
                    i, gy.shape, i, y.shape
                )
            )
    return y_grad


def _directional_numerical_grad(
    func,
    x_data,
    no_grads,
    params,
    directions,
    y_grad,
    eps,
    dtype,
    detect_nondifferentiable,
    xp,
):
    delta = xp.zeros((), dtype=numpy.float64)
    param_data = [p.array for p in params]
    n_checked_inputs = sum(1 for skip in no_grads if not skip)
    input_directions = iter(directions[:n_checked_inputs])
    moved = []
    for x, skip in zip(x_data, no_grads):
        moved.append(None if skip else next(input_directions))
    param_directions = directions[n_checked_inputs:]

    def cast(a, original_dtype):
        # As in Chainer: without ``dtype`` every array keeps its dtype (the
        # move along the direction is computed in float64 and rounded back);
        # with ``dtype`` the floating inputs and parameters are evaluated in
        # it. Type checks are off on this side, so a cast input may meet a
        # link's parameters of another dtype.
        if original_dtype.kind != 'f' or dtype is None:
            return utils.force_array(a.astype(original_dtype, copy=False))
        return utils.force_array(a.astype(dtype, copy=False))

    def g():
        xs = []
        for x, d in zip(x_data, moved):
            if d is None:
                xs.append(chainerlite.Variable(x, requires_grad=False))
            else:
                xs.append(
                    chainerlite.Variable(
                        cast(x.astype(numpy.float64) + delta * d, x.dtype)
                    )
                )
        for p, data, d in zip(params, param_data, param_directions):
            p.array = cast(data.astype(numpy.float64) + delta * d, data.dtype)
        with chainerlite.using_config('type_check', False):
            return tuple(y.array for y in _call_func(func, xs))

    try:
        (gd,) = numerical_grad(
            g,
            (delta,),
            y_grad,
            eps=eps,
            detect_nondifferentiable=detect_nondifferentiable,
        )
    finally:
        for p, data in zip(params, param_data):
            p.array = data
    return float(gd)


def check_double_backward(
    func,
    x_data,
    y_grad,
    x_grad_grad,
    params=(),
    params_grad_grad=(),
    eps=1e-3,
    atol=1e-4,
    rtol=1e-3,
    no_grads=None,
    dtype=None,
    detect_nondifferentiable=False,
):
    """Checks the second order gradients of a function.

    It builds the function that maps ``(x, gy)`` to the first order
    gradients ``gx`` (and the gradients of ``params``) with
    :func:`chainerlite.grad` and ``enable_double_backprop=True``, and checks
    that function's backward with :func:`check_backward`. So the gradients
    with respect to both ``x`` and ``gy`` are checked.

    Args:
        func (callable): As in :func:`check_backward`.
        x_data (array or tuple of arrays): The inputs.
        y_grad (array, tuple of arrays or None): Gradients of the outputs of
            ``func``; they are inputs of the checked function. ``None`` for
            one scalar output means a gradient of one.
        x_grad_grad (array or tuple of arrays): Gradients of the first order
            gradients ``gx``, one per input (or one per input that is not
            left out by ``no_grads``).
        params (tuple of Variable): Parameters used by ``func``.
        params_grad_grad (tuple of arrays): Gradients of the first order
            gradients of ``params``.
        eps (float): Step of the finite differences.
        atol (float): Absolute tolerance.
        rtol (float): Relative tolerance.
        no_grads (list of bool or None): As in :func:`check_backward`.
        dtype (numpy.dtype or None): As in :func:`check_backward`.
        detect_nondifferentiable (bool): As in :func:`check_backward`.

    Raises:
        AssertionError: If the second order gradients are wrong.

    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    n_x = len(x_data)
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in x_data]
    elif len(no_grads) != n_x:
        raise ValueError(
            'no_grads has {} entries but there are {} inputs'.format(len(no_grads), n_x)
        )
    if y_grad is None:
        with chainerlite.using_config('enable_backprop', False):
            ys = _call_func(func, [chainerlite.Variable(x) for x in x_data])
        if len(ys) != 1 or ys[0].array.size != 1:
            raise ValueError(
                'y_grad may be None only when func returns one scalar output'
            )
        y_grad = (_array_module(ys[0].array).ones_like(ys[0].array),)
    y_grad = _as_tuple(y_grad)

    x_grad_grad = _as_tuple(x_grad_grad)
    n_checked = sum(1 for skip in no_grads if not skip)
    if len(x_grad_grad) == n_x and n_checked != n_x:
        x_grad_grad = tuple(gg for gg, skip in zip(x_grad_grad, no_grads) if not skip)
    if len(x_grad_grad) != n_checked:
        raise ValueError(
            'x_grad_grad has {} entries but {} inputs are checked'.format(
                len(x_grad_grad), n_checked
            )
        )
    params_grad_grad = _as_tuple(params_grad_grad)
    if len(params_grad_grad) != len(params):
        raise ValueError(
            'params_grad_grad has {} entries but there are {} params'.format(
                len(params_grad_grad), len(params)
            )
        )

    def first_order_grad(*inputs):
        xs = inputs[:n_x]
        # A None entry of y_grad arrives as a Variable without an array.
        gys = [None if gy.array is None else gy for gy in inputs[n_x:]]
        ys = _call_func(func, xs)
        if len(ys) != len(gys):
            raise ValueError(
                'func returned {} outputs but y_grad has {} entries'.format(
                    len(ys), len(gys)
                )
            )
        targets = [x for x, skip in zip(xs, no_grads) if not skip]
        targets += list(params)
        grads = chainerlite.grad(
            ys, targets, grad_outputs=gys, enable_double_backprop=True
        )
        return tuple(
            chainerlite.Variable(_array_module(t.array).zeros_like(t.array))
            if g is None
            else g
            for g, t in zip(grads, targets)
        )

    check_backward(
        first_order_grad,
        x_data + y_grad,
        x_grad_grad + params_grad_grad,
        params=params,
        eps=eps,
        atol=atol,
        rtol=rtol,
        no_grads=list(no_grads) + [gy is None for gy in y_grad],
        dtype=dtype,
        detect_nondifferentiable=detect_nondifferentiable,
    )
