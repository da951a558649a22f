"""Hypothesis strategies for the arguments of Chainer's public API, by kind.

A parameter's kind comes from its name (``KINDS``) or, for optional
parameters, from the type of its default. Arrays are drawn with every
floating dtype Chainer accepts, in C or Fortran order, strided (not
contiguous) or with negative strides, and shapes that include 0-d, 0-size
and one-element arrays and broadcast partners of a call's base shape.
"""

import numpy
from hypothesis import strategies as st

FLOATS = (numpy.float16, numpy.float32, numpy.float64)
LAYOUTS = ('C', 'F', 'strided', 'reversed')
# Array-valued parameters of chainer.functions, by name.
ARRAY_NAMES = frozenset(
    'x a b x0 x1 x2 y W mean var gamma beta h z e1 e2 c_prev c_prev1 c_prev2 '
    'cx hx X cost ln_var theta grid offset pred true anchor positive negative '
    'condition q p log_pi V1 V2 embeddings source dst r rmax dmax x_min x_max '
    'running_mean running_var weights sample_weight class_weight'.split()
)
ARRAY_LIST_NAMES = frozenset('xs ws bs ys *xs *inputs *operands *args'.split())
LABEL_NAMES = frozenset('t labels indices indexes'.split())
AXIS_NAMES = frozenset('axis axes axis1 axis2 start'.split())
WINDOW_NAMES = frozenset('ksize stride pad outsize dilate pool_size'.split())


def kind_of(param_name, default=None, has_default=False):
    """The kind of a parameter, or None when there is no strategy for it.
    An array name with a number as the default is that number's kind
    (``beta`` is an array of ``batch_normalization`` but the exponent of
    ``local_response_normalization``, 0.75 by default)."""
    numeric = has_default and isinstance(default, (int, float))
    if param_name in ARRAY_NAMES and not numeric:
        return 'array'
    if param_name in ARRAY_LIST_NAMES:
        return 'arrays'
    if param_name in LABEL_NAMES:
        return 'labels'
    if param_name in AXIS_NAMES:
        return 'axis'
    if param_name in WINDOW_NAMES:
        return 'window'
    if param_name == 'shape':
        return 'shape'
    if not has_default:
        return None
    if isinstance(default, bool):
        return 'bool'
    if isinstance(default, int):
        return 'int'
    if isinstance(default, float):
        return 'float'
    return None


def make_array(seed, shape, dtype, layout='C', low=-2.0, high=2.0):
    """An array of ``shape`` and ``dtype`` with values from ``seed``, in ``layout``."""
    rng = numpy.random.RandomState(seed)
    shape = tuple(shape)
    if numpy.dtype(dtype).kind in 'iu':
        base = rng.randint(int(low), int(high), size=shape).astype(dtype)
    elif numpy.dtype(dtype).kind == 'b':
        base = rng.rand(*shape) < 0.5
    else:
        base = rng.uniform(low, high, size=shape).astype(dtype)
    if layout == 'F' and base.ndim >= 2:
        return numpy.asfortranarray(base)
    if layout == 'strided' and base.ndim:
        wide = numpy.zeros(shape[:-1] + (2 * shape[-1],), dtype=base.dtype)
        wide[..., ::2] = base
        return wide[..., ::2]
    if layout == 'reversed' and base.ndim:
        return numpy.ascontiguousarray(base[..., ::-1])[..., ::-1]
    return base


seeds = st.integers(0, 2**31 - 1)
dims = st.integers(0, 4)
# Base shapes of a call: 0-d, 0-size, one element and small ones.
base_shapes = st.one_of(
    st.sampled_from([(), (0,), (1,), (1, 1), (2, 0, 3)]),
    st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple),
)


@st.composite
def arrays(draw, shape, dtypes=FLOATS):
    """A floating array of exactly ``shape``: any dtype of ``dtypes``, any layout."""
    return make_array(
        draw(seeds),
        shape,
        draw(st.sampled_from(dtypes)),
        draw(st.sampled_from(LAYOUTS)),
    )


@st.composite
def broadcast_partner(draw, shape):
    """``shape`` itself, or a shape that broadcasts with it (leading axes
    dropped, some axes of length 1)."""
    if draw(st.booleans()):
        return tuple(shape)
    kept = tuple(shape[draw(st.integers(0, len(shape))) :])
    return tuple(1 if draw(st.booleans()) else n for n in kept)


@st.composite
def axes(draw, ndim):
    """None, one axis (negative ones too) or a tuple of distinct axes."""
    choice = draw(st.sampled_from(('none', 'int', 'tuple')))
    if choice == 'none' or ndim == 0:
        return None if choice == 'none' or draw(st.booleans()) else 0
    if choice == 'int':
        return draw(st.integers(-ndim, ndim - 1))
    picked = draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim))
    return tuple(a - ndim if draw(st.booleans()) else a for a in picked)


windows = st.one_of(st.integers(1, 3), st.tuples(st.integers(1, 3), st.integers(1, 3)))


@st.composite
def reshape_targets(draw, shape):
    """A shape with as many elements as ``shape`` (with -1 sometimes)."""
    size = int(numpy.prod(shape))
    options = [(size,), tuple(reversed(shape)), (-1,), (1, size), (size, 1)]
    return draw(st.sampled_from(options))


@st.composite
def labels(draw, shape):
    """int32 class labels for inputs of ``shape``: one per sample and
    position of axis 1's classes (-1, the usual ignore label, too)."""
    if len(shape) >= 2:
        out_shape, n_class = shape[:1] + shape[2:], shape[1]
    else:
        out_shape, n_class = shape, 2
    return make_array(draw(seeds), out_shape, numpy.int32, 'C', -1, n_class)


def scalar_near(default):
    """Values for a parameter whose default is ``default``."""
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int):
        return st.sampled_from([default, 0, 1, 2, -1])
    return st.sampled_from([default, 0.0, 0.5, -1.0, 2.0])
