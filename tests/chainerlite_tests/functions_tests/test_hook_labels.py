"""The labels a function hook sees are Chainer 7.8.1's.

Profilers (TimerHook, PrintHook) and users' summaries key their records by
``function.label``. For each function below, a hook records the labels of
the nodes applied in the forward call and, during a backward without double
backprop, those of the nodes backpropagated through (``backward_preprocess``)
and of the gradient nodes they apply (``forward_preprocess``). The expected
labels are what Chainer 7.8.1's hooks see on the same calls; nodes of one
backward run in no defined order, so those are compared sorted.
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hook
from chainerlite.functions.rnn import _formula

RNG = numpy.random.default_rng(3)
SPD = RNG.random((3, 3)) @ RNG.random((3, 3)).T + 3 * numpy.eye(3)


def _x(*shape, low=-1.0, high=1.0):
    return RNG.uniform(low, high, shape)


# name: (call on Variables, inputs, forward labels in order,
#        gradient nodes applied in backward, nodes backpropagated)
CASES = {
    'relu': (F.relu, [_x(2, 3)], ['ReLU'], ['ReLUGrad2'], ['ReLU']),
    'leaky_relu': (
        F.leaky_relu,
        [_x(2, 3)],
        ['LeakyReLU'],
        ['_LeakyReLUGrad'],
        ['LeakyReLU'],
    ),
    'softmax': (F.softmax, [_x(2, 3)], ['Softmax'], ['_SoftmaxGrad'], ['Softmax']),
    'arctanh': (
        F.arctanh,
        [_x(2, 3, low=-0.5, high=0.5)],
        ['Arctanh'],
        ['1 - _', '1.0 / _', '_ * _', '_ ** 2'],
        ['Arctanh'],
    ),
    'cholesky': (
        F.cholesky,
        [SPD],
        ['cholesky'],
        ['Inv', 'MatMul', 'MatMul', 'MatMul', 'Transpose', '_ * 0.5', '_ * _', '_ + _'],
        ['cholesky'],
    ),
    'batch_det': (
        F.batch_det,
        [SPD[None]],
        ['det'],
        [
            'BatchInv',
            'BroadcastTo',
            'BroadcastTo',
            'GetItem',
            'GetItem',
            'Transpose',
            '_ * _',
            '_ * _',
        ],
        ['det'],
    ),
    'resize_images': (
        lambda x: F.resize_images(x, (3, 5)),
        [_x(1, 1, 2, 2).astype(numpy.float32)],
        ['ResizeImages'],
        ['ResizeImagesGrad'],
        ['ResizeImages'],
    ),
    'squared_difference': (
        F.squared_difference,
        [_x(3), _x(3)],
        ['SquaredError'],
        ['__neg__', '_ * 2', '_ * _', '_ - _'],
        ['SquaredError'],
    ),
    'fft': (
        lambda r, i: F.fft((r, i)),
        [_x(2, 4), _x(2, 4)],
        ['FFT'],
        ['FFT'],
        ['FFT'],
    ),
    'ifft': (
        lambda r, i: F.ifft((r, i)),
        [_x(2, 4), _x(2, 4)],
        ['FFT'],
        ['FFT'],
        ['FFT'],
    ),
    'softmax_cross_entropy': (
        lambda x: F.softmax_cross_entropy(x, numpy.array([0, 2])),
        [_x(2, 3)],
        ['SoftmaxCrossEntropy'],
        ['_SoftmaxCrossEntropyGrad_NoDoubleBackprop'],
        ['SoftmaxCrossEntropy'],
    ),
    'select_item': (
        lambda x: F.select_item(x, numpy.array([0, 2])),
        [_x(2, 3)],
        ['SelectItem'],
        ['Assign'],
        ['SelectItem'],
    ),
    'rsqrt': (
        F.rsqrt,
        [_x(3, low=1.0, high=2.0)],
        ['sqrt', '1.0 / _'],
        ['DivFromConstantGrad', '_ * 2.0', '_ / _'],
        ['1.0 / _', 'sqrt'],
    ),
    'max_pooling_2d': (
        lambda x: F.max_pooling_2d(x, 2),
        [_x(1, 1, 4, 4)],
        ['MaxPoolingND'],
        ['MaxPoolingNDGrad'],
        ['MaxPoolingND'],
    ),
    'einsum': (
        lambda a, b: F.einsum('ij,jk->ik', a, b),
        [_x(2, 3), _x(3, 2)],
        ['EinSum'],
        ['DiagEinSum', 'DiagEinSum'],
        ['EinSum'],
    ),
    'tensordot': (
        lambda a, b: F.tensordot(a, b, axes=1),
        [_x(2, 3), _x(3, 4)],
        ['TensorDot'],
        ['TensorDot', 'TensorDot'],
        ['TensorDot'],
    ),
    'batch_inv': (
        F.batch_inv,
        [SPD[None]],
        ['BatchInv'],
        ['MatMul', 'MatMul', '__neg__'],
        ['BatchInv'],
    ),
    'tan': (F.tan, [_x(3)], ['tan'], ['_ / _', 'cos', 'square'], ['tan']),
    'log_ndtr': (
        F.log_ndtr,
        [_x(3)],
        ['log_ndtr'],
        [
            '0.7978845608028654 / _',
            '_ * 0.7071067811865475',
            '_ * _',
            '__neg__',
            'erfcx',
        ],
        ['log_ndtr'],
    ),
    'rrelu': (F.rrelu, [_x(2, 3)], ['RReLU'], ['_RReLUGrad'], ['RReLU']),
    # formula nodes: one node to the hooks, not the functions they compute with
    'lstm': (
        lambda c, x: F.lstm(c, x),
        [_x(2, 3), _x(2, 12)],
        ['LSTM'],
        ['LSTMGrad'],
        ['LSTM'],
    ),
    'slstm': (
        lambda c1, c2, x1, x2: F.slstm(c1, c2, x1, x2),
        [_x(2, 3), _x(2, 3), _x(2, 12), _x(2, 12)],
        ['SLSTM'],
        ['SLSTMGrad'],
        ['SLSTM'],
    ),
    'add of one operand': (F.add, [_x(3)], ['MultiAdd'], [], ['MultiAdd']),
    'as_strided': (
        lambda x: F.as_strided(x, (2, 2), (1, 1)),
        [_x(3)],
        ['AsStrided'],
        ['AsStridedGrad'],
        ['AsStrided'],
    ),
    'crelu': (
        F.crelu,
        [_x(2, 3)],
        ['CReLU'],
        ['SplitAxis', '_ * _', '_ * _', '_ - _'],
        ['CReLU'],
    ),
    'spatial_pyramid_pooling_2d': (
        lambda x: F.spatial_pyramid_pooling_2d(x, 2, pooling='max'),
        [_x(1, 2, 4, 4)],
        # the one-bin level is (n, c, 1, 1) already: no Reshape
        ['MaxPoolingND', 'MaxPoolingND', 'Reshape', 'Concat'],
        ['MaxPoolingNDGrad', 'MaxPoolingNDGrad', 'Reshape', 'SplitAxis', '_ + _'],
        ['Concat', 'MaxPoolingND', 'MaxPoolingND', 'Reshape'],
    ),
    'prod': (
        lambda x: F.prod(x, axis=1),
        [_x(2, 3)],
        ['Prod'],
        [
            'Concat',
            'Concat',
            'Cumprod',
            'Cumprod',
            'ExpandDims',
            'Flip',
            'Flip',
            'SplitAxis',
            'SplitAxis',
            'Transpose',
            'Transpose',
            '_ * _',
            '_ * _',
        ],
        ['Prod'],
    ),
    'erf': (
        F.erf,
        [_x(3)],
        ['erf'],
        ['_ * 1.1283791670955126', '_ * _', '_ ** 2', '__neg__', 'exp'],
        ['erf'],
    ),
    'erfcx': (
        F.erfcx,
        [_x(3)],
        ['erfcx'],
        ['_ * 2', '_ * _', '_ * _', '_ + (-0.5641895835477563)'],
        ['erfcx'],
    ),
    'ndtri': (
        F.ndtri,
        [_x(3, low=0.1, high=0.9)],
        ['ndtri'],
        ['_ * 0.5', '_ * 2.5066282746310002', '_ * _', '_ ** 2', 'exp'],
        ['ndtri'],
    ),
}


class _Labels(function_hook.FunctionHook):
    name = 'labels'

    def __init__(self):
        self.forward, self.backward = [], []

    def forward_preprocess(self, function, in_data):
        self.forward.append(function.label)

    def backward_preprocess(self, function, in_data, out_grad):
        self.backward.append(function.label)


# functions whose forward computes with SciPy (chainerlite raises without it)
_NEED_SCIPY = frozenset({'erfcx', 'log_ndtr', 'ndtri'})


@pytest.mark.parametrize('name', sorted(CASES))
def test_hooks_see_chainers_labels(name):
    if name in _NEED_SCIPY:
        pytest.importorskip('scipy')
    call, inputs, forward, grad_nodes, backpropagated = CASES[name]
    xs = [chainerlite.Variable(x) for x in inputs]
    with _Labels() as hook:
        ys = call(*xs)
    assert hook.forward == forward and hook.backward == []
    ys = list(ys) if isinstance(ys, tuple) else [ys]
    gys = [chainerlite.Variable(numpy.ones_like(y.array)) for y in ys]
    with _Labels() as hook:
        gxs = chainerlite.grad(ys, xs, gys)
    assert sorted(hook.forward) == sorted(grad_nodes)
    assert sorted(hook.backward) == sorted(backpropagated)
    assert all(g is not None for g in gxs)


def test_fft_gradient_is_the_transform_of_the_swapped_parts():
    # fft's backward applies one FFT to (imag, real) and swaps its outputs
    # back: conj(W) g, the other transform scaled by n
    r, i = _x(2, 5), _x(2, 5)
    gr, gi = _x(2, 5), _x(2, 5)
    n = r.shape[-1]
    for name, adjoint in (
        ('fft', lambda z: numpy.fft.ifft(z) * n),
        ('ifft', lambda z: numpy.fft.fft(z) / n),
    ):
        xs = [chainerlite.Variable(r), chainerlite.Variable(i)]
        ys = getattr(F, name)(tuple(xs))
        g_real, g_imag = chainerlite.grad(
            list(ys), xs, [chainerlite.Variable(gr), chainerlite.Variable(gi)]
        )
        expected = adjoint(gr + 1j * gi)
        numpy.testing.assert_allclose(g_real.array, expected.real, atol=1e-12)
        numpy.testing.assert_allclose(g_imag.array, expected.imag, atol=1e-12)


def test_a_tree_lstm_forward_is_one_node_to_the_hooks():
    xs = [chainerlite.Variable(x) for x in (_x(2, 3), _x(2, 3), _x(2, 15))]
    with _Labels() as hook:
        F.tree_lstm(*xs)
    assert hook.forward == ['TreeLSTM']


def test_hooks_are_back_after_a_formula_node_fails():
    class Failing(_formula.FormulaNode):
        def formula(self, x):
            raise ValueError('the formula fails')

    hook = _Labels()
    with hook:
        with pytest.raises(ValueError, match='the formula fails'):
            Failing().apply((_x(3),))
        assert dict(chainerlite.get_function_hooks()) == {'labels': hook}
        F.relu(_x(3))
    assert hook.forward == ['Failing', 'ReLU']
