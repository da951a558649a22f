import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


@pytest.mark.parametrize(
    'in_shape, out_shape',
    [
        ((3,), (2, 3)),
        ((1,), (4,)),
        ((2, 1), (2, 3)),
        ((1, 3, 1), (4, 2, 3, 5)),
        ((), (2, 3)),
    ],
)
def test_forward_backward_double_backward(in_shape, out_shape):
    x = numpy.random.uniform(-1, 1, in_shape)
    y = F.broadcast_to(x, out_shape)
    assert y.shape == out_shape
    numpy.testing.assert_array_equal(y.array, numpy.broadcast_to(x, out_shape))
    gy = numpy.random.uniform(-1, 1, out_shape)
    ggx = numpy.random.uniform(-1, 1, in_shape)

    def f(x):
        return F.broadcast_to(x, out_shape)

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_same_shape_returns_input_variable():
    x = chainerlite.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.broadcast_to(x, (2, 3)) is x


@pytest.mark.parametrize(
    'in_shape, out_shape', [((2,), (3,)), ((2, 3), (3,)), ((3, 2), (3, 3))]
)
def test_invalid_shapes(in_shape, out_shape):
    with pytest.raises(type_check.InvalidType, match='BroadcastTo'):
        F.broadcast_to(numpy.zeros(in_shape, numpy.float32), out_shape)


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }


@testing.parameterize(
    *testing.product(
        {
            'shapes': [
                ((3, 1), (1, 2)),
                ((2, 3), (3,), ()),
                ((2, 1, 3), (4, 1)),
                ((2, 3), (2, 3)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBroadcast(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, shape).astype(self.dtype)
            for shape in self.shapes
        )

    def forward(self, inputs, device):
        return F.broadcast(*inputs)

    def forward_expected(self, inputs):
        return tuple(numpy.broadcast_arrays(*inputs))


def test_broadcast_of_one_argument_returns_it_as_a_variable():
    x = chainerlite.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.broadcast(x) is x
    y = F.broadcast(numpy.zeros(3, numpy.float32))
    assert isinstance(y, chainerlite.Variable) and y.shape == (3,)


def test_broadcast_gradient_of_unused_output():
    x = chainerlite.Variable(numpy.ones((2, 1), numpy.float32))
    z = chainerlite.Variable(numpy.ones(3, numpy.float32))
    _, zb = F.broadcast(x, z)
    F.sum(zb).backward()
    assert x.grad is None
    numpy.testing.assert_array_equal(z.grad, [2, 2, 2])


@pytest.mark.parametrize(
    'shapes, match',
    [
        (((2, 3), (2,)), 'cannot broadcast'),
        (((2, 3), (3, 3)), 'cannot broadcast'),
        ((), 'Broadcast'),
    ],
)
def test_broadcast_incompatible_shapes(shapes, match):
    # Chainer's messages: the shapes that do not broadcast, or (no input)
    # the function and the failed condition
    xs = [numpy.zeros(shape, numpy.float32) for shape in shapes]
    with pytest.raises(type_check.InvalidType, match=match):
        F.broadcast(*xs)


@pytest.mark.parametrize(
    'x',
    [
        numpy.arange(3, dtype=numpy.float32),  # viewed directly
        numpy.full((), 2.5, numpy.float64),
        numpy.arange(6, dtype=numpy.float16).reshape(2, 3)[:, ::2][:1],
        numpy.arange(6, dtype=numpy.int32).reshape(3, 2).T[:, :1],
        numpy.arange(3, dtype=numpy.float32)[::-1],
        numpy.zeros((0, 1), numpy.float32),
        numpy.array([1, 'a'], dtype=object)[:1],
        # size-one axis with an unusual stride (still C-contiguous)
        numpy.lib.stride_tricks.as_strided(
            numpy.arange(3, dtype=numpy.float32), (1, 3), (1000, 4)
        ),
    ],
)
def test_forward_is_numpy_broadcast_read_only_view(x):
    # Chainer's broadcast_to gives NumPy's read-only broadcast view; the
    # direct view of a contiguous array must be the same, bit for bit.
    shape = (4,) + tuple(2 if n == 1 else n for n in x.shape)
    y = F.broadcast_to(x, shape).array
    expected = numpy.broadcast_to(x, shape)
    assert y.shape == expected.shape and y.dtype == x.dtype
    assert not y.flags.writeable
    assert numpy.shares_memory(y, x) or x.size == 0
    assert y.tobytes() == expected.tobytes()


def test_forward_view_follows_the_input():
    x = numpy.arange(3, dtype=numpy.float32).reshape(3, 1)
    y = F.broadcast_to(x, (2, 3, 4)).array
    x[1, 0] = 7
    assert (y[:, 1, :] == 7).all()
    assert y.strides == (0, 4, 0)
