import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import links


def _reference(x, t, W, samples):
    loss = numpy.empty(len(x))
    for b in range(len(x)):
        scores = W[numpy.concatenate(([t[b]], samples[b]))].dot(x[b])
        p = numpy.exp(scores - numpy.logaddexp.reduce(scores))
        loss[b] = -(numpy.log(p[0]) + numpy.log1p(-p[1:]).sum())
    return loss


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_forward_and_backward(reduce):
    x = numpy.random.uniform(-1, 1, (5, 4))
    W = numpy.random.uniform(-1, 1, (3, 4))
    t = numpy.random.randint(3, size=5).astype(numpy.int32)
    samples = numpy.random.randint(3, size=(5, 2)).astype(numpy.int32)
    y = F.black_out(x, t, W, samples, reduce)
    expected = _reference(x, t, W, samples)
    if reduce == 'mean':
        expected = expected.mean()
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-10)
    gy = numpy.random.uniform(-1, 1, y.shape)

    def f(x, W):
        return F.black_out(x, t, W, samples, reduce)

    gradient_check.check_backward(f, (x, W), gy, atol=1e-6, rtol=1e-6)


def test_invalid_reduce():
    with pytest.raises(ValueError, match='reduce'):
        F.black_out(
            numpy.zeros((1, 1)),
            numpy.zeros(1, 'i'),
            numpy.zeros((1, 1)),
            numpy.zeros((1, 1), 'i'),
            'sum',
        )


def test_shared_samples_of_one_axis():
    # (K,) negatives for every example: Chainer's matmul broadcasts them
    x = numpy.random.uniform(-1, 1, (3, 4))
    W = numpy.random.uniform(-1, 1, (6, 4))
    t = numpy.array([0, 1, 2], numpy.int32)
    shared = numpy.array([3, 5, 1, 4, 4], numpy.int32)
    y = F.black_out(x, t, W, shared, 'no')
    numpy.testing.assert_allclose(
        y.array, _reference(x, t, W, numpy.tile(shared, (3, 1))), rtol=1e-10
    )
    gradient_check.check_backward(
        lambda x, W: F.black_out(x, t, W, shared, 'no'),
        (x, W),
        numpy.random.uniform(-1, 1, 3),
        atol=1e-6,
        rtol=1e-6,
    )


def _ints(*shape):
    return numpy.zeros(shape, numpy.int32)


@pytest.mark.parametrize(
    ('x_shape', 't', 'samples', 'error'),
    [
        # x needs two axes: Chainer's x[:, :, None] raises IndexError
        ((6,), _ints(3), _ints(3, 2), IndexError),
        ((), _ints(), _ints(0, 2), IndexError),
        # else the type checks of Chainer's embed_id and matmul
        ((3, 2, 1), _ints(3), _ints(3, 2), chainerlite.utils.type_check.InvalidType),
        ((4, 2), _ints(2), _ints(2, 2), chainerlite.utils.type_check.InvalidType),
        ((2, 2), _ints(2), _ints(3, 2), chainerlite.utils.type_check.InvalidType),
        ((2, 2), _ints(3), _ints(2, 2), chainerlite.utils.type_check.InvalidType),
        ((2, 2), _ints(2, 1), _ints(2, 2), chainerlite.utils.type_check.InvalidType),
        ((2, 2), _ints(2), _ints(2, 2, 1), chainerlite.utils.type_check.InvalidType),
        (
            (2, 2),
            numpy.zeros(2, numpy.float32),
            _ints(2, 2),
            chainerlite.utils.type_check.InvalidType,
        ),
    ],
)
def test_shapes_chainer_refuses(x_shape, t, samples, error):
    # they were reshaped into some batch instead (x of shape (6,) as (3, 2))
    x = numpy.ones(x_shape, numpy.float32)
    W = numpy.ones((5, 2), numpy.float32)
    for reduce in ('mean', 'no'):
        with pytest.raises(error):
            F.black_out(x, t, W, samples, reduce)


def test_no_examples():
    # as Chainer 7.8.1: no losses, and their mean divides by zero
    x = numpy.ones((0, 3), numpy.float32)
    W = numpy.ones((5, 3), numpy.float32)
    assert F.black_out(x, _ints(0), W, _ints(0, 2), 'no').shape == (0,)
    with pytest.raises(ZeroDivisionError):
        F.black_out(x, _ints(0), W, _ints(0, 2), 'mean')


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_link_uses_sample_data(dtype):
    with chainerlite.using_config('dtype', dtype):
        link = links.BlackOut(4, [3, 2, 1], 7)
    assert link.W.dtype == dtype
    x = numpy.random.uniform(-1, 1, (5, 4)).astype(dtype)
    t = numpy.random.randint(3, size=5).astype(numpy.int32)
    link.sample_data = link.sampler.sample((5, 7))
    y = link(x, t)
    expected = _reference(
        x.astype(numpy.float64), t, link.W.array.astype(numpy.float64), link.sample_data
    ).mean()
    tol = 1e-2 if dtype == numpy.float16 else 1e-8
    numpy.testing.assert_allclose(y.array, expected, rtol=tol)
