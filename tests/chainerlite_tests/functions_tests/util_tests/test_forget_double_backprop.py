"""Double backpropagation through F.forget: every function family, random
replay in threads, and a gradient-penalty training loop."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import optimizers


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape)


# One representative op (or two) per function family: (name, block, the
# arrays its inputs take). Each block is nonlinear in its inputs, so that
# its second derivative is not zero.
_FAMILIES = [
    ('math', lambda a, b: F.sin(a) * b + F.exp(a * 0.5), lambda: [_uniform(3, 4)] * 2),
    ('activation', lambda a: F.elu(a) * F.tanh(a), lambda: [_uniform(3, 4)]),
    (
        'array',
        lambda a: F.transpose(F.concat([F.reshape(a * a, (4, 3)), a.T], axis=0)),
        lambda: [_uniform(3, 4)],
    ),
    (
        'linear',
        lambda x, W: F.tanh(F.linear(x, W)),
        lambda: [_uniform(2, 3), _uniform(4, 3)],
    ),
    (
        'convolution',
        lambda x, W: F.sigmoid(F.convolution_2d(x, W, pad=1)),
        lambda: [_uniform(1, 2, 4, 4), _uniform(3, 2, 3, 3)],
    ),
    (
        'pooling',
        lambda x: F.average_pooling_2d(x * x, 2) + F.max_pooling_2d(x * x * x, 2),
        lambda: [numpy.random.permutation(32).reshape(1, 2, 4, 4) / 16.0 - 1.0],
    ),
    (
        'normalization',
        lambda x, g, b: F.batch_normalization(x, g, b) * x,
        lambda: [_uniform(5, 3), _uniform(3), _uniform(3)],
    ),
    (
        'loss',
        lambda x, t: F.mean_squared_error(F.tanh(x), t) * x,
        lambda: [_uniform(3, 4)] * 2,
    ),
]


def _seeded_forget(block, seed):
    # F.forget whose draws, if any, are the same at every call, so that the
    # numerical gradients of check_double_backward see one function
    def call(*xs):
        numpy.random.seed(seed)
        return F.forget(block, *xs)

    return call


def _dropout_block(x, W):
    return F.dropout(F.tanh(F.linear(x, W)), ratio=0.5) * F.tanh(x).T[0]


_FAMILIES.append(('noise', _dropout_block, lambda: [_uniform(4, 3), _uniform(4, 3)]))


@pytest.mark.parametrize(
    'name, block, inputs', _FAMILIES, ids=[f[0] for f in _FAMILIES]
)
def test_check_double_backward(name, block, inputs):
    numpy.random.seed(1)
    xs = inputs()
    func = _seeded_forget(block, 4)
    ys = func(*[chainerlite.Variable(x) for x in xs])
    gy = _uniform(*ys.shape)
    ggxs = [_uniform(*x.shape) for x in xs]
    gradient_check.check_double_backward(func, xs, gy, ggxs, atol=1e-4, rtol=1e-3)


def _second_order(block, xs, use_forget):
    # grad of sum(y * c) by the inputs, then the gradient of their squares'
    # sum by the inputs: a second-order quantity of every input
    vs = [chainerlite.Variable(x.copy()) for x in xs]
    numpy.random.seed(9)
    y = F.forget(block, *vs) if use_forget else block(*vs)
    c = numpy.linspace(-1, 1, y.size).reshape(y.shape)
    gxs = chainerlite.grad([F.sum(y * c)], vs, enable_double_backprop=True)
    F.sum(F.stack([F.sum(g * g) for g in gxs])).backward()
    return [y.array] + [g.array for g in gxs] + [v.grad for v in vs]


@pytest.mark.parametrize(
    'name, block, inputs', _FAMILIES, ids=[f[0] for f in _FAMILIES]
)
def test_second_order_equals_plain(name, block, inputs):
    numpy.random.seed(2)
    xs = inputs()
    plain = _second_order(block, xs, False)
    forgotten = _second_order(block, xs, True)
    for a, b in zip(plain, forgotten):
        numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    if name == 'noise':
        assert (plain[0] == 0).any() and (plain[0] != 0).any()


def test_input_computed_from_another_input():
    # y = g(x): the gradient of the forget's second input must not be
    # passed on to the first inside the recomputation (the outer graph
    # passes it on once)
    def run(use_forget):
        x = chainerlite.Variable(numpy.linspace(0.1, 1, 6))
        y = x * x
        f = lambda a, b: a * F.sin(b)  # noqa: E731
        z = F.forget(f, x, y) if use_forget else f(x, y)
        (gx,) = chainerlite.grad([F.sum(z)], [x], enable_double_backprop=True)
        F.sum(gx * gx).backward()
        return gx.array, x.grad

    for a, b in zip(run(False), run(True)):
        numpy.testing.assert_allclose(a, b, rtol=1e-12)


def test_nested_forget_and_dropout_in_threads(in_threads):
    # y = 4 M a^2 with M the product of two dropout masks (one in a nested
    # forget), so with c the weights of y, the first gradient is 8 c M a
    # and the gradient of its squares' sum is 128 c^2 M a: both follow from
    # y, whatever the masks each thread drew
    def block(a):
        inner = F.forget(lambda b: F.dropout(b * b, 0.5), a)
        return F.dropout(inner, 0.5)

    def run():
        for _ in range(20):
            x = numpy.random.uniform(0.5, 1, (6, 6))
            y, gx, ggx = _second_order(block, [x], True)
            mask = y != 0
            c = numpy.linspace(-1, 1, y.size).reshape(y.shape)
            numpy.testing.assert_allclose(y, 4 * mask * x * x, rtol=1e-12)
            numpy.testing.assert_allclose(gx, 8 * c * mask * x, rtol=1e-12)
            numpy.testing.assert_allclose(ggx, 128 * c * c * mask * x, rtol=1e-12)
            assert mask.any() and not mask.all()
        return True

    assert in_threads(run, 6) == [True] * 6


def test_first_order_backward_keeps_no_graph():
    # without double backprop the gradients are arrays with no creator
    x = chainerlite.Variable(_uniform(3, 3))
    y = F.forget(lambda a: F.tanh(a) * a, x)
    F.sum(y).backward()
    assert x.grad_var.creator is None


class _Critic(chainerlite.Chain):
    def __init__(self, use_forget):
        super().__init__()
        self.use_forget = use_forget
        with self.init_scope():
            for i in range(3):
                setattr(self, 'l{}'.format(i), L.Linear(8, 8))
            self.out = L.Linear(8, 1)

    def block(self, i, h):
        def body(a):
            return F.dropout(F.tanh(getattr(self, 'l{}'.format(i))(a)), 0.2) + a

        return F.forget(body, h) if self.use_forget else body(h)

    def __call__(self, x):
        h = x
        for i in range(3):
            h = self.block(i, h)
        return self.out(h)


def _train_wgan_gp(use_forget, steps=5):
    numpy.random.seed(0)
    critic = _Critic(use_forget)
    opt = optimizers.Adam(alpha=1e-2)
    opt.setup(critic)
    for _ in range(steps):
        real = numpy.random.randn(16, 8).astype(numpy.float32)
        fake = numpy.random.randn(16, 8).astype(numpy.float32) + 1
        eps = numpy.random.uniform(0, 1, (16, 1)).astype(numpy.float32)
        mixed = chainerlite.Variable(eps * real + (1 - eps) * fake)
        score = critic(mixed)
        (g,) = chainerlite.grad([F.sum(score)], [mixed], enable_double_backprop=True)
        norm = F.sqrt(F.batch_l2_norm_squared(g) + 1e-12)
        penalty = F.mean((norm - 1) ** 2)
        loss = F.mean(critic(fake)) - F.mean(critic(real)) + 10 * penalty
        critic.cleargrads()
        loss.backward()
        opt.update()
    return {name: p.array.copy() for name, p in critic.namedparams()}


def test_wgan_gp_trains_the_same_with_forget():
    plain = _train_wgan_gp(False)
    forgotten = _train_wgan_gp(True)
    assert plain.keys() == forgotten.keys()
    for name in plain:
        numpy.testing.assert_allclose(
            plain[name], forgotten[name], rtol=1e-6, atol=1e-6
        )
