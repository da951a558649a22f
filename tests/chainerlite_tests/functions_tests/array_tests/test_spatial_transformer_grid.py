import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_forward(dtype):
    theta = numpy.random.uniform(-1, 1, (2, 2, 3)).astype(dtype)
    grid = F.spatial_transformer_grid(theta, (3, 4)).array
    assert grid.dtype == dtype
    for n in range(2):
        for i, y in enumerate(numpy.linspace(-1, 1, 3)):
            for j, x in enumerate(numpy.linspace(-1, 1, 4)):
                numpy.testing.assert_allclose(
                    grid[n, :, i, j],
                    theta[n].astype(numpy.float64).dot([x, y, 1]),
                    atol=2e-3 if dtype == numpy.float16 else 1e-6,
                )


def test_backward():
    theta = numpy.random.uniform(-1, 1, (2, 2, 3))
    gy = numpy.random.uniform(-1, 1, (2, 2, 3, 2))
    gradient_check.check_backward(
        lambda t: F.spatial_transformer_grid(t, (3, 2)), theta, gy
    )


def test_theta_shape_is_checked():
    with pytest.raises(type_check.InvalidType, match='theta'):
        F.spatial_transformer_grid(numpy.zeros((2, 3, 3)), (2, 2))
