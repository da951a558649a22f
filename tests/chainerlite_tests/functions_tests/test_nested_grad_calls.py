"""Backward of reshape, sum, the logarithms, dropout, the normalizations,
LSTM and softmax cross entropy applies its grad nodes on every path.

The plain pass (no hook, no double backprop) runs them compute-only; a hook
sees their real applies nested in backward, named as Chainer 7.8.1 names
them, and the gradients are bitwise those of the plain pass.
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hook
from chainerlite.functions.array import reshape
from chainerlite.functions.loss import softmax_cross_entropy
from chainerlite.functions.math import exponential
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.noise import dropout
from chainerlite.functions.normalization import batch_normalization
from chainerlite.functions.normalization import layer_normalization
from chainerlite.functions.rnn import lstm

RNG = numpy.random.default_rng(0)
X = RNG.standard_normal((4, 8))
GAMMA, BETA = RNG.standard_normal(8), RNG.standard_normal(8)
MASK = (RNG.random((4, 8)) > 0.5) * 2.0
LABELS = numpy.array([1, -1, 7, 0], numpy.int32)

# name: (function of the input Variables, inputs, labels of the forward calls
# a hook sees during backward, in order; a grad node that evaluates its
# formula of differentiable functions (LSTM without the compiled kernel,
# layer normalization on the CPU) shows the applies of these after it)
CASES = {
    'reshape': (lambda x: F.reshape(x, (8, 4)), [X], ['Reshape']),
    'sum': (lambda x: F.sum(x, axis=0), [X], ['Reshape', 'BroadcastTo']),
    'log': (F.log, [abs(X) + 0.5], ['_ / _']),
    'log2': (F.log2, [abs(X) + 0.5], ['_ / _', '_ * 1.4426950408889634']),
    'dropout': (lambda x: F.dropout(x, mask=MASK), [X], ['DropoutGrad']),
    'batch_normalization': (
        F.batch_normalization,
        [X, GAMMA, BETA],
        ['BatchNormalizationGrad'],
    ),
    'fixed_batch_normalization': (
        F.fixed_batch_normalization,
        [X, GAMMA, BETA, BETA, abs(GAMMA) + 1],
        ['FixedBatchNormalizationGrad'],
    ),
    'layer_normalization': (
        F.layer_normalization,
        [X, GAMMA, BETA],
        ['LayerNormalizationGrad', ...],
    ),
    'lstm': (lambda c, x: F.lstm(c, x)[1], [X[:, :2], X], ['LSTMGrad']),
    'softmax_cross_entropy': (
        lambda x: F.softmax_cross_entropy(x, LABELS),
        [X],
        ['_SoftmaxCrossEntropyGrad_NoDoubleBackprop'],
    ),
}
NODES = [
    reshape.Reshape,
    sum_mod.Sum,
    exponential.Log,
    exponential.Log2,
    exponential.Log10,
    dropout.Dropout,
    batch_normalization.BatchNormalization,
    batch_normalization.FixedBatchNormalization,
    layer_normalization.LayerNormalization,
    lstm.LSTM,
    softmax_cross_entropy.SoftmaxCrossEntropy,
]


class _Recorder(function_hook.FunctionHook):
    name = 'recorder'

    def __init__(self):
        self.calls = []
        self.in_backward = 0

    def forward_preprocess(self, function, in_data):
        self.calls.append((self.in_backward, function.label))

    def backward_preprocess(self, function, in_data, out_grad):
        self.in_backward += 1

    def backward_postprocess(self, function, in_data, out_grad):
        self.in_backward -= 1


def _gradients(f, arrays):
    xs = [chainerlite.Variable(a.copy()) for a in arrays]
    y = f(*xs)
    y.grad = numpy.linspace(-1, 1, y.size).reshape(y.shape).astype(y.dtype)
    y.backward()
    return [x.grad for x in xs]


@pytest.mark.parametrize('node', NODES, ids=lambda c: c.__name__)
def test_no_array_level_backward_is_written(node):
    # neither the class nor the engine's base class has one
    assert not hasattr(node, '_backward_arrays')


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_hook_sees_the_grad_nodes_and_the_same_gradients(name, dtype):
    f, arrays, nested = CASES[name]
    arrays = [a.astype(dtype) for a in arrays]
    plain = _gradients(f, arrays)
    hook = _Recorder()
    with hook:
        hooked = _gradients(f, arrays)
    seen = [label for inside, label in hook.calls if inside]
    if name == 'lstm' and dtype == numpy.float16:
        nested = nested + [...]
    if nested[-1] is ...:
        assert seen[: len(nested) - 1] == nested[:-1]
        assert len(seen) >= len(nested) - 1  # ...: the applies of a formula, if any
    else:
        assert seen == nested
    for g, h in zip(plain, hooked):
        assert g.dtype == h.dtype
        assert g.tobytes() == h.tobytes()
