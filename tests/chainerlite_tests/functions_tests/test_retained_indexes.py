"""What a function's node retains is what Chainer 7.8.1's node retains.

The expected indexes were recorded from Chainer 7.8.1 (NumPy 1.26) on the
same calls: ``(inputs retained, outputs retained)``, None where the node
declares nothing. The backward passes of the nodes changed to read what
they now retain are checked against numerical gradients, twice.
"""

import importlib.util

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check

X = numpy.array([[-1.5, 0.0, 2.0], [0.5, -0.25, 3.0]], numpy.float32)
U = numpy.array([[0.1, -0.5, 0.9], [0.3, 0.7, -0.2]], numpy.float32)
P = numpy.array([[0.1, 0.5, 0.9], [0.3, 0.7, 0.2]], numpy.float32)
COND = numpy.array([[True, False, True], [False, True, False]])
SQUARE = numpy.array([[2.0, 1.0], [0.5, 3.0]], numpy.float32)
LABELS = numpy.array([0, 2], numpy.int32)
# erfinv, erfcinv and ndtri compute with SciPy (absent in the NumPy 1 venv)
NEEDS_SCIPY = pytest.mark.skipif(
    importlib.util.find_spec('scipy') is None, reason='SciPy is not installed'
)
SCIPY_CASES = ('erfinv', 'erfcinv', 'ndtri')
FMAP = numpy.arange(32, dtype=numpy.float32).reshape(1, 2, 4, 4) / 7
ROIS = numpy.array([[0, 0, 2, 2], [1, 1, 3, 3], [0.5, 0, 3, 2.5]], numpy.float32)
ROI_INDICES = numpy.zeros(3, numpy.int32)
ROIS5 = numpy.hstack([ROI_INDICES[:, None], ROIS]).astype(numpy.float32)

BINARY = numpy.array([[0, 1, -1], [1, -1, 0]], numpy.int32)
SIMILAR = numpy.array([1, 0], numpy.int32)
EMBED = numpy.linspace(-1, 1, 12).reshape(4, 3).astype(numpy.float32)


def _fixed_sampler(shape):
    return numpy.arange(numpy.prod(shape)).reshape(shape) % 4


CASES = {
    'elu': (lambda: F.elu(X), (None, (0,))),
    'elu_negative_alpha': (lambda: F.elu(X, alpha=-0.5), ((0,), (0,))),
    'leaky_relu': (lambda: F.leaky_relu(X), (None, (0,))),
    'leaky_relu_negative_slope': (lambda: F.leaky_relu(X, slope=-0.3), ((0,), None)),
    'rrelu': (lambda: F.rrelu(X), (None, (0,))),
    'erfinv': (lambda: F.erfinv(U), (None, (0,))),
    'erfcinv': (lambda: F.erfcinv(P + 0.5), (None, (0,))),
    'ndtri': (lambda: F.ndtri(P), (None, (0,))),
    'moveaxis': (lambda: F.moveaxis(X, 0, 1), ((), None)),
    'rollaxis': (lambda: F.rollaxis(X, 1), ((), None)),
    'repeat': (lambda: F.repeat(X, 2, axis=1), ((0,), None)),
    'flatten': (lambda: F.flatten(X), (None, None)),
    'logsumexp': (lambda: F.logsumexp(X, axis=1), ((0,), (0,))),
    'det': (lambda: F.det(SQUARE), (None, None)),
    'where': (lambda: F.where(COND, X, U), (None, None)),
    'binary_accuracy': (
        lambda: F.binary_accuracy(X, (X > 0).astype(numpy.int32)),
        ((0, 1), None),
    ),
    'classification_summary': (
        lambda: F.classification_summary(X, LABELS)[0],
        ((0, 1), None),
    ),
    'precision': (lambda: F.precision(X, LABELS)[0], ((0, 1), None)),
    'r2_score': (lambda: F.r2_score(X, U), ((0, 1), None)),
    'add_one_operand': (lambda: F.add(X), (None, None)),
    'maxout': (lambda: F.maxout(X.T, 2), ((0,), (0,))),
    'unpooling_1d': (lambda: F.unpooling_1d(X[None], 2), ((), None)),
    'unpooling_nd': (lambda: F.unpooling_nd(FMAP, 2), ((), None)),
    'unpooling_2d': (lambda: F.unpooling_2d(FMAP, 2), (None, None)),
    'decorrelated_batch_normalization': (
        lambda: F.decorrelated_batch_normalization(SQUARE, groups=1),
        ((), None),
    ),
    'hinge': (lambda: F.hinge(X, LABELS), ((0, 1), None)),
    'sigmoid_cross_entropy': (
        lambda: F.sigmoid_cross_entropy(X, BINARY),
        ((0, 1), None),
    ),
    'contrastive': (lambda: F.contrastive(X, U, SIMILAR), ((0, 1, 2), None)),
    'negative_sampling': (
        lambda: F.negative_sampling(X, LABELS, EMBED, _fixed_sampler, 2),
        ((0, 1, 2), None),
    ),
    'local_response_normalization': (
        lambda: F.local_response_normalization(FMAP, n=3),
        ((0,), (0,)),
    ),
    'spatial_transformer_grid': (
        lambda: F.spatial_transformer_grid(X[None], (2, 3)),
        ((0,), None),
    ),
    'fixed_decorrelated_batch_normalization': (
        lambda: F.fixed_decorrelated_batch_normalization(
            FMAP, FMAP[0, :1, 0, :2], FMAP[0, :1, :2, :2], groups=1
        ),
        ((0, 1, 2), None),
    ),
    'roi_pooling_2d': (lambda: F.roi_pooling_2d(FMAP, ROIS5, 2, 2, 1.0), ((1,), None)),
    'roi_average_pooling_2d': (
        lambda: F.roi_average_pooling_2d(FMAP, ROIS, ROI_INDICES, 2, 1.0),
        ((1, 2), None),
    ),
    'roi_max_pooling_2d': (
        lambda: F.roi_max_pooling_2d(FMAP, ROIS, ROI_INDICES, 2, 1.0),
        ((1, 2), None),
    ),
    'roi_average_align_2d': (
        lambda: F.roi_average_align_2d(FMAP, ROIS, ROI_INDICES, 2, 1.0, 2),
        ((1, 2), None),
    ),
    'roi_max_align_2d': (
        lambda: F.roi_max_align_2d(FMAP, ROIS, ROI_INDICES, 2, 1.0, 2),
        ((1, 2), None),
    ),
}


def _indexes(value):
    return None if value is None else tuple(value)


@pytest.mark.parametrize(
    'name',
    [
        pytest.param(name, marks=NEEDS_SCIPY) if name in SCIPY_CASES else name
        for name in sorted(CASES)
    ],
)
def test_retained_indexes_are_chainers(name):
    call, expected = CASES[name]
    with chainerlite.using_config('train', True):
        node = call().creator_node
    got = (
        _indexes(node._input_indexes_to_retain),
        _indexes(node._output_indexes_to_retain),
    )
    assert got == expected


def test_flatten_of_a_flat_array_makes_no_node():
    x = chainerlite.Variable(X.ravel())
    assert F.flatten(x) is x


def test_add_of_one_operand_is_a_new_variable_on_the_graph():
    x = chainerlite.Variable(X)
    y = F.add(x)
    assert y is not x and y.creator_node is not None
    numpy.testing.assert_array_equal(y.array, X)
    with pytest.raises(TypeError, match='add: an operand'):
        F.add(3.0)


def test_det_raises_an_index_error_for_a_vector_as_chainer():
    with pytest.raises(IndexError):
        F.det(numpy.ones(3, numpy.float32))


SMOOTH = numpy.array([[-1.5, -0.6, 2.0], [0.5, -0.25, 3.0]])


@pytest.mark.parametrize(
    'func',
    [
        lambda x: F.elu(x, alpha=-0.5),
        lambda x: F.elu(x, alpha=0.7),
        lambda x: F.leaky_relu(x, slope=-0.3),
        lambda x: F.leaky_relu(x, slope=0.3),
        lambda x: F.logsumexp(x, axis=1),
        lambda x: F.logsumexp(x),
        lambda x: F.where(COND, x, x * 2),
        lambda x: F.repeat(x, (1, 2, 3), axis=1),
        lambda x: F.maxout(x, 3),
        lambda x: F.maxout(x, 2, axis=0),
        lambda x: F.add(x),
        lambda x: F.local_response_normalization(x, n=3, k=1, alpha=0.5, beta=0.6),
        lambda x: F.spatial_transformer_grid(F.reshape(x, (1, 2, 3)), (3, 2)),
        lambda x: F.hinge(x, LABELS),
        lambda x: F.hinge(x, LABELS, norm='L2', reduce='no'),
        lambda x: F.sigmoid_cross_entropy(x, BINARY),
        lambda x: F.sigmoid_cross_entropy(x, BINARY, normalize=False, reduce='no'),
        lambda x: F.sigmoid_cross_entropy(x, numpy.abs(BINARY)),
        lambda x: F.contrastive(x, x[::-1] * 0.5, SIMILAR),
        lambda x: F.contrastive(x, x[::-1] * 0.5, 1 - SIMILAR, reduce='no'),
        lambda x: F.negative_sampling(
            x, LABELS, EMBED.astype(x.dtype) * x[0, 0], _fixed_sampler, 2
        ),
        lambda x: F.negative_sampling(
            x,
            numpy.array([1, -1], numpy.int32),
            EMBED.astype(x.dtype) * x[0, 0],
            _fixed_sampler,
            2,
            'no',
        ),
        lambda x: F.det(x[:, :2]),
        pytest.param(lambda x: F.ndtri(1 / (1 + F.exp(x))), marks=NEEDS_SCIPY),
    ],
)
def test_backward_from_what_is_retained(func):
    rng = numpy.random.RandomState(0)
    gy = rng.uniform(-1, 1, func(SMOOTH).shape)
    ggx = rng.uniform(-1, 1, SMOOTH.shape)
    gradient_check.check_backward(func, SMOOTH, gy, eps=1e-4, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(
        func, SMOOTH, gy, ggx, eps=1e-4, atol=1e-5, rtol=1e-4
    )


@pytest.mark.parametrize(
    'func',
    [
        # the ROIs in the dtype of x, as the type check wants
        lambda x: F.roi_pooling_2d(x, ROIS5.astype(x.dtype), 2, 2, 1.0),
        lambda x: F.roi_average_pooling_2d(
            x, ROIS.astype(x.dtype), ROI_INDICES, 2, 1.0
        ),
        lambda x: F.roi_max_pooling_2d(x, ROIS.astype(x.dtype), ROI_INDICES, 2, 1.0),
        lambda x: F.roi_average_align_2d(
            x, ROIS.astype(x.dtype), ROI_INDICES, 2, 1.0, 2
        ),
        lambda x: F.roi_max_align_2d(x, ROIS.astype(x.dtype), ROI_INDICES, 2, 1.0, 2),
    ],
)
def test_roi_backward_rebuilds_the_geometry_from_the_retained_rois(func):
    # distinct values, so no tie of a max moves under the numerical step
    x = numpy.random.RandomState(1).permutation(32).reshape(FMAP.shape) / 7.0
    rng = numpy.random.RandomState(0)
    gy = rng.uniform(-1, 1, func(x).shape)
    ggx = rng.uniform(-1, 1, x.shape)
    gradient_check.check_backward(func, x, gy, eps=1e-3, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(
        func, x, gy, ggx, eps=1e-3, atol=1e-5, rtol=1e-4
    )


def test_fixed_decorrelated_batch_normalization_backward_from_its_inputs():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (3, 4, 2))
    mean = rng.uniform(-1, 1, (2, 2))
    projection = rng.uniform(-1, 1, (2, 2, 2))
    gy = rng.uniform(-1, 1, x.shape)
    grads = [rng.uniform(-1, 1, a.shape) for a in (x, mean, projection)]

    def func(x, mean, projection):
        return F.fixed_decorrelated_batch_normalization(x, mean, projection, groups=2)

    inputs = (x, mean, projection)
    gradient_check.check_backward(func, inputs, gy, eps=1e-4, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(
        func, inputs, gy, grads, eps=1e-4, atol=1e-5, rtol=1e-4
    )


def test_rrelu_gradient_uses_the_slopes_drawn():
    x = chainerlite.Variable(X)
    with chainerlite.using_config('train', True):
        y, r = F.rrelu(x, return_r=True)
    y.grad = numpy.ones_like(X)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.where(X >= 0, 1, r))


def test_logsumexp_gradient_keeps_its_precision_in_float16():
    x = chainerlite.Variable(numpy.array([[1000.0, 1000.0]], numpy.float16))
    F.sum(F.logsumexp(x, axis=1)).backward()
    numpy.testing.assert_allclose(x.grad, [[0.5, 0.5]])
