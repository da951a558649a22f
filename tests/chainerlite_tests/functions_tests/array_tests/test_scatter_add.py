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
            'slices_b_shape': [
                ((slice(None), 1), (4,)),
                ((slice(1, 3),), (3,)),
                ((Ellipsis, None, 2), (4, 1)),
                ([0, 2, 0], (3, 3)),
                (([0, 0, 1], [2, 2, 1]), (3,)),
                ((numpy.array([3, 3]), slice(None)), (1, 3)),
                ((numpy.array([True, False, True, False]),), (2, 3)),
                (-1, ()),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestScatterAdd(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype)
        b_shape = self.slices_b_shape[1]
        b = numpy.random.uniform(-1, 1, b_shape).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        a, b = inputs
        return (F.scatter_add(a, _on_device(self.slices_b_shape[0], device), b),)

    def forward_expected(self, inputs):
        a, b = inputs
        slices = self.slices_b_shape[0]
        if isinstance(slices, list):
            slices = (slices,)
        y = a.copy()
        numpy.add.at(y, slices, b)
        return (y,)


def _on_device(slices, device):
    if isinstance(slices, numpy.ndarray):
        return device.send(slices)
    if isinstance(slices, tuple):
        return tuple(_on_device(s, device) for s in slices)
    return slices


def test_input_is_unchanged_and_repeats_accumulate():
    a = numpy.zeros(3, numpy.float32)
    y = F.scatter_add(a, [0, 2, 0], numpy.array([1, 2, 3], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [4, 0, 2])
    numpy.testing.assert_array_equal(a, [0, 0, 0])


def test_gradients():
    a = chainerlite.Variable(numpy.zeros(3, numpy.float32))
    b = chainerlite.Variable(numpy.zeros(2, numpy.float32))
    y = F.scatter_add(a, [1, 1], b)
    y.grad = numpy.array([1, 2, 3], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [1, 2, 3])
    numpy.testing.assert_array_equal(b.grad, [2, 2])


def test_values_of_another_kind_are_invalid():
    # another float dtype is added in (test_mixed_float_dtypes.py), an
    # integer one into floats is not
    with pytest.raises(type_check.InvalidType, match='ScatterAdd'):
        F.scatter_add(numpy.zeros(3, numpy.float32), 0, numpy.zeros((), numpy.int32))


def test_too_many_indices_are_invalid():
    with pytest.raises(type_check.InvalidType, match='indexed axes'):
        F.scatter_add(
            numpy.zeros((2, 3), numpy.float32),
            (0, 0, 0),
            numpy.zeros((), numpy.float32),
        )


def test_boolean_mask_takes_its_axes():
    a = numpy.zeros((2, 3), numpy.float32)
    mask = numpy.array([[True, False, True], [False, False, True]])
    y = F.scatter_add(a, mask, numpy.ones(3, numpy.float32))
    numpy.testing.assert_array_equal(y.array, mask.astype(numpy.float32))
