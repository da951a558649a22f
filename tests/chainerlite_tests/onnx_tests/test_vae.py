"""The variational auto-encoder losses export with each reduction."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F

_REDUCES = ['sum', 'mean', 'no']


def _arrays(n, shape=(3, 4), dtype=np.float32, seed=0):
    rng = np.random.RandomState(seed)
    return tuple(rng.randn(*shape).astype(dtype) for _ in range(n))


@pytest.mark.parametrize('opset', [9, 11])
@pytest.mark.parametrize('reduce', _REDUCES)
def test_bernoulli_nll(onnx_matches, reduce, opset):
    x, y = _arrays(2)
    x = 1 / (1 + np.exp(-x))
    y[0, 0], y[0, 1] = 30, -30  # softplus far from zero on both sides
    model = chainerlite.Sequential(lambda x, y: F.bernoulli_nll(x, y, reduce=reduce))
    onnx_matches(model, (x, y), opset)


@pytest.mark.parametrize('opset', [9, 11])
@pytest.mark.parametrize('reduce', _REDUCES)
def test_gaussian_nll(onnx_matches, reduce, opset):
    model = chainerlite.Sequential(
        lambda x, m, v: F.gaussian_nll(x, m, v, reduce=reduce)
    )
    onnx_matches(model, _arrays(3, seed=1), opset)


@pytest.mark.parametrize('opset', [9, 11])
@pytest.mark.parametrize('reduce', _REDUCES)
def test_gaussian_kl_divergence(onnx_matches, reduce, opset):
    model = chainerlite.Sequential(
        lambda m, v: F.gaussian_kl_divergence(m, v, reduce=reduce)
    )
    onnx_matches(model, _arrays(2, seed=2), opset)


@pytest.mark.parametrize(
    'loss, n',
    [(F.bernoulli_nll, 2), (F.gaussian_nll, 3), (F.gaussian_kl_divergence, 2)],
)
def test_broadcast_inputs(onnx_matches, loss, n):
    # inputs of broadcastable shapes reach the node broadcast
    args = _arrays(n - 1, (2, 3), seed=3) + _arrays(1, (3,), seed=4)
    model = chainerlite.Sequential(lambda *a: loss(*a, reduce='no'))
    onnx_matches(model, args, 11)


@pytest.mark.parametrize(
    'loss, n', [(F.gaussian_nll, 3), (F.gaussian_kl_divergence, 2)]
)
def test_float64(onnx_matches, loss, n):
    # (ONNX Runtime has no float64 Softplus, for bernoulli_nll as for Chainer's)
    model = chainerlite.Sequential(lambda *a: loss(*a, reduce='no'))
    onnx_matches(model, _arrays(n, dtype=np.float64, seed=5), 11, rtol=1e-12, atol=0)


def test_node_ops_follow_chainers_composition(onnx_matches):
    # no op Chainer's elementwise composition does not emit
    proto = onnx_matches(
        chainerlite.Sequential(lambda x, y: F.bernoulli_nll(x, y, reduce='no')),
        _arrays(2),
        11,
    )
    assert [n.op_type for n in proto.graph.node] == ['Softplus', 'Mul', 'Sub']


def test_mean_is_reduce_mean(onnx_matches):
    # as Chainer's average: one ReduceMean after the elementwise ops
    model = chainerlite.Sequential(
        lambda m, v: F.gaussian_kl_divergence(m, v, reduce='mean')
    )
    proto = onnx_matches(model, _arrays(2, seed=6), 11)
    ops = [n.op_type for n in proto.graph.node]
    assert ops[-1] == 'ReduceMean' and 'ReduceSum' not in ops
