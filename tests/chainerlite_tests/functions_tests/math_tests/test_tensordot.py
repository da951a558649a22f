import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shapes_axes': [
                (((5, 3, 2), (3, 2, 4)), 2),
                (((5, 3, 2), (3, 2, 4)), ([1], [0])),
                (((3, 4, 2), (2, 3)), ([0, 2], [1, 0])),
                (((3, 4), (4, 3)), ((1, 0), (0, 1))),
                (((3, 4), (4, 2)), (-1, 0)),
                (((2, 3), (4,)), 0),
                (((3,), (3,)), 1),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTensorDot(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 5e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 2e-2,
                'rtol': 5e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-4,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }

    def generate_inputs(self):
        shapes, _ = self.shapes_axes
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in shapes)

    def forward(self, inputs, device):
        a, b = inputs
        _, axes = self.shapes_axes
        return (F.tensordot(a, b, axes=axes),)

    def forward_expected(self, inputs):
        a, b = inputs
        _, axes = self.shapes_axes
        y = numpy.tensordot(a.astype(numpy.float64), b.astype(numpy.float64), axes=axes)
        return (numpy.asarray(y, self.dtype),)


def test_default_axes_is_2():
    a = numpy.random.uniform(-1, 1, (2, 3, 4))
    b = numpy.random.uniform(-1, 1, (3, 4, 5))
    numpy.testing.assert_allclose(F.tensordot(a, b).array, numpy.tensordot(a, b))


@pytest.mark.parametrize(
    'a_shape, b_shape, axes, error, message',
    [
        ((2, 3), (4, 3), 1, ValueError, 'shape mismatch'),
        ((2, 3), (3,), 'x', TypeError, 'pair of sequence'),
        ((2, 3), (3,), ([1],), ValueError, 'pair of sequence'),
        ((2, 3), (3,), ([1, 0], [0]), ValueError, 'axes count mismatch'),
        ((2, 3), (3,), 2, ValueError, 'dot-axes count'),
        ((2, 3), (3,), ([2], [0]), ValueError, 'out of range'),
        ((3, 3), (3, 3), ([0, 0], [0, 1]), ValueError, 'repeated'),
    ],
)
def test_invalid_axes(a_shape, b_shape, axes, error, message):
    a = numpy.ones(a_shape, numpy.float32)
    b = numpy.ones(b_shape, numpy.float32)
    with pytest.raises(error, match='tensordot: .*' + message):
        F.tensordot(a, b, axes=axes)


@pytest.mark.parametrize('a_shape, b_shape', [((2, 3), (3,)), ((), ())])
def test_negative_axes_count_is_the_outer_product(a_shape, b_shape):
    # as NumPy's tensordot and Chainer 7.8.1's compute it
    a = chainerlite.Variable(numpy.random.uniform(-1, 1, a_shape))
    b = chainerlite.Variable(numpy.random.uniform(-1, 1, b_shape))
    y = F.tensordot(a, b, axes=-1)
    numpy.testing.assert_allclose(y.array, numpy.multiply.outer(a.array, b.array))
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_allclose(a.grad, numpy.ones(a_shape) * b.array.sum())


def test_integer_input_is_invalid():
    a = numpy.ones((2, 3), numpy.int32)
    with pytest.raises(type_check.InvalidType, match='TensorDot'):
        F.tensordot(a, numpy.ones((3,), numpy.int32), axes=1)


def test_node_takes_chainers_axes_arguments():
    # Chainer 7.8.1's TensorDot(axes=2, a_axes, b_axes, c_axes, dtype): after
    # forward it holds a_axes = [free, summed], b_axes = [summed, free] and
    # c_axes = [a's free positions, b's free positions]; its backward nodes
    # place the output axes by c_axes.
    from chainerlite.functions.math.tensordot import TensorDot

    rng = numpy.random.RandomState(0)
    a = rng.uniform(-1, 1, (2, 3, 4))
    b = rng.uniform(-1, 1, (3, 5))
    node = TensorDot(axes=([1], [0]), dtype=numpy.float32)
    (y,) = node.apply((a, b))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, numpy.tensordot(a, b, ([1], [0])), rtol=1e-6)
    assert [list(x) for x in node.a_axes] == [[0, 2], [1]]
    assert [list(x) for x in node.b_axes] == [[0], [1]]
    assert [list(x) for x in node.c_axes] == [[0, 1], [2]]
    # b's free axis first in the output, then a's free axes
    node = TensorDot(a_axes=[[0, 2], [1]], b_axes=[[0], [1]], c_axes=[[1, 2], [0]])
    (y,) = node.apply((a, b))
    expected = numpy.tensordot(a, b, ([1], [0])).transpose(2, 0, 1)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
    gradient_check.check_backward(
        lambda a, b: TensorDot(
            a_axes=[[0, 2], [1]], b_axes=[[0], [1]], c_axes=[[1, 2], [0]]
        ).apply((a, b)),
        (a, b),
        rng.uniform(-1, 1, (5, 2, 4)),
        atol=1e-4,
        rtol=1e-4,
    )
    with pytest.raises(TypeError, match='tensordot'):
        TensorDot(axes=1.5)
    with pytest.raises(ValueError, match='tensordot'):
        TensorDot(axes=(1, 2, 3))
