import math

import numpy
import pytest

import chainerlite
from chainerlite import optimizers

_DEFAULTS = {
    'alpha': 0.001,
    'beta1': 0.9,
    'beta2': 0.999,
    'eps': 1e-8,
    'eta': 1.0,
    'weight_decay_rate': 0,
    'amsgrad': False,
    'adabound': False,
    'final_lr': 0.1,
    'gamma': 1e-3,
}


def _reference(param, grads, hp):
    """Adam and its variants, written from the papers."""
    p = param.astype(numpy.float64)
    m = numpy.zeros_like(p)
    v = numpy.zeros_like(p)
    vhat = numpy.zeros_like(p)
    for t, g in enumerate(grads, 1):
        m = hp['beta1'] * m + (1 - hp['beta1']) * g
        v = hp['beta2'] * v + (1 - hp['beta2']) * g * g
        vhat = numpy.maximum(vhat, v) if hp['amsgrad'] else v
        lr = hp['alpha'] * math.sqrt(1 - hp['beta2'] ** t) / (1 - hp['beta1'] ** t)
        step = lr / (numpy.sqrt(vhat) + hp['eps'])
        if hp['adabound']:
            lower = hp['final_lr'] * (1 - 1 / (hp['gamma'] * t + 1))
            upper = hp['final_lr'] * (1 + 1 / (hp['gamma'] * t))
            step = numpy.clip(step, lower, upper)
        p = p - hp['eta'] * (step * m + hp['weight_decay_rate'] * p)
    return p, m, v


@pytest.mark.parametrize(
    'kwargs',
    [
        {},
        {'alpha': 0.05, 'beta1': 0.8, 'beta2': 0.9, 'eps': 1e-4},
        {'alpha': 0.05, 'eta': 0.5, 'weight_decay_rate': 0.1},
        {'alpha': 0.05, 'amsgrad': True},
        {'alpha': 0.05, 'adabound': True, 'final_lr': 0.02, 'gamma': 0.5},
        {
            'alpha': 0.05,
            'adabound': True,
            'amsgrad': True,
            'final_lr': 0.02,
            'gamma': 0.5,
        },
    ],
)
def test_matches_reference(kwargs, problem, tolerance, run_optimizer, check_update):
    param, grads = problem
    w = run_optimizer(optimizers.Adam(**kwargs), param, grads)
    expected, m, v = _reference(param, grads, dict(_DEFAULTS, **kwargs))
    check_update(w.array, param, expected, len(grads))
    numpy.testing.assert_allclose(w.update_rule.state['m'], m, **tolerance)
    numpy.testing.assert_allclose(w.update_rule.state['v'], v, **tolerance)
    assert ('vhat' in w.update_rule.state) == kwargs.get('amsgrad', False)


def test_adabound_bounds_are_active(problem, run_optimizer):
    # With a tight bound the update differs from plain Adam's.
    param, grads = problem
    bound = run_optimizer(
        optimizers.Adam(alpha=0.05, adabound=True, final_lr=0.02, gamma=0.5),
        param,
        grads,
    )
    plain = run_optimizer(optimizers.Adam(alpha=0.05), param, grads)
    assert numpy.abs(bound.array.astype(numpy.float64) - plain.array).max() > 0.05


def test_adabound_bounds_follow_alpha_schedule(run_optimizer):
    opt = optimizers.Adam(alpha=0.05, adabound=True, final_lr=0.02, gamma=0.5)
    w = run_optimizer(opt, numpy.array([1.0]), [numpy.array([1.0])])
    # t = 1: the step 0.5 is clipped to the upper bound 0.02 * (1 + 2).
    numpy.testing.assert_allclose(w.array, [1.0 - 0.06 * 0.1], rtol=1e-12)
    opt.alpha = 0.025  # halves the bounds: final_lr is now 0.01
    w.grad = numpy.array([1.0])
    opt.update()
    m, v = 0.19, 0.999 * 0.001 + 0.001
    lr = 0.025 * math.sqrt(1 - 0.999**2) / (1 - 0.9**2)
    step = numpy.clip(lr / (math.sqrt(v) + 1e-8), 0.01 * 0.5, 0.01 * 2)
    assert step == 0.02
    numpy.testing.assert_allclose(w.array, [0.994 - step * m], rtol=1e-12)


def test_lr_property():
    opt = optimizers.Adam(alpha=0.1, beta1=0.5, beta2=0.75)
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.zeros(2))
    opt.setup(link)
    with pytest.raises(RuntimeError, match='not been started'):
        opt.lr
    with pytest.raises(RuntimeError, match='not been started'):
        link.w.update_rule.lr
    link.w.grad = numpy.ones(2)
    opt.update()
    opt.update()
    expected = 0.1 * math.sqrt(1 - 0.75**2) / (1 - 0.5**2)
    assert opt.lr == pytest.approx(expected)
    assert opt.alpha_t == opt.lr
    assert link.w.update_rule.lr == pytest.approx(expected)
    assert link.w.update_rule.alpha_t == link.w.update_rule.lr


def test_eps_too_small():
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.ones(2, numpy.float32))
    opt = optimizers.Adam(eps=1e-50).setup(link)
    link.w.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(ValueError, match='eps of Adam.*float32'):
        opt.update()


@pytest.mark.parametrize(
    'cls, flags',
    [
        (optimizers.AdamW, {'weight_decay_rate': 0.1}),
        (optimizers.AMSGrad, {'amsgrad': True}),
        (optimizers.AdaBound, {'adabound': True}),
        (optimizers.AMSBound, {'amsgrad': True, 'adabound': True}),
    ],
)
def test_variants(cls, flags):
    kwargs = {'weight_decay_rate': 0.1} if cls is optimizers.AdamW else {}
    opt = cls(alpha=0.02, **kwargs)
    expected = dict(_DEFAULTS, alpha=0.02, **flags)
    assert opt.hyperparam.get_dict() == expected


def test_defaults_and_rule_override():
    opt = optimizers.Adam()
    assert opt.hyperparam.get_dict() == _DEFAULTS
    rule = optimizers.adam.AdamRule(opt.hyperparam, beta1=0.5, amsgrad=True)
    assert rule.hyperparam.beta1 == 0.5 and rule.hyperparam.amsgrad
    assert rule.hyperparam.alpha == 0.001


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('kwargs', [{}, {'weight_decay_rate': 0.01, 'eta': 0.5}])
def test_compiled_update_gives_the_numpy_rule_bits(monkeypatch, dtype, kwargs):
    # the same steps with the one-pass loop and with the NumPy expressions
    from chainerlite._kernels import optim as optim_kernels

    rng = numpy.random.RandomState(0)
    start = rng.randn(7, 13).astype(dtype)
    grads = [rng.randn(7, 13).astype(dtype) for _ in range(4)]

    def run():
        link = chainerlite.Link()
        with link.init_scope():
            link.w = chainerlite.Parameter(start.copy())
        optimizer = optimizers.Adam(**kwargs)
        optimizer.setup(link)
        for g in grads:
            link.w.grad = g.copy()
            optimizer.update()
        state = link.w.update_rule.state
        return link.w.array, state['m'], state['v']

    calls = []
    compiled = optim_kernels.adam

    def counted(*args):
        calls.append(compiled(*args) is args[0])
        return args[0] if calls[-1] else None

    monkeypatch.setattr(optim_kernels, 'adam', counted)
    fast = run()
    assert calls == [True] * len(grads)
    monkeypatch.setattr(optim_kernels, 'adam', lambda *args: None)
    slow = run()
    for a, b in zip(fast, slow):
        assert a.dtype == dtype
        numpy.testing.assert_array_equal(a.view(numpy.uint8), b.view(numpy.uint8))


# Chainer 7.8.1's parameter after the AdamW steps of conftest's _bits_steps
_CHAINER_DECAYED = {
    numpy.float16: [
        '0x1.b7p-1',
        '-0x1.af8p+0',
        '0x1.124p+1',
        '-0x1.b54p-2',
        '-0x1.804p+2',
    ],
    numpy.float32: [
        '0x1.b6a08ep-1',
        '-0x1.084614p-2',
        '0x1.126c9ep+1',
        '0x1.cdd722p-12',
        '-0x1.802954p+2',
    ],
    numpy.float64: [
        '0x1.b6a08f790c40ap-1',
        '-0x1.08461342f2509p-2',
        '0x1.126ca11637833p+1',
        '0x1.cdd7257502d19p-12',
        '-0x1.802953c03b2e8p+2',
    ],
}


@pytest.mark.parametrize('dtype', sorted(_CHAINER_DECAYED, key=str))
def test_weight_decay_gives_chainers_bits(dtype, chainer_bits_steps):
    # the decay is applied as Chainer applies it, (1 - eta * wd) * param -
    # eta * step * m, rounded in its dtypes; chainerlite subtracted eta *
    # (step * m + wd * param), a few ulps off (float16: in float16 too)
    opt = optimizers.Adam(weight_decay_rate=0.1, eta=0.5)
    chainer_bits_steps(opt, dtype, _CHAINER_DECAYED[dtype])
