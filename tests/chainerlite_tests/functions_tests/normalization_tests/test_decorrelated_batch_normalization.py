import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, groups, eps):
    x = x.astype(numpy.float64)
    b, c = x.shape[:2]
    y = numpy.empty_like(x)
    cg = c // groups
    for g in range(groups):
        block = numpy.moveaxis(x[:, g * cg : (g + 1) * cg], 1, 0)
        mat = block.reshape(cg, -1)
        centered = mat - mat.mean(axis=1, keepdims=True)
        cov = centered.dot(centered.T) / mat.shape[1] + eps * numpy.eye(cg)
        vals, vecs = numpy.linalg.eigh(cov)
        proj = vecs.dot(numpy.diag(vals**-0.5)).dot(vecs.T)
        out = proj.dot(centered).reshape(block.shape)
        y[:, g * cg : (g + 1) * cg] = numpy.moveaxis(out, 0, 1)
    return y


@testing.parameterize(
    *testing.product(
        {
            'shape_groups': [((10, 4), 1), ((6, 4, 3), 2)],
            'dtype': [numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDecorrelatedBatchNormalization(testing.FunctionTestCase):
    skip_double_backward_test = True
    eps = 1e-2

    def setUp(self):
        self.shape, self.groups = self.shape_groups
        self.check_forward_options = {'atol': 1e-4, 'rtol': 1e-4}
        self.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-3,
        }

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (
            F.decorrelated_batch_normalization(
                inputs[0], groups=self.groups, eps=self.eps
            ),
        )

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.groups, self.eps)
        return (y.astype(self.dtype),)


@testing.parameterize(
    *testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFixedDecorrelatedBatchNormalization(testing.FunctionTestCase):
    def setUp(self):
        self.mean = numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype)
        self.projection = numpy.random.uniform(0.5, 1, (2, 3, 3)).astype(self.dtype)
        tol = 1e-2 if self.dtype == numpy.float16 else 1e-4
        self.check_forward_options = {'atol': tol, 'rtol': tol}
        self.check_backward_options = {'dtype': numpy.float64, 'atol': tol, 'rtol': tol}
        self.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': tol,
            'rtol': tol,
        }

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 6, 2)).astype(self.dtype)
        return x, self.mean, self.projection

    def forward(self, inputs, device):
        x, mean, projection = inputs
        return (
            F.fixed_decorrelated_batch_normalization(x, mean, projection, groups=2),
        )

    def forward_expected(self, inputs):
        x, mean, projection = (a.astype(numpy.float64) for a in inputs)
        y = numpy.empty_like(x)
        for g in range(2):
            block = x[:, 3 * g : 3 * g + 3] - mean[g][None, :, None]
            y[:, 3 * g : 3 * g + 3] = numpy.einsum('ij,bjs->bis', projection[g], block)
        return (y.astype(self.dtype),)


def test_running_statistics_and_no_double_backward():
    x = numpy.random.uniform(-1, 1, (8, 2)).astype(numpy.float64)
    mean = numpy.zeros((1, 2))
    projection = numpy.zeros((1, 2, 2))
    xv = chainerlite.Variable(x)
    y = F.decorrelated_batch_normalization(
        xv, groups=1, running_mean=mean, running_projection=projection, decay=0.5
    )
    numpy.testing.assert_allclose(mean[0], 0.5 * x.mean(axis=0))
    # scaled by m / (m - 1) as in Chainer 7.8.1 (m = 8 samples)
    numpy.testing.assert_allclose(projection, 0.5 * (8 / 7) * y.creator.projection)
    (gx,) = chainerlite.grad([F.sum(y * y)], [xv], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match='double backward'):
        F.sum(gx).backward()


def test_fixed_rejects_bad_shapes():
    x = numpy.zeros((2, 4), numpy.float32)
    with pytest.raises(ValueError, match='groups'):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.zeros((3, 1)), numpy.zeros((3, 1, 1)), groups=3
        )
    with pytest.raises(ValueError, match='shapes'):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.zeros((2, 2)), numpy.zeros((2, 2, 3)), groups=2
        )


def test_fixed_wants_statistics_in_the_data_dtype():
    # as Chainer's type check: mean and projection of the dtype of x
    x = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float64)
    mean = numpy.full((1, 2), 0.5, numpy.float32)
    projection = numpy.eye(2, dtype=numpy.float32)[None] * 2
    with pytest.raises(type_check.InvalidType, match='mean.dtype == x.dtype'):
        F.fixed_decorrelated_batch_normalization(x, mean, projection, groups=1)
    with pytest.raises(type_check.InvalidType, match='projection.dtype == x.dtype'):
        F.fixed_decorrelated_batch_normalization(
            x, mean.astype(numpy.float64), projection, groups=1
        )
    y = F.fixed_decorrelated_batch_normalization(
        x, mean.astype(numpy.float64), projection.astype(numpy.float64), groups=1
    )
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, 2 * (x - 0.5))


def test_function_node_defaults_as_chainer():
    # Chainer 7.8.1's DecorrelatedBatchNormalization(groups=16, eps=2e-5)
    from chainerlite.functions.normalization import decorrelated_batch_normalization

    node = decorrelated_batch_normalization.DecorrelatedBatchNormalization()
    assert (node.groups, node.eps) == (16, 2e-5)
    x = numpy.random.RandomState(0).uniform(-1, 1, (8, 32)).astype(numpy.float32)
    (y,) = node.apply((x,))
    expected = F.decorrelated_batch_normalization(x, groups=16, eps=2e-5)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-5, atol=1e-5)


def test_no_channels_give_empty_groups():
    # as in Chainer 7.8.1: zero channels split into 16 empty groups
    x = numpy.zeros((2, 0, 3), numpy.float32)
    y = F.decorrelated_batch_normalization(x)
    assert y.shape == (2, 0, 3) and y.dtype == numpy.float32
