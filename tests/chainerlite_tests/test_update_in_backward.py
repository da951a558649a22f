"""GradientMethod.use_update_in_backward: each parameter is updated during
backward, as soon as its gradient is final, to the very values of the
ordinary update."""

import threading

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import _core
from chainerlite import optimizer_hooks
from chainerlite import optimizers
from chainerlite.link_hooks import ForgetHook
from chainerlite.testing import attr


class _Block(chainerlite.Chain):
    def __init__(self, n):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n, 2 * n)
            self.l2 = L.Linear(2 * n, n)

    def forward(self, x):
        return x + self.l2(F.relu(self.l1(x)))


class _Net(chainerlite.ChainList):
    """Residual blocks; ``forget``: each block under F.forget."""

    def __init__(self, n=6, depth=4, forget=False):
        super().__init__(*[_Block(n) for _ in range(depth)])
        self.forget = forget

    def forward(self, x):
        for block in self:
            x = F.forget(block, x) if self.forget else block(x)
        return F.sum(x * x)


_OPTIMIZERS = [
    lambda: optimizers.SGD(lr=0.01),
    lambda: optimizers.MomentumSGD(lr=0.01),
    lambda: optimizers.Adam(alpha=0.01),
]


def _train(make_model, make_optimizer, in_backward, steps=3, setup=None, data=None):
    numpy.random.seed(0)
    model = make_model()
    opt = make_optimizer()
    opt.setup(model)
    if setup is not None:
        setup(model, opt)
    if in_backward:
        opt.use_update_in_backward()
    x = numpy.random.randn(5, 6).astype(numpy.float32) if data is None else data
    for _ in range(steps):
        opt.update(model, x)
    return model, opt


def _assert_same(a, b):
    (model_a, opt_a), (model_b, opt_b) = a, b
    assert opt_a.t == opt_b.t
    named_b = dict(model_b.namedparams())
    for name, p in model_a.namedparams():
        q = named_b[name]
        assert p.array.tobytes() == q.array.tobytes(), name
        ra, rb = p.update_rule, q.update_rule
        assert ra.t == rb.t, name
        assert ra.hyperparam.get_dict() == rb.hyperparam.get_dict(), name
        assert (ra.state is None) == (rb.state is None), name
        for key, value in (ra.state or {}).items():
            assert value.tobytes() == rb.state[key].tobytes(), (name, key)


def _both(make_model, make_optimizer, **kwargs):
    ordinary = _train(make_model, make_optimizer, False, **kwargs)
    during = _train(make_model, make_optimizer, True, **kwargs)
    _assert_same(ordinary, during)
    return during


def _sgd_in_backward(model):
    opt = optimizers.SGD()
    opt.setup(model)
    opt.use_update_in_backward()
    return opt


@pytest.mark.parametrize('make_optimizer', _OPTIMIZERS)
@pytest.mark.parametrize('forget', [False, True])
@pytest.mark.parametrize('retain_graph', [True, False])
def test_same_parameters_and_states(make_optimizer, forget, retain_graph):
    with chainerlite.using_config('retain_graph', retain_graph):
        model, _ = _both(lambda: _Net(forget=forget), make_optimizer)
    assert all(p.grad is None for p in model.params())


@attr.gpu
@pytest.mark.parametrize('make_optimizer', _OPTIMIZERS[1:])
def test_same_parameters_on_the_gpu(make_optimizer):
    # against the ordinary update's multi-tensor launches, which give the
    # per-parameter update's bits
    def setup(model, opt):
        model.to_device('@cupy:0')
        opt.use_multi_tensor_update()

    x = numpy.random.RandomState(0).randn(5, 6).astype(numpy.float32)
    data = chainerlite.get_device('@cupy:0').send(x)
    _both(lambda: _Net(forget=True), make_optimizer, setup=setup, data=data)


@pytest.mark.parametrize('forget', [False, True])
def test_updates_during_backward_one_layer_at_a_time(forget):
    model = _Net(forget=forget)
    opt = optimizers.MomentumSGD()
    opt.setup(model)
    opt.use_update_in_backward()
    names = {id(p): n for n, p in model.namedparams()}
    seen = []

    def record(rule, param):
        held = sorted(names[id(p)] for p in model.params() if p.grad is not None)
        seen.append((names[id(param)], held))

    for p in model.params():
        p.update_rule.add_hook(record, name='record', timing='pre')
    opt.update(model, numpy.ones((2, 6), numpy.float32))
    # the last block first, each parameter alone holding its gradient
    assert [name for name, _ in seen] == [
        '/{}/{}/{}'.format(b, layer, p)
        for b in (3, 2, 1, 0)
        for layer in ('l2', 'l1')
        for p in ('W', 'b')
    ]
    assert all(held == [name] for name, held in seen)
    assert opt.t == 1


def test_per_parameter_optimizer_hooks_and_rule_hooks():
    def noise(xp, shape, dtype, hook, rule):
        return xp.full(shape, 0.001 * (rule.t + 1), dtype)

    def setup(model, opt):
        opt.add_hook(optimizer_hooks.WeightDecay(0.01))
        opt.add_hook(optimizer_hooks.Lasso(0.001))
        opt.add_hook(optimizer_hooks.GradientHardClipping(-0.5, 0.5))
        opt.add_hook(optimizer_hooks.GradientNoise(0.1, noise_func=noise))
        opt.add_hook(optimizer_hooks.GradientLARS(threshold=0.1, weight_decay=0.01))
        opt.add_hook(optimizer_hooks.WeightDecay(0.02), name='late', timing='post')
        for p in model.params():
            p.update_rule.add_hook(
                optimizer_hooks.GradientHardClipping(-0.2, 0.2), name='clip'
            )
            p.update_rule.hyperparam.lr = 0.05
        model[1].l1.W.update_rule.enabled = False

    for forget in (False, True):
        _both(
            lambda: _Net(forget=forget), lambda: optimizers.MomentumSGD(), setup=setup
        )


class _Sum(object):
    """An optimizer hook of one's own that reads every gradient."""

    name = 'Sum'
    call_for_each_param = False
    timing = 'pre'

    def __call__(self, opt):
        pass


@pytest.mark.parametrize(
    'hook, name',
    [
        (optimizer_hooks.GradientClipping(1.0), 'GradientClipping'),
        (_Sum(), 'Sum'),
        # a per-parameter hook of one's own is not known to act alone
        (lambda rule, param: None, '<lambda>'),
    ],
)
def test_refuses_hooks_needing_every_gradient(hook, name):
    model = _Net()
    opt = optimizers.SGD()
    opt.setup(model)
    opt.add_hook(hook)
    with pytest.raises(RuntimeError, match=repr(name)):
        opt.use_update_in_backward()
    assert not opt._update_in_backward
    # a hook added once it is on: update refuses before anything runs
    opt.remove_hook(name)
    opt.use_update_in_backward()
    opt.add_hook(hook)
    before = [p.array.copy() for p in model.params()]
    called = []
    with pytest.raises(RuntimeError, match=repr(name)):
        opt.update(lambda: called.append(1) or F.sum(model[0](numpy.ones((1, 6)))))
    assert called == [] and opt.t == 0
    assert all((p.array == b).all() for p, b in zip(model.params(), before))
    assert all(p.update_rule.state is None for p in model.params())
    assert _core.recording_ready_grads() is None


def test_refuses_dynamic_loss_scaling():
    model = _Net()
    opt = optimizers.SGD()
    opt.setup(model)
    opt.loss_scaling()
    with pytest.raises(RuntimeError, match='dynamic loss scaling'):
        opt.use_update_in_backward()


def test_static_loss_scale():
    def setup(model, opt):
        opt.set_loss_scale(128.0)

    for forget in (False, True):
        _both(lambda: _Net(forget=forget), lambda: optimizers.Adam(), setup=setup)


@pytest.mark.filterwarnings('ignore::DeprecationWarning')
def test_zerograds():
    def setup(model, opt):
        opt.use_cleargrads(False)

    _both(lambda: _Net(), lambda: optimizers.MomentumSGD(), setup=setup)


class _Shared(chainerlite.Chain):
    """One linear used twice, a parameter read twice by one node, a link
    under two names, one link unused, and a link shared by two forgets."""

    def __init__(self, forget):
        super().__init__()
        self.forget = forget
        with self.init_scope():
            self.a = L.Linear(6, 6)
            self.b = L.Linear(6, 6)
            self.alias = self.b
            self.unused = L.Linear(6, 6)
            self.sq = chainerlite.Parameter(numpy.eye(6, dtype=numpy.float32) * 0.5)

    def forward(self, x):
        def block(h):
            return F.tanh(self.b(h))

        h = self.a(x)
        h = F.forget(block, h) if self.forget else block(h)
        h = F.matmul(h, F.matmul(self.sq, self.sq))
        h = F.forget(block, h) if self.forget else block(h)
        return F.sum(self.a(h) ** 2)


@pytest.mark.parametrize('forget', [False, True])
@pytest.mark.parametrize('make_optimizer', _OPTIMIZERS)
def test_shared_parameters(forget, make_optimizer):
    model, _ = _both(lambda: _Shared(forget), make_optimizer)
    # the unused link was updated too (with zero gradients)
    assert model.unused.W.update_rule.t == 3


def test_nested_forget_and_plan_hooks():
    class Nested(_Net):
        def forward(self, x):
            for i in (0, 2):

                def two(h, i=i):
                    return self[i + 1](F.forget(self[i], h))

                x = F.forget(two, x)
            return F.sum(x * x)

    _both(lambda: Nested(), lambda: optimizers.MomentumSGD())

    def hooked(model, opt):
        for block in model:
            block.add_hook(ForgetHook())

    _both(lambda: _Net(), lambda: optimizers.Adam(), setup=hooked)


@pytest.mark.parametrize('retain_graph', [True, False])
def test_forget_keeping_and_chained(retain_graph):
    # the kept nodes of the forward call rejoin the recomputed graph
    from chainerlite.functions.connection.linear import LinearFunction

    class Kept(_Net):
        def forward(self, x):
            for i, block in enumerate(self):
                x = F.forget(block, x, keep=LinearFunction, chain=i % 2 == 1)
            return F.sum(x * x)

    with chainerlite.using_config('retain_graph', retain_graph):
        _both(Kept, lambda: optimizers.Adam())


def test_parameter_given_to_forget_and_read_by_its_function():
    # counted twice, taken off once: the parameter waits for the end
    class M(_Net):
        def forward(self, x):
            w = self[0].l1.W

            def f(h, w_arg):
                return F.linear(h, w_arg)[:, :6] + F.linear(h, w)[:, 6:]

            return F.sum(F.forget(f, x, w) ** 2) + super().forward(x)

    _both(lambda: M(), lambda: optimizers.MomentumSGD())


def test_a_read_the_count_missed_raises():
    class M(_Net):
        def forward(self, x):
            w = self[3].l1.W

            def f(h):
                if chainerlite.config.in_recomputing:
                    return h + F.sum(w) * 0
                return h + 0

            return F.sum(F.linear(F.forget(f, x), w))

    model = M()
    opt = _sgd_in_backward(model)
    with pytest.raises(RuntimeError, match='already updated'):
        opt.update(model, numpy.ones((2, 6), numpy.float32))
    assert _core.recording_ready_grads() is None


def test_uninitialized_parameter_runs_the_ordinary_step():
    # the first step initializes l.W in the ordinary way, the next ones not
    class Lazy(chainerlite.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(None, 6)
                self.m = L.Linear(6, 6)

        def forward(self, x):
            return F.sum(self.m(F.forget(self.l, x)) ** 2)

    _both(Lazy, lambda: optimizers.MomentumSGD())


def test_without_lossfun_is_the_ordinary_update():
    model = _Net()
    opt = _sgd_in_backward(model)
    model.cleargrads()
    model(numpy.ones((2, 6), numpy.float32)).backward()
    opt.update()
    assert all(p.grad is not None for p in model.params())
    assert opt.t == 1


def test_failing_lossfun_leaves_nothing_set():
    model = _Net()
    opt = _sgd_in_backward(model)

    def lossfun():
        assert _core.recording_ready_grads() is not None
        raise ValueError('boom')

    with pytest.raises(ValueError, match='boom'):
        opt.update(lossfun)
    assert _core.recording_ready_grads() is None
    assert opt.t == 0


def test_turned_off():
    model = _Net()
    opt = _sgd_in_backward(model)
    opt.use_update_in_backward(False)
    opt.update(model, numpy.ones((2, 6), numpy.float32))
    assert all(p.grad is not None for p in model.params())


def test_threads_each_with_their_own_step():
    # models made here (initializers draw from numpy.random), trained at once
    data = numpy.random.RandomState(1).randn(5, 6).astype(numpy.float32)
    expected = _train(lambda: _Net(forget=True), optimizers.Adam, False, data=data)
    made = [
        _train(lambda: _Net(forget=i % 2 == 0), optimizers.Adam, True, 0, data=data)
        for i in range(4)
    ]
    errors = []

    def work(model, opt):
        try:
            for _ in range(3):
                opt.update(model, data)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=pair) for pair in made]
    for t in threads:
        t.start()
    # a plain backward on this thread meanwhile is not touched
    other = _Net()
    other(data).backward()
    for t in threads:
        t.join()
    assert not errors
    assert all(p.grad is not None for p in other.params())
    for result in made:
        _assert_same(expected, result)
