import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


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
            'shape_axis': [
                ((3, 2), 0),
                ((2, 4), 1),
                ((2, 3, 4), -2),
                ((1,), 0),
                ((0, 2), 0),
            ],
            'inv': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPermutate(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, axis = self.shape_axis
        x = numpy.random.uniform(-1, 1, shape).astype(self.dtype)
        indices = numpy.random.permutation(shape[axis]).astype(numpy.int32)
        return x, indices

    def forward(self, inputs, device):
        x, indices = inputs
        return (F.permutate(x, indices, self.shape_axis[1], self.inv),)

    def forward_expected(self, inputs):
        x, indices = inputs
        if self.inv:
            indices = numpy.argsort(indices)
        return (numpy.take(x, indices, self.shape_axis[1]),)


def test_indices_variable_gets_no_gradient():
    x = chainerlite.Variable(numpy.arange(3, dtype=numpy.float32))
    indices = chainerlite.Variable(numpy.array([2, 0, 1], numpy.int32))
    y = F.permutate(x, indices)
    numpy.testing.assert_array_equal(y.array, [2, 0, 1])
    y.grad = numpy.array([10, 20, 30], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [20, 30, 10])
    assert indices.grad is None


@pytest.mark.parametrize(
    'indices',
    [numpy.array([0, 1, 2], numpy.float32), numpy.array([[0, 1, 2]], numpy.int32)],
)
def test_indices_not_1d_int(indices):
    # Chainer 7.8.1 refuses these in the function, with ValueError.
    with pytest.raises(ValueError, match='one-dimensional int'):
        F.permutate(numpy.zeros((3, 2), numpy.float32), indices)


@pytest.mark.parametrize(
    'indices, axis',
    [(numpy.array([0, 1], numpy.int32), 0), (numpy.array([0, 1], numpy.int32), 2)],
)
def test_invalid_inputs(indices, axis):
    with pytest.raises(type_check.InvalidType, match='Permutate'):
        F.permutate(numpy.zeros((3, 2), numpy.float32), indices, axis)


def test_node_keeps_indices_as_chainer():
    # Chainer 7.8.1: Permutate(indices, axis, inv) holds the indices, the
    # graph has x alone as input, and backward applies the inverse node.
    indices = numpy.array([2, 0, 1], numpy.int32)
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32).reshape(3, 2))
    y = F.permutate(x, chainerlite.Variable(indices), axis=0, inv=True)
    node = y.creator
    assert isinstance(node, F.array.permutate.Permutate)
    assert node.indices is indices or (node.indices == indices).all()
    assert (node.axis, node.inv) == (0, True)
    assert len(node.inputs) == 1
    numpy.testing.assert_array_equal(y.array, [[2, 3], [4, 5], [0, 1]])
    y.grad = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[4, 5], [0, 1], [2, 3]])
    (direct,) = F.array.permutate.Permutate(indices, 0, False).apply((x.array,))
    numpy.testing.assert_array_equal(direct.array, [[4, 5], [0, 1], [2, 3]])


@pytest.mark.parametrize('indices', [[0, 1, 1], [0, 1, 3], [-1, 2, 0], [-3, 0, 1]])
def test_not_a_permutation(indices):
    with pytest.raises(ValueError, match='permutate'):
        F.permutate(
            numpy.zeros((3, 2), numpy.float32), numpy.array(indices, numpy.int32)
        )


@pytest.mark.parametrize('inv', [False, True])
def test_index_past_the_end_is_value_and_index_error(inv):
    # Chainer 7.8.1 indexes with it: an IndexError there
    x = numpy.zeros((4, 4), numpy.float32)
    indices = numpy.array([0, 1, 2, 4], numpy.int32)
    with pytest.raises(ValueError, match='permutate: out of bounds index: 4') as info:
        F.permutate(x, indices, axis=1, inv=inv)
    assert isinstance(info.value, IndexError)


@pytest.mark.parametrize('inv', [False, True])
def test_negative_index_counts_from_the_end(inv):
    # as NumPy's indexing, which Chainer 7.8.1 uses outside debug mode
    grads = []
    for indices in ([2, 0, 1], [-1, 0, -2]):
        x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32).reshape(3, 2))
        y = F.permutate(x, numpy.array(indices, numpy.int32), inv=inv)
        y.grad = numpy.arange(6, dtype=numpy.float32).reshape(3, 2) * 10
        y.backward()
        grads.append((y.array, x.grad))
    expected = [[4, 5], [0, 1], [2, 3]] if not inv else [[2, 3], [4, 5], [0, 1]]
    numpy.testing.assert_array_equal(grads[1][0], expected)
    numpy.testing.assert_array_equal(grads[1][0], grads[0][0])
    numpy.testing.assert_array_equal(grads[1][1], grads[0][1])


def test_negative_index_is_refused_in_debug_mode():
    x = numpy.zeros(2, numpy.float32)
    with chainerlite.using_config('debug', True):
        with pytest.raises(ValueError, match='out of bounds index: -1') as info:
            F.permutate(x, numpy.array([-1, 0], numpy.int32))
    assert not isinstance(info.value, IndexError)


@pytest.mark.parametrize('index', [-3, 2])
def test_index_outside_both_ends_is_index_error(index):
    with pytest.raises(IndexError, match='permutate: out of bounds index'):
        F.permutate(numpy.zeros(2, numpy.float32), numpy.array([index, 0], numpy.int32))


def test_duplicates_with_inv_are_also_index_error():
    # Chainer 7.8.1's inverse leaves places unset and indexes with them
    x = numpy.zeros(3, numpy.float32)
    indices = numpy.array([0, 0, 1], numpy.int32)
    with pytest.raises(ValueError, match='duplicate') as info:
        F.permutate(x, indices, inv=True)
    assert isinstance(info.value, IndexError)
    with pytest.raises(ValueError, match='duplicate') as info:
        F.permutate(x, indices)
    assert not isinstance(info.value, IndexError)


def test_length_not_matching_the_axis_is_also_index_error():
    with pytest.raises(type_check.InvalidType, match='len') as info:
        F.permutate(numpy.zeros(1, numpy.float32), numpy.array([0, 1, 2], numpy.int32))
    assert isinstance(info.value, IndexError)


@pytest.mark.parametrize('inv', [False, True])
def test_duplicates_are_refused_before_a_length_that_does_not_match(inv):
    # Chainer 7.8.1's debug mode checks the indices before it indexes: a
    # duplicate is its ValueError even where the length is wrong too
    x = numpy.zeros(1, numpy.float32)
    with pytest.raises(ValueError, match='duplicate') as info:
        F.permutate(x, numpy.array([0, 0], numpy.int32), inv=inv)
    assert not isinstance(info.value, type_check.InvalidType)
