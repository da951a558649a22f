import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


def _reference(x, grid):
    n, c, h, w = x.shape
    out = numpy.zeros((n, c) + grid.shape[2:])
    for b in range(n):
        for i in range(grid.shape[2]):
            for j in range(grid.shape[3]):
                px = (grid[b, 0, i, j] + 1) * (w - 1) / 2
                py = (grid[b, 1, i, j] + 1) * (h - 1) / 2
                x0, y0 = int(numpy.floor(px)), int(numpy.floor(py))
                for yy in (y0, y0 + 1):
                    for xx in (x0, x0 + 1):
                        if 0 <= yy < h and 0 <= xx < w:
                            weight = (1 - abs(py - yy)) * (1 - abs(px - xx))
                            out[b, :, i, j] += weight * x[b, :, yy, xx]
    return out


def test_forward_against_bilinear_reference():
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 5))
    grid = numpy.random.uniform(-1.5, 1.5, (2, 2, 3, 2))
    numpy.testing.assert_allclose(
        F.spatial_transformer_sampler(x, grid).array,
        _reference(x, grid),
        rtol=1e-10,
        atol=1e-12,
    )


def test_identity_grid_copies_the_input():
    x = numpy.random.uniform(-1, 1, (1, 2, 3, 4)).astype(numpy.float32)
    theta = numpy.array([[[1, 0, 0], [0, 1, 0]]], numpy.float32)
    grid = F.spatial_transformer_grid(theta, (3, 4))
    numpy.testing.assert_allclose(
        F.spatial_transformer_sampler(x, grid).array, x, atol=1e-6
    )


def test_backward():
    x = numpy.random.uniform(-1, 1, (1, 2, 3, 3))
    # points away from pixel rows and columns (the kinks of interpolation)
    grid = (numpy.random.randint(-3, 3, (1, 2, 2, 2)) + 0.5) / 2
    gy = numpy.random.uniform(-1, 1, (1, 2, 2, 2))
    gradient_check.check_backward(
        F.spatial_transformer_sampler, (x, grid), gy, eps=1e-4
    )


def test_grid_shape_is_checked():
    with pytest.raises(type_check.InvalidType, match='grid'):
        F.spatial_transformer_sampler(
            numpy.zeros((1, 2, 3, 3)), numpy.zeros((1, 3, 2, 2))
        )


@pytest.mark.parametrize(
    'x_shape, grid_shape, error',
    [
        ((), (1, 2, 2, 2), IndexError),  # Chainer reads x.shape[0]
        ((1, 3, 4, 4), (1,), IndexError),  # and grid.shape[1]
        ((1, 3, 4, 4), (1, 2), type_check.InvalidType),
    ],
)
def test_bad_ranks_raise_chainers_type(x_shape, grid_shape, error):
    x = numpy.zeros(x_shape, numpy.float32)
    grid = numpy.zeros(grid_shape, numpy.float32)
    with pytest.raises(error, match='spatial_transformer_sampler') as info:
        F.spatial_transformer_sampler(x, grid)
    assert isinstance(info.value, type_check.InvalidType)
    if error is type_check.InvalidType:
        assert not isinstance(info.value, IndexError)


def test_one_node_retains_the_image_and_the_grid():
    # as Chainer's node: x and grid are kept for backward, the output is not
    x = chainerlite.Variable(numpy.random.uniform(-1, 1, (1, 2, 3, 3)))
    grid = chainerlite.Variable(numpy.random.uniform(-1, 1, (1, 2, 2, 4)))
    y = F.spatial_transformer_sampler(x, grid)
    node = y.creator_node
    assert node.label == 'SpatialTransformerSampler'
    assert node.inputs == (x.node, grid.node)
    assert tuple(node._input_indexes_to_retain) == (0, 1)
    assert node._output_indexes_to_retain is None


@pytest.mark.parametrize(
    'x_dtype, grid_dtype',
    [(numpy.int32, numpy.float32), (numpy.float32, numpy.float64)],
)
def test_dtypes_are_checked_by_the_sampler_node(x_dtype, grid_dtype):
    x = numpy.zeros((1, 2, 3, 3), x_dtype)
    grid = numpy.zeros((1, 2, 2, 4), grid_dtype)
    with pytest.raises(type_check.InvalidType, match='SpatialTransformerSampler'):
        F.spatial_transformer_sampler(x, grid)


def test_backward_twice_and_without_backprop_mode():
    # the first backward uses the graph the forward built, a second one
    # recomputes it: both give the same gradients; no graph without backprop
    rng = numpy.random.RandomState(2)
    x = chainerlite.Variable(rng.uniform(-1, 1, (1, 2, 3, 3)))
    grid = chainerlite.Variable(rng.uniform(-1.2, 1.2, (1, 2, 2, 4)))
    y = F.spatial_transformer_sampler(x, grid)
    gy = rng.uniform(-1, 1, y.shape)
    first = chainerlite.grad([y], [x, grid], [gy])
    second = chainerlite.grad([y], [x, grid], [gy])
    for a, b in zip(first, second):
        numpy.testing.assert_allclose(a.array, b.array, rtol=1e-12)
    with chainerlite.no_backprop_mode():
        z = F.spatial_transformer_sampler(x, grid)
    assert z.creator is None
    numpy.testing.assert_allclose(z.array, y.array)
