"""More of Chainer 7.8.1's internal nodes, helpers and node attributes by
Chainer's names and constructors (dropout, matmul, cumprod, softmax cross
entropy, ROI pooling, decorrelated batch normalization, sparse matmul, the
recurrent cells): each gives the values it stands for, written out here,
and a node's backward gives their derivatives."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.functions.loss import softmax_cross_entropy as sce
from chainerlite.functions.math import cumprod
from chainerlite.functions.math import matmul
from chainerlite.functions.noise import dropout
from chainerlite.functions.normalization import decorrelated_batch_normalization as dbn

RNG = np.random.RandomState(3)


def _variables(*arrays):
    return [chainerlite.Variable(np.asarray(a)) for a in arrays]


def _grads(xs, ys, weights):
    loss = sum(F.sum(y * w) for y, w in zip(ys, weights))
    return [None if g is None else g.array for g in chainerlite.grad([loss], xs)]


def test_dropout_grad_takes_chainers_mask():
    mask = np.array([0.0, 2.0, 2.0, 0.0], np.float32)
    gy = np.array([1.0, -3.0, 0.5, 4.0], np.float32)
    w = np.array([2.0, 1.0, -1.0, 3.0], np.float32)
    node = dropout.DropoutGrad(mask)
    assert node.mask is mask
    xs = _variables(gy)
    (gx,) = node.apply(xs)
    np.testing.assert_array_equal(gx.array, [0.0, -6.0, 1.0, 0.0])
    np.testing.assert_array_equal(_grads(xs, [gx], [w])[0], [0.0, 2.0, -2.0, 0.0])


def test_softmax_cross_entropy_keeps_chainers_y_and_soft_target():
    x = np.array([[0.0, np.log(3.0)], [np.log(2.0), np.log(2.0)]], np.float64)
    expected_y = [[0.25, 0.75], [0.5, 0.5]]
    node = sce.SoftmaxCrossEntropy()
    assert node.y is None and node.soft_target is False
    node.apply((x, np.array([1, 0], np.int32)))  # the compiled path
    np.testing.assert_allclose(node.y, expected_y, rtol=1e-12)
    assert node.soft_target is False
    node = sce.SoftmaxCrossEntropy(class_weight=np.ones(2))  # the general path
    node.apply((x, np.array([1, 0], np.int32)))
    np.testing.assert_allclose(node.y, expected_y, rtol=1e-12)
    node = sce.SoftmaxCrossEntropy()
    node.apply((x, np.array([[0.5, 0.5], [1.0, 0.0]])))
    assert node.soft_target is True
    np.testing.assert_allclose(node.y, expected_y, rtol=1e-12)
    node = sce.SoftmaxCrossEntropy(cache_score=False)
    node.apply((x, np.array([1, 0], np.int32)))
    assert node.y is None


def _t(m, flag):
    return m.transpose(0, 2, 1) if flag else m


@pytest.mark.parametrize('transa', [False, True])
@pytest.mark.parametrize('transb', [False, True])
def test_batch_matmul_grad(transa, transb):
    a, b, gy = RNG.randn(2, 3, 4), RNG.randn(2, 4, 5), RNG.randn(2, 3, 5)
    xs = _variables(_t(a, transa).copy(), _t(b, transb).copy(), gy)
    ga, gb = matmul.BatchMatMulGrad(transa, transb).apply(xs)
    np.testing.assert_allclose(ga.array, _t(gy @ _t(b, True), transa), rtol=1e-12)
    np.testing.assert_allclose(gb.array, _t(_t(a, True) @ gy, transb), rtol=1e-12)
    # second order: ga and gb are linear in (b, gy) and (a, gy); wa, wb
    # weigh them (as laid out in a's and b's own layout)
    wa, wb = RNG.randn(*ga.shape), RNG.randn(*gb.shape)
    g_a, g_b, g_gy = _grads(xs, [ga, gb], [wa, wb])
    wa, wb = _t(wa, transa), _t(wb, transb)
    np.testing.assert_allclose(g_a, _t(gy @ _t(wb, True), transa), rtol=1e-10)
    np.testing.assert_allclose(g_b, _t(_t(wa, True) @ gy, transb), rtol=1e-10)
    np.testing.assert_allclose(g_gy, wa @ b + a @ wb, rtol=1e-10)


def test_matmul_batch_helpers():
    x = np.arange(24.0).reshape(2, 3, 2, 2)
    np.testing.assert_array_equal(matmul._as_batch_mat(x), x.reshape(2, 3, 4))
    assert matmul._get_ld(np.zeros((2, 3, 4))) == (1, 4)
    assert matmul._get_ld(np.zeros((2, 4, 3)).transpose(0, 2, 1)) == (0, 3)
    assert matmul._get_ld(np.zeros((2, 3, 5))[:, :, :4]) == (1, 5)


def test_cumprodsum_recurrence_and_gradients():
    xmul = np.array([[2.0, 3.0], [0.5, -1.0]])
    xadd = np.array([[1.0, 1.0, 1.0], [2.0, 0.0, 4.0]])
    w = np.array([[1.0, 2.0, 3.0], [1.0, -1.0, 2.0]])
    xs = _variables(xmul, xadd)
    (y,) = cumprod.Cumprodsum(1).apply(xs)
    np.testing.assert_array_equal(y.array, [[1.0, 3.0, 10.0], [2.0, 1.0, 3.0]])
    gmul, gadd = _grads(xs, [y], [w])
    # gadd[i] = w[i] + xmul[i] * gadd[i+1]; gmul[i] = gadd[i+1] * y[i]
    np.testing.assert_array_equal(gadd, [[23.0, 11.0, 3.0], [-0.5, -3.0, 2.0]])
    np.testing.assert_array_equal(gmul, [[11.0, 9.0], [-6.0, 2.0]])
    (y0,) = cumprod.Cumprodsum(0).apply(_variables(xmul.T, xadd.T))
    np.testing.assert_array_equal(y0.array, y.array.T)
    with pytest.raises(ValueError, match='Cumprodsum'):
        cumprod.Cumprodsum(1).apply(_variables(xmul, xadd[:, :2]))


def test_cumprodsum_second_order():
    xmul, xadd = _variables(np.array([2.0, 3.0]), np.array([1.0, 1.0, 1.0]))
    (y,) = cumprod.Cumprodsum(0).apply((xmul, xadd))
    # y[2] = (xadd0 * xmul0 + xadd1) * xmul1 + xadd2
    (gmul,) = chainerlite.grad([y[2]], [xmul], enable_double_backprop=True)
    # d y2 / d xmul1 = xadd0 * xmul0 + xadd1 = 3; its derivative by xmul0 is xadd0 = 1
    assert gmul.array.tolist() == [3.0, 3.0]
    (gg,) = chainerlite.grad([gmul[1]], [xmul])
    assert gg.array.tolist() == [1.0, 0.0]


def test_roi_pooling_2d_grad_scatters_to_the_chosen_pixels():
    from chainerlite.functions.pooling import roi_pooling_2d

    rois = np.array([[1, 0, 0, 2, 2], [0, 1, 0, 2, 1]], np.float32)
    # ROI 0 (image 1), channel 0 chose pixels 0, 2, 6, 8 of a 3 x 3 map;
    # channel 1 chose pixel 4 four times; ROI 1 (image 0) has an empty bin
    argmax = np.array(
        [[[[0, 2], [6, 8]], [[4, 4], [4, 4]]], [[[1, 2], [-1, 5]], [[1, 2], [4, 5]]]],
        np.int32,
    )
    gy = np.arange(1.0, 17.0, dtype=np.float32).reshape(2, 2, 2, 2)
    node = roi_pooling_2d.ROIPooling2DGrad(2, 2, 1.0, (2, 2, 3, 3), argmax)
    assert node.argmax_data is argmax and (node.outh, node.outw) == (2, 2)
    xs = _variables(rois, gy)
    (gx,) = node.apply(xs)
    expected = np.zeros((2, 2, 9), np.float32)
    expected[1, 0, [0, 2, 6, 8]] = [1, 2, 3, 4]
    expected[1, 1, 4] = 5 + 6 + 7 + 8
    expected[0, 0, [1, 2, 5]] = [9, 10, 12]
    expected[0, 1, [1, 2, 4, 5]] = [13, 14, 15, 16]
    np.testing.assert_array_equal(gx.array, expected.reshape(2, 2, 3, 3))
    # its backward gathers from the same pixels
    w = np.arange(36.0, dtype=np.float32).reshape(2, 2, 3, 3)
    g_rois, g_gy = _grads(xs, [gx], [w])
    assert g_rois is None
    flat = w.reshape(2, 2, 9)
    roi1_ch1 = [flat[0, 1, [1, 2]], flat[0, 1, [4, 5]]]
    expected_ggy = [
        [[flat[1, 0, [0, 2]], flat[1, 0, [6, 8]]], [[flat[1, 1, 4]] * 2] * 2],
        [[flat[0, 0, [1, 2]], [0, flat[0, 0, 5]]], roi1_ch1],
    ]
    np.testing.assert_array_equal(g_gy, np.array(expected_ggy, np.float32))


def test_roi_helpers():
    from chainerlite.functions.pooling import roi_average_align_2d
    from chainerlite.functions.pooling import roi_pooling_2d

    # bin 1 of stride 1.5 covers pixels floor(1.5) to ceil(3.0), shifted
    assert roi_pooling_2d._roi_pooling_slice(1, 1.5, 10, 2) == (slice(3, 5), 2)
    assert roi_pooling_2d._roi_pooling_slice(0, 1.5, 10, 0) == (slice(0, 2), 2)
    assert roi_pooling_2d._roi_pooling_slice(3, 2.0, 5, 1) == (slice(5, 5), 0)
    assert roi_pooling_2d._roi_pooling_slice(0, 0.7, 3, -2) == (slice(0, 0), 0)
    bounds = roi_average_align_2d._get_bounds
    assert bounds(-1.5, 4) == (None, None, None)
    assert bounds(4.2, 4) == (None, None, None)
    assert bounds(-0.5, 4) == (0, -1, 0)
    assert bounds(2.5, 4) == (2.5, 2, 3)
    assert bounds(3.5, 4) == (3, 3, 4)
    assert bounds(4.0, 4) == (3, 3, 4)


def _whiten(x, groups, eps):
    # ZCA whitening of each channel group of a (batch, channels) array, and
    # the statistics Chainer's gradient node takes
    xg = x.T.reshape(groups, -1, x.shape[0])
    xc = xg - xg.mean(axis=2, keepdims=True)
    cov = xc @ xc.transpose(0, 2, 1) / x.shape[0] + eps * np.eye(xg.shape[1])
    eigvals, eigvectors = np.linalg.eigh(cov)
    y_hat_pca = (eigvectors.transpose(0, 2, 1) @ xc) / np.sqrt(eigvals)[:, :, None]
    y = (eigvectors @ y_hat_pca).reshape(x.shape[1], x.shape[0]).T
    return y, (eigvals, eigvectors, y_hat_pca)


def test_decorrelated_batch_normalization_grad_from_chainers_statistics():

    x, gy = RNG.randn(6, 4), RNG.randn(6, 4)
    _, stats = _whiten(x, 2, 2e-5)
    node = dbn.DecorrelatedBatchNormalizationGrad(2, *stats)
    assert node.eigvals is stats[0] and node.y_hat_pca is stats[2]
    (gx,) = node.apply(_variables(gy))
    expected = np.zeros_like(x)  # central differences of sum(gy * y)
    for i in np.ndindex(*x.shape):
        dx = np.zeros_like(x)
        dx[i] = 1e-6
        up, down = _whiten(x + dx, 2, 2e-5)[0], _whiten(x - dx, 2, 2e-5)[0]
        expected[i] = (gy * (up - down)).sum() / 2e-6
    np.testing.assert_allclose(gx.array, expected, rtol=1e-6, atol=1e-8)
    # the node of the function hands over what it kept: the same gradient
    xv = chainerlite.Variable(x)
    y = F.decorrelated_batch_normalization(xv, groups=2)
    y.grad = gy
    y.backward()
    np.testing.assert_allclose(xv.grad, expected, rtol=1e-6, atol=1e-8)


def test_fixed_decorrelated_batch_normalization_grad():

    # groups of 2 channels: y[:, group] = (x[:, group] - mean) @ projection.T
    x, gy = RNG.randn(5, 4), RNG.randn(5, 4)
    mean, projection = RNG.randn(2, 2), RNG.randn(2, 2, 2)
    xs = _variables(x, mean, projection, gy)
    gx, gmean, gprojection = dbn.FixedDecorrelatedBatchNormalizationGrad(2).apply(xs)
    close = np.testing.assert_allclose
    for k, cols in enumerate((slice(0, 2), slice(2, 4))):
        xc, gyk = x[:, cols] - mean[k], gy[:, cols]
        close(gx.array[:, cols], gyk @ projection[k], rtol=1e-12)
        close(gmean.array[k], -(gyk @ projection[k]).sum(0), rtol=1e-12)
        close(gprojection.array[k], gyk.T @ xc, rtol=1e-12)
    # second order: gprojection is bilinear in gy and x - mean
    w = RNG.randn(2, 2, 2)
    g_x, g_mean, g_projection, g_gy = _grads(xs, [gprojection], [w])
    assert g_projection is None or not g_projection.any()
    for k, cols in enumerate((slice(0, 2), slice(2, 4))):
        np.testing.assert_allclose(g_x[:, cols], gy[:, cols] @ w[k], rtol=1e-12)
        np.testing.assert_allclose(g_mean[k], -(gy[:, cols] @ w[k]).sum(0), rtol=1e-12)
        xc = x[:, cols] - mean[k]
        np.testing.assert_allclose(g_gy[:, cols], xc @ w[k].T, rtol=1e-12)


def test_coo_mat_mul_grad_sp_takes_the_product_at_the_pattern():
    from chainerlite.functions.math import sparse_matmul

    a, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 0.0], [2.0, 1.0]])
    row, col = np.array([0, 1, 1, -1], np.int32), np.array([1, 0, 1, -1], np.int32)
    xs = _variables(a, b)  # a @ b = [[5, 2], [11, 4]]
    (c,) = sparse_matmul.CooMatMulGradSP(row, col, (2, 2)).apply(xs)
    np.testing.assert_array_equal(c.array, [2.0, 11.0, 4.0, 0.0])
    node = sparse_matmul.CooMatMulGradSP(row, col, (2, 2), transa=True, transc=True)
    (ct,) = node.apply(_variables(a.T, b))  # the pattern indexes (a @ b).T
    np.testing.assert_array_equal(ct.array, [11.0, 2.0, 4.0, 0.0])
    # with weights w of the entries, W = [[0, 1], [2, 3]] at the pattern:
    # the gradients are W @ b.T and a.T @ W
    (ga, gb) = chainerlite.grad(
        [F.sum(c * np.array([1.0, 2.0, 3.0, 5.0]))], xs, enable_double_backprop=True
    )
    np.testing.assert_array_equal(ga.array, [[0.0, 1.0], [2.0, 7.0]])
    np.testing.assert_array_equal(gb.array, [[6.0, 10.0], [8.0, 14.0]])
    # second order: sum(W @ b.T) by b is ones.T @ W
    (ggb,) = chainerlite.grad([F.sum(ga)], [xs[1]])
    np.testing.assert_array_equal(ggb.array, [[2.0, 4.0]] * 2)
    with pytest.raises(ValueError, match='CooMatMulGradSP'):
        sparse_matmul.CooMatMulGradSP(row, col[:3], (2, 2))
    with pytest.raises(chainerlite.utils.type_check.InvalidType):
        sparse_matmul.CooMatMulGradSP(row, col, (3, 2)).apply(xs)


def test_coo_mat_mul_grad_sp_of_a_batch():
    from chainerlite.functions.math import sparse_matmul

    a = np.arange(8.0, dtype=np.float32).reshape(2, 2, 2)
    b = np.ones((2, 2, 2), np.float32)
    row = np.array([[0, 1], [1, -1]], np.int32)
    col = np.array([[0, 1], [0, -1]], np.int32)
    (c,) = sparse_matmul.CooMatMulGradSP(row, col, (2, 2)).apply(_variables(a, b))
    # each product's entry (i, j) is the sum of row i of a's matrix
    assert c.dtype == np.float32
    np.testing.assert_array_equal(c.array, [[1.0, 5.0], [13.0, 0.0]])


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _cell_grads(children, o, c, gc, gh):
    # First-order gradients of an LSTM cell with children (c_prev, a, i, f)
    # and output gate pre-activation o: per child gc_prev, ga, gi, gf, and
    # then go.
    so, tc = _sigmoid(o), np.tanh(c)
    g_total = gc + gh * so * (1 - tc * tc)
    out = []
    for c_prev, a, i, f in children:
        ta, si, sf = np.tanh(a), _sigmoid(i), _sigmoid(f)
        out += [g_total * sf, g_total * si * (1 - ta * ta)]
        out += [g_total * ta * si * (1 - si), g_total * c_prev * sf * (1 - sf)]
    return out + [gh * tc * so * (1 - so)]


def _directional(f, args, direction, eps=1e-6):
    up = f(*[x + eps * d for x, d in zip(args, direction)])
    down = f(*[x - eps * d for x, d in zip(args, direction)])
    return (up - down) / (2 * eps)


def test_lstm_grad_grad_is_the_derivative_of_the_cell_gradient():
    from chainerlite.functions.rnn import lstm

    args = [RNG.randn(3, 2) for _ in range(8)]  # c_prev, a, i, f, o, c, gc, gh
    ggs = [RNG.randn(3, 2) for _ in range(5)]  # ggc_prev, gga, ggi, ggf, ggo
    outs = [np.empty((3, 2)) for _ in range(8)]
    grads = lstm.lstm_grad_grad(*args, *ggs, *outs)
    assert all(g is out for g, out in zip(grads, outs))
    # the grads pair with (c_prev, a, i, f, o, c, gc, gh)

    def weighted(c_prev, a, i, f, o, c, gc, gh):
        out = _cell_grads([(c_prev, a, i, f)], o, c, gc, gh)
        return sum((y * w).sum() for y, w in zip(out, ggs))

    for k in range(8):
        direction = [np.zeros((3, 2)) for _ in range(8)]
        direction[k] = RNG.randn(3, 2)
        expected = _directional(weighted, args, direction)
        assert abs((grads[k] * direction[k]).sum() - expected) < 1e-7, k
    # missing gradients are 0
    zero_gc = lstm.lstm_grad_grad(
        *args[:6], 0, *args[7:], *ggs, *[np.empty((3, 2)) for _ in range(8)]
    )
    with_zeros = lstm.lstm_grad_grad(
        *args[:6],
        np.zeros((3, 2)),
        *args[7:],
        *ggs,
        *[np.empty((3, 2)) for _ in range(8)],
    )
    for g, h in zip(zero_gc, with_zeros):
        np.testing.assert_array_equal(g, h)


def test_slstm_grad_grad_is_the_derivative_of_the_cell_gradient():
    from chainerlite.functions.rnn import slstm

    # c_prev1, a1, i1, f1, c_prev2, a2, i2, f2, o, c, gc, gh
    args = [RNG.randn(2, 3) for _ in range(12)]
    ggs = [RNG.randn(2, 3) for _ in range(10)]  # of (gc_prev1, ga1 .. go1, ...)
    grads = slstm.slstm_grad_grad(*args, *ggs)
    assert len(grads) == 13

    def weighted(c_prev1, a1, i1, f1, c_prev2, a2, i2, f2, o, c, gc, gh):
        out = _cell_grads([(c_prev1, a1, i1, f1), (c_prev2, a2, i2, f2)], o, c, gc, gh)
        # Chainer's order: child 1's gc_prev, ga, gi, gf, go, then child 2's
        ordered = out[0:4] + out[8:9] + out[4:8] + out[8:9]
        return sum((y * w).sum() for y, w in zip(ordered, ggs))

    # the gradients of c_prev1, a1, i1, f1, (o), c_prev2, a2, i2, f2, (o), c, gc, gh
    places = [0, 1, 2, 3, 8, 4, 5, 6, 7, 8, 9, 10, 11]
    for g, k in zip(grads, places):
        direction = [np.zeros((2, 3)) for _ in range(12)]
        direction[k] = RNG.randn(2, 3)
        expected = _directional(weighted, args, direction)
        assert abs((g * direction[k]).sum() - expected) < 1e-7, k


def test_n_step_rnn_impl_runs_chainers_step_function():
    from chainerlite.functions.rnn import n_step_rnn

    def tanh_step(x, h, c, w, b):
        return F.tanh(F.linear(x, w[0], b[0]) + F.linear(h, w[1], b[1])), None

    n_layers, n_in, n_units = 2, 3, 4
    ws = [
        [
            RNG.randn(n_units, n_in if layer == 0 else 2 * n_units),
            RNG.randn(n_units, n_units),
        ]
        for layer in range(n_layers)
        for _ in range(2)
    ]
    bs = [[RNG.randn(n_units), RNG.randn(n_units)] for _ in range(2 * n_layers)]
    xs = [RNG.randn(3, n_in), RNG.randn(2, n_in), RNG.randn(1, n_in)]
    hx = RNG.randn(2 * n_layers, 3, n_units)
    with chainerlite.using_config('train', False):
        hy, cy, ys = n_step_rnn.n_step_rnn_impl(
            tanh_step, n_layers, 0.5, hx, None, ws, bs, xs, True
        )
        hy_fused, ys_fused = F.n_step_birnn(n_layers, 0.5, hx, ws, bs, xs)
    assert cy is None
    np.testing.assert_allclose(hy.array, hy_fused.array, rtol=1e-12, atol=1e-14)
    for y, y_fused in zip(ys, ys_fused):
        np.testing.assert_allclose(y.array, y_fused.array, rtol=1e-12, atol=1e-14)


def test_n_step_rnn_impl_keeps_the_states_of_ended_sequences():
    from chainerlite.functions.rnn import n_step_rnn

    def cumulative_step(x, h, c, w, b):  # h + x, and c counts the steps
        return h + x * w[0], c + 1.0

    xs = [np.array([[1.0], [2.0]]), np.array([[10.0]])]
    hx, cx = np.zeros((1, 2, 1)), np.zeros((1, 2, 1))
    ws, bs = [[np.array(1.0)]], [[None]]
    hy, cy, ys = n_step_rnn.n_step_rnn_impl(
        cumulative_step, 1, 0.0, hx, cx, ws, bs, xs, False
    )
    np.testing.assert_array_equal(hy.array, [[[11.0], [2.0]]])
    np.testing.assert_array_equal(cy.array, [[[2.0], [1.0]]])
    assert [y.array.tolist() for y in ys] == [[[1.0], [2.0]], [[11.0]]]


def test_ctc_helpers_and_zero_padding():
    from chainerlite.functions.loss import ctc

    node = ctc.ConnectionistTemporalClassification(0)
    assert node.zero_padding is None
    x = np.array([[0.0, 1.0, np.e], [0.5, 0.0, np.nan]], np.float32)
    np.testing.assert_allclose(
        node.log_matrix(x, np),
        [[-1e10, 0.0, 1.0], [np.log(0.5), -1e10, -1e10]],
        rtol=1e-6,
    )
    # the sums over each label's positions, positions past the length left out
    path = np.array([[0, 1, 0, 2, 0], [0, 2, 0, 2, 0]], np.int32)
    seq = np.arange(20.0, dtype=np.float32).reshape(2, 2, 5)
    probability = node.label_probability(3, path, np.array([5, 3]), seq, np)
    np.testing.assert_array_equal(
        probability, [[[6, 1, 3], [12, 0, 6]], [[36, 11, 13], [32, 0, 16]]]
    )
    # a forward sets the log zero of its dtype, which log_matrix then uses
    frames = RNG.randn(3, 1, 3).astype(np.float16)
    lengths, labels = np.array([3], np.int32), np.array([1], np.int32)
    node.apply((lengths, lengths[:1] * 0 + 1, labels[None], frames))
    assert node.zero_padding == -1e4
    assert node.log_matrix(np.zeros(1, np.float16), np)[0] == -1e4
    preset = ctc.ConnectionistTemporalClassification(0)
    preset.zero_padding = -50.0
    preset.apply(
        (lengths, lengths[:1] * 0 + 1, labels[None], frames.astype(np.float32))
    )
    assert preset.zero_padding == -50.0


def test_ctc_calc_trans_sums_the_alignments_through_each_position():
    from chainerlite.functions.loss import ctc

    # two frames of a 2-symbol alphabet (blank 0), label [1]: the path is
    # (blank, 1, blank); the alignments are "1 1", "1 -", "- 1"
    p = np.array([[0.6, 0.4], [0.3, 0.7]])  # p[time, symbol]
    log_y = np.log(p)[:, None, :]
    path, path_length = np.array([[0, 1, 0]], np.int32), np.array([3])
    node = ctc.ConnectionistTemporalClassification(0)
    trans = node.calc_trans(
        log_y, np.array([2]), np.array([[1]]), np.array([1]), path, path_length, np
    )
    one_one, one_blank, blank_one = 0.4 * 0.7, 0.4 * 0.3, 0.6 * 0.7
    expected = [
        [blank_one, one_one + one_blank, None],
        [None, one_one + blank_one, one_blank],
    ]
    for t in range(2):
        for s in range(3):
            if expected[t][s] is None:  # no alignment: the log zero
                assert trans[t, 0, s] < -1e9
            else:
                np.testing.assert_allclose(
                    np.exp(trans[t, 0, s]), expected[t][s], rtol=1e-12
                )
