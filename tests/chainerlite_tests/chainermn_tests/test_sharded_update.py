"""The update shared out over the ranks of one node: bitwise the update of
every rank updating everything, for any update rule and hook."""

import numpy
import pytest

import chainerlite
from chainerlite import functions
from chainerlite import links
from chainerlite import optimizer as optimizer_module
from chainerlite import optimizer_hooks
from chainerlite import optimizers
import chainerlite.chainermn
from chainerlite.chainermn import _sharded_update


class _NormalizedRule(optimizer_module.UpdateRule):
    """Not elementwise: the step is the gradient over its norm."""

    def init_state(self, param):
        self.state['steps'] = numpy.zeros((), dtype=param.dtype)

    def update_core_cpu(self, param):
        self.state['steps'] += 1
        param.array -= 0.05 * param.grad / (numpy.linalg.norm(param.grad) + 1)


class _Normalized(optimizer_module.GradientMethod):
    def create_update_rule(self):
        return _NormalizedRule(self.hyperparam)


_OPTIMIZERS = {
    'SGD': lambda: optimizers.SGD(lr=0.1),
    'MomentumSGD': lambda: optimizers.MomentumSGD(lr=0.05),
    'Adam': lambda: optimizers.Adam(alpha=0.01),
    'AdamW': lambda: optimizers.AdamW(alpha=0.01, weight_decay_rate=0.01),
    'RMSprop': lambda: optimizers.RMSprop(lr=0.01),
    'AdaGrad': lambda: optimizers.AdaGrad(lr=0.01),
    'custom': _Normalized,
}

_HOOKS = {
    'none': lambda opt: None,
    'WeightDecay': lambda opt: opt.add_hook(optimizer_hooks.WeightDecay(1e-3)),
    # the global norm: every rank must see every gradient
    'GradientClipping': lambda opt: opt.add_hook(optimizer_hooks.GradientClipping(0.1)),
    'loss-scale': lambda opt: opt.set_loss_scale(64.0),
    'rule-hook': lambda opt: opt.target[0].W.update_rule.add_hook(
        optimizer_hooks.GradientHardClipping(-0.01, 0.01)
    ),
}


@pytest.fixture
def shared(comm2):
    if not comm2.shares_node_memory():
        pytest.skip('the ranks are not all on one node')
    return comm2


def _mlp():
    numpy.random.seed(3)
    return chainerlite.Sequential(
        links.Linear(40, 170), functions.relu, links.Linear(170, 9)
    )


def _train(comm, optimizer, setup, steps=4):
    model = _mlp()
    opt = chainerlite.chainermn.create_multi_node_optimizer(optimizer, comm)
    opt.setup(model)
    setup(opt)
    opt.update()  # the broadcast
    rng = numpy.random.RandomState(comm.rank)
    for _ in range(steps):
        x = rng.randn(6, 40).astype(numpy.float32)
        t = rng.randint(0, 9, 6).astype(numpy.int32)
        opt.update(lambda: functions.softmax_cross_entropy(model(x), t))
    return model, opt


def _snapshot(model, opt):
    """Everything an update leaves: bytes of parameters and states, counts."""
    out = [('t', opt.t)]
    for name, p in sorted(model.namedparams()):
        rule = p.update_rule
        out.append((name, p.array.tobytes(), rule.t))
        for key in sorted(rule.state or {}):
            out.append((name + '/' + key, rule.state[key].tobytes()))
    return out


def _whole(monkeypatch):
    monkeypatch.setattr(_sharded_update, 'applies', lambda actual, comm: False)


@pytest.mark.parametrize('hook', sorted(_HOOKS))
@pytest.mark.parametrize('name', sorted(_OPTIMIZERS))
def test_bitwise_every_rank_updating_everything(shared, monkeypatch, name, hook):
    sharded = _snapshot(*_train(shared, _OPTIMIZERS[name](), _HOOKS[hook]))
    with monkeypatch.context() as m:
        _whole(m)
        whole = _snapshot(*_train(shared, _OPTIMIZERS[name](), _HOOKS[hook]))
    assert sharded == whole
    for theirs in shared.allgather_obj(sharded):
        assert theirs == sharded


def test_each_rule_runs_on_one_rank(shared):
    calls = []

    def setup(opt):
        for name, param in sorted(opt.target.namedparams()):
            param.update_rule.add_hook(
                lambda rule, param, name=name: calls.append(name), name='count'
            )

    _train(shared, optimizers.MomentumSGD(), setup, steps=3)
    names = sorted(n for n, _ in _mlp().namedparams())
    everyone = [n for theirs in shared.allgather_obj(calls) for n in theirs]
    # the first update creates the states on every rank, the others share
    assert sorted(everyone) == sorted(names * (shared.size + 2))
    assert 0 < len(calls) < len(names) * 3


def test_post_hooks_see_every_new_parameter(shared, monkeypatch):
    seen = []

    def setup(opt):
        def record(optimizer):
            seen.append(
                [p.array.copy() for _, p in sorted(optimizer.target.namedparams())]
            )

        opt.add_hook(record, name='record', timing='post')

    _train(shared, optimizers.Adam(), setup)
    sharded = list(seen)
    seen.clear()
    _whole(monkeypatch)
    _train(shared, optimizers.Adam(), setup)
    for a, b in zip(sharded, seen, strict=True):
        for x, y in zip(a, b, strict=True):
            assert x.tobytes() == y.tobytes()


def test_disabled_rules_run_on_every_rank(shared, monkeypatch):
    def setup(opt):
        opt.target[2].b.update_rule.enabled = False

    sharded = _snapshot(*_train(shared, optimizers.Adam(), setup))
    _whole(monkeypatch)
    assert sharded == _snapshot(*_train(shared, optimizers.Adam(), setup))


def test_which_parameters_are_shared_out():
    opt = optimizers.Adam()
    model = opt.setup(_mlp()).target
    params = [p for _, p in sorted(model.namedparams())]
    # no state yet: the first update runs whole, creating the states
    assert _sharded_update._owners(params, 2) == [None] * 4
    model.cleargrads()
    for p in params:
        p.grad = numpy.ones_like(p.array)
    opt.update()
    # the largest first, each to the rank with the fewest elements so far:
    # 0/W (6800) to rank 0, then 1/W (1530), 0/b (170) and 1/b (9) to rank 1
    names = [name for name, _ in sorted(model.namedparams())]
    assert names == ['/0/W', '/0/b', '/1/W', '/1/b']
    assert _sharded_update._owners(params, 2) == [0, 1, 1, 1]
    params[0].array = params[0].array.astype(numpy.float16)  # an fp32 copy maybe
    params[1].update_rule.enabled = False
    assert _sharded_update._owners(params, 2)[:2] == [None, None]


@pytest.mark.filterwarnings('ignore:overflow:RuntimeWarning')
def test_dynamic_loss_scaling_skips_on_every_rank(shared, monkeypatch):
    def setup(opt):
        opt.loss_scaling(interval=2)
        opt.target[0].W.array[0, 0] = 1e38  # overflows at first

    sharded = _train(shared, optimizers.MomentumSGD(), setup)
    _whole(monkeypatch)
    whole = _train(shared, optimizers.MomentumSGD(), setup)
    assert sharded[1].loss_scale == whole[1].loss_scale
    assert _snapshot(*sharded) == _snapshot(*whole)


def test_not_shared_out(comm):
    opt = optimizers.SGD()
    opt.setup(_mlp())
    dummy = chainerlite.chainermn.create_communicator('dummy')
    assert not _sharded_update.applies(opt, dummy)
    if comm.size == 1:
        assert not _sharded_update.applies(opt, comm)

    class OwnUpdate(optimizers.SGD):
        def update(self, lossfun=None, *args, **kwds):
            super().update(lossfun, *args, **kwds)

    own = OwnUpdate()
    own.setup(_mlp())
    assert not _sharded_update.applies(own, comm)
