import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite import utils
from chainerlite.utils import type_check


def _softplus(x):
    return numpy.logaddexp(0, x)


@testing.parameterize(
    *testing.product(
        {
            'reduce': ['sum', 'no'],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNegativeSampling(testing.FunctionTestCase):
    batch_size = 4
    in_size = 3
    vocab_size = 6
    sample_size = 2

    def setUp(self):
        # The same samples on every call, so that gradients can be checked.
        # The sampler draws the label column too, which the labels replace.
        self.samples = numpy.random.randint(
            0, self.vocab_size, (self.batch_size, self.sample_size + 1)
        ).astype(numpy.int32)
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
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
        x = numpy.random.uniform(-1, 1, (self.batch_size, self.in_size)).astype(
            self.dtype
        )
        t = numpy.random.randint(0, self.vocab_size, self.batch_size)
        t[1] = -1
        W = numpy.random.uniform(-1, 1, (self.vocab_size, self.in_size)).astype(
            self.dtype
        )
        return x, t.astype(numpy.int32), W

    def forward(self, inputs, device):
        x, t, W = inputs

        def sampler(shape):
            assert shape == self.samples.shape
            return device.send(self.samples)

        return (
            F.negative_sampling(x, t, W, sampler, self.sample_size, reduce=self.reduce),
        )

    def forward_expected(self, inputs):
        x, t, W = (v.astype(numpy.float64) for v in inputs)
        loss = numpy.zeros(len(x))
        for i in range(len(x)):
            if t[i] == -1:
                continue
            loss[i] = _softplus(-W[int(t[i])].dot(x[i]))
            for s in self.samples[i, 1:]:
                loss[i] += _softplus(W[s].dot(x[i]))
        if self.reduce == 'sum':
            loss = loss.sum()
        return (numpy.asarray(loss, self.dtype),)


def test_return_samples_with_walker_alias():
    x = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    t = numpy.array([0, 4, -1], numpy.int32)
    W = numpy.random.uniform(-1, 1, (5, 2)).astype(numpy.float32)
    sampler = utils.WalkerAlias([0, 1, 1, 0, 0])
    loss, samples = F.negative_sampling(x, t, W, sampler.sample, 3, return_samples=True)
    assert loss.shape == ()
    assert samples.shape == (3, 4)
    numpy.testing.assert_array_equal(samples[:, 0], t)
    assert set(samples[:, 1:].ravel().tolist()) <= {1, 2}


def test_ignored_sample_gets_no_gradient():
    x = chainerlite.Variable(numpy.ones((2, 2), numpy.float32))
    t = numpy.array([-1, 1], numpy.int32)
    W = chainerlite.Variable(numpy.ones((3, 2), numpy.float32))
    loss = F.negative_sampling(
        x, t, W, lambda shape: numpy.zeros(shape, numpy.int32), 2, reduce='no'
    )
    assert loss.array[0] == 0
    loss.grad = numpy.ones(2, numpy.float32)
    loss.backward()
    numpy.testing.assert_array_equal(x.grad[0], [0, 0])
    assert (x.grad[1] != 0).all()


def test_invalid_reduce():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="'sum' and 'no'"):
        F.negative_sampling(
            x,
            numpy.zeros(2, numpy.int32),
            numpy.zeros((4, 3), numpy.float32),
            lambda shape: numpy.zeros(shape, numpy.int32),
            1,
            reduce='mean',
        )


@pytest.mark.parametrize(
    'x, t, W',
    [
        (
            numpy.zeros((2, 3), numpy.int32),
            numpy.zeros(2, numpy.int32),
            numpy.zeros((4, 3), numpy.int32),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros(3, numpy.int32),
            numpy.zeros((4, 3), numpy.float32),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros(2, numpy.float32),
            numpy.zeros((4, 3), numpy.float32),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros(2, numpy.int32),
            numpy.zeros((4, 3), numpy.float64),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros(2, numpy.int32),
            numpy.zeros((4, 2), numpy.float32),
        ),
        (
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.int32),
            numpy.zeros((4, 3), numpy.float32),
        ),
    ],
)
def test_invalid_inputs(x, t, W):
    with pytest.raises(type_check.InvalidType, match='NegativeSampling'):
        F.negative_sampling(x, t, W, lambda shape: numpy.zeros(shape, numpy.int32), 1)
