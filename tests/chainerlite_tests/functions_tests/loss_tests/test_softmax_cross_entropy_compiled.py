"""The compiled CPU path of ``F.softmax_cross_entropy`` (2-D NumPy x, hard
labels, no class weights, no double backprop; ``chainerlite._kernels.sce``)
gives the general path's loss and gradient bit for bit, NaN payloads aside,
and leaves every other case to the general path."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite._kernels import sce as sce_kernels
from chainerlite.functions.loss import softmax_cross_entropy as sce_mod

FLOATS = [np.float32, np.float64]
LABELS = [np.int32, np.int64]
# the last two take several blocks of rows (sce.pyx's BLOCK_BYTES), the
# last block short; the last has rows longer than NumPy's buffer (8192),
# which NumPy before 2.3 sums in pieces
SHAPES = [(1, 1), (1, 5), (5, 1), (4, 3), (32, 10), (9, 129), (3, 300)]
SHAPES += [(70, 1000), (13, 10000)]
OPTIONS = [
    {},
    {'normalize': False},
    {'reduce': 'no'},
    {'ignore_label': 0},
    {'ignore_label': 7, 'reduce': 'no'},
    {'ignore_label': -5, 'normalize': False},
    {'ignore_label': np.int64(2)},
]


@pytest.fixture
def general(monkeypatch):
    """Calls F.softmax_cross_entropy with the compiled path switched off."""

    def run(*args, **kwargs):
        with monkeypatch.context() as m:
            node = sce_mod.SoftmaxCrossEntropy
            m.setattr(node, '_forward_compiled', lambda self, x, t: None)
            return _loss_and_grad(*args, **kwargs)

    return run


def _loss_and_grad(x, t, gloss=None, **kwargs):
    xv = chainerlite.Variable(x.copy())
    loss = F.softmax_cross_entropy(xv, t, **kwargs)
    if gloss is not None:
        loss.grad = gloss
    loss.backward()
    return loss, xv.grad


def _same(a, b):
    # equal bits, except that any NaN matches any NaN
    assert a.dtype == b.dtype and a.shape == b.shape
    a, b = np.atleast_1d(a), np.atleast_1d(b)
    nan = np.isnan(a)
    np.testing.assert_array_equal(nan, np.isnan(b))
    np.testing.assert_array_equal(a[~nan].view(np.uint8), b[~nan].view(np.uint8))


def _labels(rng, n, c, ignore_label, dtype):
    t = rng.integers(0, c, n)
    t[rng.random(n) < 0.3] = ignore_label
    return t.astype(dtype)


def _unaligned(x):
    buf = np.zeros(x.nbytes + 1, np.uint8)[1:]
    out = buf.view(x.dtype).reshape(x.shape)
    out[...] = x
    assert not out.flags.aligned
    return out


def _node(x, t, **kwargs):
    loss = F.softmax_cross_entropy(chainerlite.Variable(x), t, **kwargs)
    if kwargs.get('enable_double_backprop'):
        # the loss is then the sum of the node's scaled losses, as Chainer's
        return loss.creator.inputs[0].creator
    return loss.creator


@pytest.mark.parametrize('options', OPTIONS)
@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('label_dtype', LABELS)
@pytest.mark.parametrize('dtype', FLOATS)
def test_same_bits_as_the_general_path(general, dtype, label_dtype, shape, options):
    _check_same_bits(general, dtype, label_dtype, shape, options)


def _check_same_bits(general, dtype, label_dtype, shape, options):
    rng = np.random.default_rng(sum(shape) + len(options))
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    t = _labels(rng, shape[0], shape[1], options.get('ignore_label', -1), label_dtype)
    gloss = None
    if options.get('reduce') == 'no':
        gloss = rng.standard_normal(shape[0]).astype(dtype)
    assert _node(x, t, **options)._cpu_stats is not None  # compiled
    loss, gx = _loss_and_grad(x, t, gloss, **options)
    loss_ref, gx_ref = general(x, t, gloss, **options)
    _same(loss.array, loss_ref.array)
    _same(gx, gx_ref)


@pytest.fixture
def small_buffer():
    """NumPy's buffer size set to 1024 elements for the test (sums along
    a row go in pieces of that size before NumPy 2.3)."""
    old = np.setbufsize(1024)
    yield
    np.setbufsize(old)


@pytest.mark.parametrize(
    'shape, opts',
    [
        ((5, 3000), {}),  # rows of three pieces, the last short
        ((4, 2048), {'reduce': 'no'}),  # rows of two whole pieces
        ((4000, 3), {}),  # the mean of four pieces of losses
        ((2100, 3), {'normalize': False, 'ignore_label': 1}),
    ],
)
@pytest.mark.parametrize('dtype', FLOATS)
def test_same_bits_with_another_buffer_size(general, small_buffer, dtype, shape, opts):
    _check_same_bits(general, dtype, np.int32, shape, opts)


@pytest.mark.filterwarnings('ignore::RuntimeWarning')  # the general path's
@pytest.mark.parametrize('special', [-np.inf, np.inf, np.nan, 100.0, -0.0])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('dtype', FLOATS)
def test_special_logits_as_the_general_path(general, dtype, reduce, special):
    # -inf logits make the general path's 0 * log(0) NaN; the compiled path
    # keeps that, as it keeps NaN and inf
    rng = np.random.default_rng(3)
    x = rng.standard_normal((12, 10)).astype(dtype)
    x[[1, 4, 6, 9], [0, 3, 3, 9]] = special
    x[9] = special  # a whole row
    t = _labels(rng, 12, 10, -1, np.int32)
    t[4] = 3  # the special value is the label of row 4
    gloss = np.ones(12, dtype) if reduce == 'no' else None
    loss, gx = _loss_and_grad(x, t, gloss, reduce=reduce)
    loss_ref, gx_ref = general(x, t, gloss, reduce=reduce)
    _same(loss.array, loss_ref.array)
    _same(gx, gx_ref)


@pytest.mark.parametrize('dtype, rtol', [(np.float32, 1e-6), (np.float64, 1e-12)])
def test_float64_reference(dtype, rtol):
    rng = np.random.default_rng(4)
    x = rng.uniform(-3, 3, (32, 10)).astype(dtype)
    t = _labels(rng, 32, 10, -1, np.int32)
    loss, gx = _loss_and_grad(x, t, np.ones(32, dtype), reduce='no')
    x64 = x.astype(np.float64)
    log_y = x64 - x64.max(axis=1, keepdims=True)
    log_y -= np.log(np.exp(log_y).sum(axis=1, keepdims=True))
    valid = t != -1
    picked = log_y[np.arange(32), np.where(valid, t, 0)]
    np.testing.assert_allclose(loss.array, np.where(valid, -picked, 0), rtol=rtol)
    one_hot = np.eye(10)[np.where(valid, t, 0)]
    expected = (np.exp(log_y) - one_hot) * valid[:, None]
    np.testing.assert_allclose(gx, expected, rtol=rtol * 10, atol=rtol)


@pytest.mark.parametrize('options', OPTIONS[:4])
def test_check_backward(options):
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, (6, 4))
    t = _labels(rng, 6, 4, options.get('ignore_label', -1), np.int32)
    gloss = rng.standard_normal(6) if options.get('reduce') == 'no' else None
    assert _node(x, t, **options)._cpu_stats is not None

    def f(x):
        return F.softmax_cross_entropy(x, t, **options)

    gradient_check.check_backward(f, x, gloss, dtype=np.float64, atol=1e-7, rtol=1e-6)


def test_one_class_and_all_ignored():
    x = np.random.default_rng(6).standard_normal((4, 1)).astype(np.float32)
    loss, gx = _loss_and_grad(x, np.zeros(4, np.int32))
    assert loss.array == 0 and not gx.any()
    x = x.reshape(1, 4)
    loss, gx = _loss_and_grad(x, np.full(1, -1, np.int32))
    assert loss.array == 0 and not np.signbit(loss.array) and not gx.any()


@pytest.mark.parametrize('label_dtype', LABELS)
@pytest.mark.parametrize('t, bad', [([0, 3], 3), ([-2, 1], -2), ([-1, 9], 9)])
def test_out_of_range_label_raises_the_general_message(label_dtype, t, bad):
    x = np.zeros((2, 3), np.float32)
    # Also an IndexError, the type Chainer 7.8.1 fails with (it indexes).
    with pytest.raises(IndexError, match=r'but label {} is given'.format(bad)) as info:
        F.softmax_cross_entropy(x, np.array(t, label_dtype))
    assert isinstance(info.value, ValueError)


def test_nothing_of_the_size_of_x_is_kept():
    x = np.zeros((8, 5), np.float32)
    node = _node(x, np.zeros(8, np.int32))
    assert node._y is None and node._weights is None
    k, m, s = node._cpu_stats
    assert k.shape == m.shape == s.shape == (8,)


@pytest.mark.parametrize(
    'make, kwargs',
    [
        (lambda x, t: (x.astype(np.float16), t), {}),
        (lambda x, t: (x[:, ::2], t), {}),  # not contiguous
        (lambda x, t: (_unaligned(x), t), {}),
        (lambda x, t: (x, t.astype(np.int16)), {}),
        (lambda x, t: (x.reshape(4, 3, 2), np.stack([t, t], 1) % 3), {}),
        (lambda x, t: (x, t), {'class_weight': np.ones(6, np.float32)}),
        (lambda x, t: (x, t), {'cache_score': False}),
        (lambda x, t: (x, t), {'enable_double_backprop': True}),
        (lambda x, t: (x, t), {'ignore_label': 2**70}),
    ],
)
def test_other_cases_keep_the_general_path(make, kwargs):
    x = np.random.default_rng(7).standard_normal((4, 6)).astype(np.float32)
    t = np.array([0, 1, 2, 1], np.int32)
    x, t = make(x, t)
    node = _node(x, t, **kwargs)
    assert node._cpu_stats is None


def test_graph_backward_after_the_compiled_forward():
    # a gradient that is differentiated takes the graph path (which rebuilds
    # y and the one-hot weights) after the compiled forward: same values
    rng = np.random.default_rng(9)
    x = chainerlite.Variable(rng.uniform(-1, 1, (5, 4)))
    t = np.array([0, 3, -1, 1, 2], np.int32)
    loss = F.softmax_cross_entropy(x, t)
    assert loss.creator._cpu_stats is not None
    (gx,) = chainerlite.grad([loss], [x], enable_double_backprop=True)
    loss.backward()
    np.testing.assert_allclose(gx.array, x.grad, rtol=1e-15, atol=1e-17)


def test_double_backprop_option_still_works():
    rng = np.random.default_rng(8)
    x = chainerlite.Variable(rng.uniform(-1, 1, (3, 4)))
    t = np.array([0, 3, -1], np.int32)
    loss = F.softmax_cross_entropy(x, t, enable_double_backprop=True)
    (gx,) = chainerlite.grad([loss], [x], enable_double_backprop=True)
    F.sum(gx * gx).backward()
    assert x.grad is not None and np.isfinite(x.grad).all()


def test_kernels_decline_what_they_do_not_handle():
    x = np.zeros((2, 3), np.float32)
    t = np.zeros(2, np.int32)
    assert sce_kernels.sce_forward(x.T, t, -1, 1) is None
    assert sce_kernels.sce_forward(x, t[:1], -1, 1) is None
    assert sce_kernels.sce_forward(x[:0], t[:0], -1, 1) is None
    assert sce_kernels.sce_forward(x, t, 1.5, 1) is None
    assert sce_kernels.sce_forward(x, np.array([0, 3], np.int32), -1, 1) is None
    loss, stats, coeff = sce_kernels.sce_forward(x, t, -1, 1)
    assert coeff == 0.5
    g = np.ones((), np.float64)  # another dtype than x's
    assert sce_kernels.sce_backward(x, stats, g, coeff) is None
    assert sce_kernels.sce_backward(x, stats, np.ones(2, np.float32), coeff) is None
    assert sce_kernels.sce_backward(x, stats, np.ones((), np.float32), None) is None
