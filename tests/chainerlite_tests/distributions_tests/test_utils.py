import numpy
import pytest

import chainerlite as chainer
import chainerlite.functions as F
from chainerlite.distributions import utils
from chainerlite import gradient_check
from chainerlite.utils import type_check


def test_modified_xlogx_forward():
    x = numpy.array([0.0, 0.5, 1.0, 2.0])
    expected = [0.0, 0.5 * numpy.log(0.5), 0.0, 2 * numpy.log(2.0)]
    numpy.testing.assert_allclose(utils._modified_xlogx(x).array, expected)


def test_modified_xlogx_backward():
    x = numpy.random.RandomState(0).uniform(0.1, 1, (2, 3))
    gy = numpy.ones((2, 3))
    ggx = numpy.full((2, 3), 0.5)
    gradient_check.check_backward(utils._modified_xlogx, x, gy)
    gradient_check.check_double_backward(utils._modified_xlogx, x, gy, ggx)


def test_backward_at_zero_warns():
    x = chainer.Variable(numpy.zeros(3))
    y = F.sum(utils._modified_xlogx(x))
    with pytest.warns(RuntimeWarning):
        y.backward()


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='modified_xlogx'):
        utils._modified_xlogx(numpy.arange(3))
