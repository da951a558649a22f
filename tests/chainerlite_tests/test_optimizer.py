import copy
import pickle
import threading
import time
import warnings

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import optimizer
from chainerlite import optimizers


def _link(**arrays):
    link = chainerlite.Link()
    with link.init_scope():
        for name, array in arrays.items():
            setattr(link, name, chainerlite.Parameter(numpy.array(array)))
    return link


class _RecordingRule(optimizer.UpdateRule):
    """Rule that subtracts the gradient and records what it saw."""

    def __init__(self, parent_hyperparam=None):
        super().__init__(parent_hyperparam)
        self.log = []

    def init_state(self, param):
        self.log.append('init_state')
        self.state['n'] = 0

    def update_core_cpu(self, param):
        if param.grad is None:  # Chainer calls a rule for such a parameter too
            self.log.append('no grad')
            return
        self.log.append(('update', param.grad.copy()))
        self.state['n'] += 1
        array = param.array
        array -= param.grad


class _RecordingMethod(optimizer.GradientMethod):
    def create_update_rule(self):
        return _RecordingRule(self.hyperparam)


# -- Hyperparameter -----------------------------------------------------------


def test_hyperparameter_lookup_through_parents():
    root = optimizer.Hyperparameter()
    root.lr = 0.1
    root.momentum = 0.9
    mid = optimizer.Hyperparameter(root)
    mid.momentum = 0.5
    leaf = optimizer.Hyperparameter(mid)
    assert (leaf.lr, leaf.momentum) == (0.1, 0.5)
    assert leaf.parent is mid and mid.parent is root and root.parent is None
    root.lr = 0.2
    assert leaf.lr == 0.2
    leaf.lr = 0.3
    assert (leaf.lr, mid.lr, root.lr) == (0.3, 0.2, 0.2)
    assert leaf.get_dict() == {'lr': 0.3, 'momentum': 0.5}
    assert root.get_dict() == {'lr': 0.2, 'momentum': 0.9}
    assert repr(leaf) == 'Hyperparameter(lr=0.3, momentum=0.5)'


def test_hyperparameter_missing_entry():
    hp = optimizer.Hyperparameter(optimizer.Hyperparameter())
    with pytest.raises(AttributeError, match='lr'):
        hp.lr
    assert getattr(hp, 'lr', None) is None


def test_hyperparameter_copy_and_pickle():
    root = optimizer.Hyperparameter()
    root.lr = 0.1
    leaf = optimizer.Hyperparameter(root)
    leaf.eps = 1e-3
    for clone in (
        copy.copy(leaf),
        copy.deepcopy(leaf),
        pickle.loads(pickle.dumps(leaf)),
    ):
        assert (clone.lr, clone.eps) == (0.1, 1e-3)


def test_hyperparameter_proxy():
    opt = optimizers.SGD(lr=0.3)
    assert isinstance(optimizers.SGD.lr, optimizer.HyperparameterProxy)
    assert opt.lr == 0.3
    opt.lr = 0.7
    assert opt.hyperparam.lr == 0.7


# -- UpdateRule -----------------------------------------------------------


def test_update_rule_update_sequence():
    param = chainerlite.Parameter(numpy.array([1.0, 2.0]))
    rule = _RecordingRule()
    calls = []
    rule.add_hook(lambda r, p: calls.append(('pre', p.array.copy())), name='a')
    rule.add_hook(
        lambda r, p: calls.append(('post', p.array.copy())), name='b', timing='post'
    )
    assert rule.state is None and rule.t == 0
    param.grad = numpy.array([0.5, 0.5])
    rule.update(param)
    rule.update(param)
    assert rule.t == 2
    assert rule.log[0] == 'init_state' and len(rule.log) == 3
    assert rule.state == {'n': 2}
    numpy.testing.assert_array_equal(param.array, [0.0, 1.0])
    assert [c[0] for c in calls] == ['pre', 'post', 'pre', 'post']
    numpy.testing.assert_array_equal(calls[0][1], [1.0, 2.0])
    numpy.testing.assert_array_equal(calls[1][1], [0.5, 1.5])


def test_update_rule_disabled_or_without_grad():
    # as in Chainer, an enabled rule counts every call, makes its states for
    # an initialised parameter and calls update_core_cpu even without a
    # gradient or an array; a disabled rule does nothing
    param = chainerlite.Parameter(numpy.array([1.0]))
    rule = _RecordingRule()
    rule.update(param)  # no gradient yet
    assert rule.t == 1 and rule.log == ['init_state', 'no grad']
    assert rule.state == {'n': 0}
    param.grad = numpy.array([1.0])
    rule.enabled = False
    rule.update(param)
    assert rule.t == 1 and rule.log == ['init_state', 'no grad']
    numpy.testing.assert_array_equal(param.array, [1.0])
    uninitialized = chainerlite.Parameter()
    uninitialized.cleargrad()
    rule.enabled = True
    rule.update(uninitialized)
    assert rule.t == 2 and uninitialized.array is None
    assert rule.log == ['init_state', 'no grad', 'no grad']


def test_builtin_rules_called_without_grad_do_nothing():
    # a subclass that calls the built-in update_core_cpu for a parameter
    # without a gradient leaves it as it is, as Chainer's rules do
    seen = []

    class Rule(chainerlite.optimizers.sgd.SGDRule):
        def update_core_cpu(self, param):
            seen.append(param.grad is None)
            super().update_core_cpu(param)

    param = chainerlite.Parameter(numpy.ones(2, numpy.float32))
    Rule(lr=0.1).update(param)
    assert seen == [True]
    numpy.testing.assert_array_equal(param.array, [1.0, 1.0])


def test_update_rule_divides_loss_scaled_grad_once():
    param = chainerlite.Parameter(numpy.array([3.0]))
    F.sum(param * 2.0).backward(loss_scale=8.0)
    numpy.testing.assert_array_equal(param.grad, [16.0])
    rule = _RecordingRule()
    seen = []
    rule.add_hook(lambda r, p: seen.append(p.grad.copy()), name='h')
    rule.update(param)
    numpy.testing.assert_array_equal(seen[0], [2.0])
    numpy.testing.assert_array_equal(param.array, [1.0])
    assert param._loss_scale is None
    rule.update(param)
    numpy.testing.assert_array_equal(param.array, [-1.0])


def test_update_rule_hook_registration_errors():
    rule = _RecordingRule()
    with pytest.raises(TypeError):
        rule.add_hook(object())
    with pytest.raises(ValueError, match='timing'):
        rule.add_hook(lambda r, p: None, name='x', timing='bad')

    def my_hook(rule, param):
        pass

    rule.add_hook(my_hook)
    with pytest.raises(KeyError, match='already exists'):
        rule.add_hook(my_hook, timing='post')
    rule.remove_hook('my_hook')
    rule.add_hook(my_hook, timing='post')
    rule.remove_hook('my_hook')
    with pytest.raises(KeyError):
        rule.remove_hook('my_hook')


def test_update_rule_hook_name_attribute():
    class Hook:
        name = 'named'

        def __call__(self, rule, param):
            pass

    rule = _RecordingRule()
    rule.add_hook(Hook())
    with pytest.raises(KeyError, match='named'):
        rule.add_hook(Hook())


def test_update_rule_hook_timing_auto_as_chainer():
    # Chainer 7.8.1: 'auto' (the default) reads hook.timing, 'pre' without
    # it; any other hook.timing runs after the update.
    def hook(timing):
        class Hook:
            def __call__(self, rule, param):
                pass

        if timing is not None:
            Hook.timing = timing
        return Hook()

    rule = _RecordingRule()
    rule.add_hook(hook('post'), name='post')
    rule.add_hook(hook(None), name='none')
    rule.add_hook(hook('bogus'), name='bogus')
    rule.add_hook(hook('post'), name='forced', timing='pre')
    assert list(rule._pre_update_hooks) == ['none', 'forced']
    assert list(rule._post_update_hooks) == ['post', 'bogus']


def test_update_rule_base_is_abstract():
    param = chainerlite.Parameter(numpy.array([1.0]))
    param.grad = numpy.array([1.0])
    with pytest.raises(NotImplementedError):
        optimizer.UpdateRule().update(param)


def test_update_rule_fp32_update_keeps_small_steps():
    def run(fp32):
        param = chainerlite.Parameter(numpy.ones(2, numpy.float16))
        rule = optimizers.sgd.SGDRule(lr=1e-4)
        rule.use_fp32_update(fp32)
        for _ in range(20):
            param.grad = numpy.ones(2, numpy.float16)
            rule.update(param)
        return param

    plain = run(False)
    numpy.testing.assert_array_equal(plain.array, [1.0, 1.0])
    master = run(True)
    assert master.dtype == numpy.float16
    numpy.testing.assert_allclose(master.array, [0.998, 0.998], atol=2e-4)
    assert master.grad is not None


# -- Optimizer ------------------------------------------------------------


def test_setup_returns_self_and_resets_counters():
    opt = optimizers.SGD()
    link = _link(w=[1.0])
    assert opt.setup(link) is opt
    assert opt.target is link
    opt.t, opt.epoch = 5, 2
    opt.setup(link)
    assert (opt.t, opt.epoch) == (0, 0)
    with pytest.raises(TypeError, match='link'):
        opt.setup(numpy.zeros(2))


def test_base_optimizer_update_is_abstract():
    with pytest.raises(NotImplementedError):
        optimizer.Optimizer().setup(_link()).update()


def test_new_epoch():
    opt = optimizers.SGD().setup(_link(w=[1.0]))
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError, match='auto=True'):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError, match='duplicated'):
        opt.new_epoch()


def test_add_hook_errors():
    with pytest.raises(RuntimeError, match='setup'):
        optimizers.SGD().add_hook(lambda opt: None, name='h')
    opt = optimizers.SGD().setup(_link(w=[1.0]))
    with pytest.raises(TypeError):
        opt.add_hook(3, name='h')
    with pytest.raises(ValueError, match='timing'):
        opt.add_hook(lambda opt: None, name='h', timing='later')
    opt.add_hook(lambda opt: None, name='h')
    with pytest.raises(KeyError, match='already exists'):
        opt.add_hook(lambda opt: None, name='h', timing='post')
    opt.remove_hook('h')
    with pytest.raises(KeyError):
        opt.remove_hook('h')
    with pytest.raises(ValueError, match='timing'):
        opt.call_hooks('middle')


def test_add_hook_names_a_function_by_its_name():
    opt = optimizers.SGD().setup(_link(w=[1.0]))
    log = []

    def record(opt):
        log.append('record')

    opt.add_hook(record)
    with pytest.raises(KeyError, match='record'):
        opt.add_hook(record)

    class Nameless:
        def __call__(self, opt):
            pass

    with pytest.raises(ValueError, match='name'):
        opt.add_hook(Nameless())
    opt.call_hooks()
    assert log == ['record']
    opt.remove_hook('record')
    opt.call_hooks()
    assert log == ['record']


def test_hook_timing_attribute_neither_pre_nor_post():
    # an optimizer warns and runs such a hook before the update; an update
    # rule runs it after (as Chainer 7.8.1's do)
    class Odd:
        name = 'odd'
        timing = 'sometimes'

        def __init__(self, log):
            self.log = log

        def __call__(self, *args):
            self.log.append(len(args))

    link = _link(w=[1.0])
    opt = optimizers.SGD().setup(link)
    log = []
    with pytest.warns(UserWarning, match='sometimes'):
        opt.add_hook(Odd(log))
    opt.call_hooks('post')
    assert log == []
    opt.call_hooks('pre')
    assert log == [1]
    rule = link.w.update_rule
    rule.add_hook(Odd(log))
    assert list(rule._post_update_hooks) == ['odd']


def test_hook_methods_before_setup_raise_runtime_error():
    opt = optimizers.SGD()
    for call in (
        lambda: opt.add_hook(3),
        lambda: opt.remove_hook('h'),
        lambda: opt.call_hooks(),
    ):
        with pytest.raises(RuntimeError, match='setup'):
            call()


def test_a_hook_that_clears_the_gradients_leaves_zeros():
    # Chainer reallocates cleared gradients after each hook, so the next
    # hook and the update see zeros, and zeros remain after the update
    link = _link(w=[4.0])
    opt = optimizers.SGD(lr=1.0).setup(link)
    seen = []
    opt.add_hook(lambda o: o.target.cleargrads(), name='clear')
    opt.add_hook(lambda o: seen.append(link.w.grad.copy()), name='look')
    opt.add_hook(lambda o: o.target.cleargrads(), name='after', timing='post')
    link.w.grad = numpy.array([1.0])
    opt.update()
    assert [g.tolist() for g in seen] == [[0.0]]
    assert link.w.array.tolist() == [4.0]
    assert link.w.grad.tolist() == [0.0]


def test_hook_timing_and_arguments():
    link = _link(w=[4.0], v=[2.0])
    opt = optimizers.SGD(lr=1.0).setup(link)
    log = []

    class Global:
        name = 'global'
        timing = 'post'

        def __call__(self, opt):
            log.append(('global', opt.t, float(link.w.array[0])))

    class PerParam:
        name = 'per_param'
        call_for_each_param = True

        def __call__(self, rule, param):
            assert param.update_rule is rule
            log.append(('per_param', param.name, float(param.array[0])))

    def plain(opt):
        log.append(('plain', opt.t, float(link.w.array[0])))

    opt.add_hook(Global())  # timing from its attribute: 'post'
    opt.add_hook(PerParam())  # no timing attribute: 'pre'
    opt.add_hook(plain, name='plain')
    link.w.grad = numpy.array([1.0])
    link.v.grad = numpy.array([1.0])
    opt.update()
    assert log == [
        ('per_param', 'v', 2.0),
        ('per_param', 'w', 4.0),
        ('plain', 0, 4.0),
        ('global', 1, 3.0),
    ]
    opt.remove_hook('global')
    opt.add_hook(Global(), timing='pre')
    log.clear()
    opt.update()
    assert log[-1] == ('global', 1, 3.0)


# -- GradientMethod -------------------------------------------------------


def test_setup_gives_each_param_a_rule():
    link = chainerlite.Chain()
    with link.init_scope():
        link.l1 = L.Linear(3, 2)
        link.l2 = L.Linear(2, 2)
    opt = optimizers.MomentumSGD().setup(link)
    rules = [p.update_rule for p in link.params()]
    assert len(rules) == 4 and len(set(map(id, rules))) == 4
    for rule in rules:
        assert isinstance(rule, optimizers.momentum_sgd.MomentumSGDRule)
        assert rule.hyperparam.parent is opt.hyperparam


def test_create_update_rule_is_abstract():
    with pytest.raises(NotImplementedError):
        optimizer.GradientMethod().setup(_link(w=[1.0]))


def test_update_with_lossfun_clears_grads_and_passes_arguments():
    link = _link(w=[1.0, 2.0])
    opt = optimizers.SGD(lr=0.5).setup(link)
    link.w.grad = numpy.array([100.0, 100.0])  # stale: must be cleared
    x = numpy.array([2.0, -4.0])

    def lossfun(x, scale):
        return F.sum(link.w * x) * scale

    opt.update(lossfun, x, scale=2.0)
    numpy.testing.assert_allclose(link.w.array, [1.0 - 2.0, 2.0 + 4.0])
    assert opt.t == 1


def test_update_with_loss_scale():
    def train(loss_scale):
        link = _link(w=[1.0, 2.0])
        opt = _RecordingMethod().setup(link)
        opt.set_loss_scale(loss_scale)
        seen = []
        opt.add_hook(lambda o: seen.append(link.w.grad.copy()), name='h')
        opt.update(lambda: F.sum(link.w * link.w))
        return link, seen[0]

    plain, plain_grad = train(None)
    scaled, scaled_grad = train(64.0)
    numpy.testing.assert_array_equal(scaled.w.array, plain.w.array)
    numpy.testing.assert_array_equal(plain.w.array, [-1.0, -2.0])
    # As in Chainer, optimizer hooks run before the rules unscale.
    numpy.testing.assert_array_equal(scaled_grad, 64.0 * plain_grad)
    assert scaled.w._loss_scale is None


def test_update_gives_zero_grads_to_params_without_one():
    link = _link(w=[1.0], v=[1.0])
    opt = optimizers.MomentumSGD(lr=0.1, momentum=0.5).setup(link)
    link.w.grad = numpy.array([1.0])
    link.v.grad = numpy.array([1.0])
    opt.update()
    link.cleargrads()
    link.w.grad = numpy.array([1.0])
    opt.update()  # v has no grad: its velocity still moves it
    numpy.testing.assert_array_equal(link.v.grad, [0.0])
    numpy.testing.assert_allclose(link.v.array, [1.0 - 0.1 - 0.05])
    numpy.testing.assert_allclose(link.w.array, [1.0 - 0.1 - 0.15])


def test_update_skips_uninitialized_params():
    link = chainerlite.Chain()
    with link.init_scope():
        link.fc = L.Linear(2)
    opt = optimizers.Adam().setup(link)
    # as in Chainer: the uninitialised W has no gradient to read yet
    with pytest.raises(RuntimeError, match='uninitialised'):
        opt.update()
    link.cleargrads()
    opt.update()
    # it is left alone, but its rule counts the update, as Chainer's does
    assert link.fc.W.array is None and link.fc.W.update_rule.t == 1
    assert link.fc.b.update_rule.t == 1


def test_per_parameter_hyperparameter_override():
    link = _link(w=[1.0], v=[1.0])
    opt = optimizers.SGD(lr=0.1).setup(link)
    link.v.update_rule.hyperparam.lr = 0.5
    for _ in range(2):
        link.w.grad = numpy.array([1.0])
        link.v.grad = numpy.array([1.0])
        opt.update()
    numpy.testing.assert_allclose(link.w.array, [0.8])
    numpy.testing.assert_allclose(link.v.array, [0.0])
    opt.lr = 0.2
    assert link.w.update_rule.hyperparam.lr == 0.2
    assert link.v.update_rule.hyperparam.lr == 0.5


def test_disabled_rule_freezes_param():
    link = _link(w=[1.0], v=[1.0])
    opt = optimizers.SGD(lr=0.1).setup(link)
    link.v.update_rule.enabled = False
    link.w.grad = numpy.array([1.0])
    link.v.grad = numpy.array([1.0])
    opt.update()
    numpy.testing.assert_allclose(link.w.array, [0.9])
    numpy.testing.assert_array_equal(link.v.array, [1.0])


def test_use_cleargrads_is_deprecated_and_false_uses_zerograds():
    link = _link(w=[1.0])
    opt = optimizers.SGD(lr=1.0).setup(link)
    with pytest.warns(DeprecationWarning, match='use_cleargrads'):
        opt.use_cleargrads(False)
    link.w.grad = numpy.array([5.0])
    with pytest.warns(DeprecationWarning, match='zerograd'):
        opt.update(lambda: F.sum(link.w * 2.0))
    numpy.testing.assert_array_equal(link.w.array, [-1.0])


def test_use_fp32_update_on_optimizer():
    link = _link(w=numpy.ones(2, numpy.float16))
    opt = optimizers.SGD(lr=1e-4).setup(link)
    opt.use_fp32_update()
    late = _link(w=numpy.ones(2, numpy.float16))
    opt2 = optimizers.SGD(lr=1e-4)
    opt2.use_fp32_update()
    opt2.setup(late)
    for _ in range(20):
        link.w.grad = numpy.ones(2, numpy.float16)
        late.w.grad = numpy.ones(2, numpy.float16)
        opt.update()
        opt2.update()
    numpy.testing.assert_allclose(link.w.array, [0.998, 0.998], atol=2e-4)
    numpy.testing.assert_allclose(late.w.array, [0.998, 0.998], atol=2e-4)


@pytest.mark.parametrize('kwargs', [{'interval': 0}, {'scale': -1}, {'scale': 0}])
def test_loss_scaling_rejects_bad_configs(kwargs):
    opt = optimizers.SGD()
    with pytest.raises(ValueError, match='loss_scaling'):
        opt.loss_scaling(**kwargs)


def test_static_loss_scaling_scales_backward_and_unscales_grads():
    link = L.Linear(2, 1, initialW=numpy.ones((1, 2)), nobias=True)
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.loss_scaling(scale=8.0)
    x = numpy.ones((1, 2), numpy.float32)
    opt.update(lambda: F.sum(link(x)))
    numpy.testing.assert_allclose(link.W.array, [[0.0, 0.0]])


def test_dynamic_loss_scaling_skips_overflow_and_adapts_scale():
    # Chainer's rule: doubled per update until a gradient first overflows;
    # an overflow halves it and leaves the parameters, though t counts the
    # update and the hooks run; then it grows by 2 ** (1 / interval)
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.zeros(2))
    opt = optimizers.SGD(lr=1.0).setup(link)
    seen = []
    opt.add_hook(lambda o: seen.append(o.t), name='pre')
    opt.loss_scaling(interval=2)
    assert opt._loss_scale == 1.0
    scales = []
    for g in ([1.0, 1.0], [1.0, 1.0], [numpy.inf, 1.0], [1.0, 1.0]):
        link.w.grad = numpy.array(g)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            opt.update()
        scales.append(opt._loss_scale)
    numpy.testing.assert_allclose(scales, [2.0, 4.0, 2.0, 2.0 * 2**0.5])
    assert opt.t == 4 and seen == [0, 1, 2, 3]
    numpy.testing.assert_allclose(link.w.array, [-3.0, -3.0])


def test_dynamic_loss_scale_stays_within_the_float16_range():
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.zeros(2))
    opt = optimizers.SGD().setup(link)
    opt.loss_scaling()
    for _ in range(20):
        link.w.grad = numpy.zeros(2)
        opt.update()
    assert opt._loss_scale == 65504


def test_hooks_are_reachable_from_the_optimizer_module_with_a_warning():
    # Chainer 7.8.1's old names are subclasses that warn when created
    from chainerlite import optimizer_hooks

    for name, args in (
        ('GradientClipping', (1.0,)),
        ('GradientHardClipping', (-1.0, 1.0)),
        ('GradientNoise', (0.1,)),
        ('Lasso', (0.1,)),
        ('WeightDecay', (0.1,)),
    ):
        old = getattr(optimizer, name)
        assert issubclass(old, getattr(optimizer_hooks, name))
        assert old.__name__ == name
        with pytest.deprecated_call(match='optimizer_hooks.' + name):
            hook = old(*args)
        assert hook.name == name


# -- ChainerX surface of update rules ----------------------------------------


def test_update_core_chainerx_runs_the_numpy_update():
    rule = _RecordingRule()
    param = chainerlite.Parameter(numpy.array([1.0, 2.0]))
    param.grad = numpy.array([0.5, 0.5])
    rule._state = {'n': 0}
    rule.update_core_chainerx(param)
    numpy.testing.assert_array_equal(param.array, [0.5, 1.5])
    assert rule.log[0][0] == 'update' and rule.state['n'] == 1


def test_built_in_rules_are_elementwise_and_the_base_is_not():
    assert optimizer.UpdateRule.is_elementwise is False
    assert _RecordingRule.is_elementwise is False
    link = _link(w=[1.0])
    for name in (
        'AdaDelta AdaGrad Adam AdaBound AMSGrad CorrectedMomentumSGD MSVAG '
        'MomentumSGD NesterovAG RMSprop RMSpropGraves SGD SMORMS3'
    ).split():
        opt = getattr(optimizers, name)()
        opt.setup(link)
        assert link.w.update_rule.is_elementwise is True, name


def _adam_after_one_step():
    model = L.Linear(3, 2)
    opt = optimizers.Adam()
    opt.setup(model)
    for p in model.params():
        p.grad = numpy.ones_like(p.array)
    opt.update()
    return model, opt


@pytest.mark.parametrize('bad_shape', [(5, 5), (1, 3), (3, 2)])
def test_new_state_of_the_wrong_shape_is_refused_at_load(tmp_path, bad_shape):
    # A rule with no state yet took any array and failed at the next
    # update; now the load fails (ValueError, as for a parameter of the
    # wrong shape) and assigns nothing
    _, opt = _adam_after_one_step()
    path = str(tmp_path / 'opt.npz')
    chainerlite.serializers.save_npz(path, opt)
    entries = dict(numpy.load(path))
    entries['W/v'] = numpy.zeros(bad_shape, numpy.float32)
    numpy.savez(path, **entries)
    model = L.Linear(3, 2)
    fresh = optimizers.Adam()
    fresh.setup(model)
    with pytest.raises(ValueError, match=r"shape mismatch for key 'W/v'.*\(2, 3\)"):
        chainerlite.serializers.load_npz(path, fresh)
    assert fresh.t == 0
    for p in model.params():
        assert p.update_rule.state is None and p.update_rule.t == 0


def test_new_state_of_the_right_shape_loads_and_updates(tmp_path):
    _, opt = _adam_after_one_step()
    path = str(tmp_path / 'opt.npz')
    chainerlite.serializers.save_npz(path, opt)
    model = L.Linear(3, 2)
    fresh = optimizers.Adam()
    fresh.setup(model)
    chainerlite.serializers.load_npz(path, fresh)
    assert fresh.t == 1 and model.W.update_rule.state['v'].shape == (2, 3)
    for p in model.params():
        p.grad = numpy.ones_like(p.array)
    fresh.update()
    assert fresh.t == 2


def test_trainer_snapshot_with_a_bad_state_loads_nothing(tmp_path):
    from chainerlite import iterators
    from chainerlite import training

    def make_trainer():
        model = L.Classifier(L.Linear(3, 2))
        opt = optimizers.Adam()
        opt.setup(model)
        data = [(numpy.ones(3, numpy.float32), numpy.int32(0))] * 4
        iterator = iterators.SerialIterator(data, 2)
        updater = training.updaters.StandardUpdater(iterator, opt)
        return model, training.Trainer(updater, (1, 'iteration'), out=str(tmp_path))

    _, trainer = make_trainer()
    trainer.run()
    path = str(tmp_path / 'snapshot.npz')
    chainerlite.serializers.save_npz(path, trainer)
    entries = dict(numpy.load(path))
    entries['updater/optimizer:main/predictor/W/m'] = numpy.zeros((4, 4), numpy.float32)
    numpy.savez(path, **entries)
    model, trainer = make_trainer()
    W = model.predictor.W.array.copy()
    with pytest.raises(ValueError, match='nothing was loaded'):
        chainerlite.serializers.load_npz(path, trainer)
    numpy.testing.assert_array_equal(model.predictor.W.array, W)
    assert trainer.updater.iteration == 0
    assert model.predictor.W.update_rule.state is None


class _SlowStateRule(optimizer.UpdateRule):
    # init_state pauses between its two entries, so that other threads
    # updating through the rule meanwhile would see half a state
    def __init__(self):
        super().__init__()
        self.inits = 0

    def init_state(self, param):
        self.inits += 1
        self.state['a'] = numpy.zeros_like(param.array)
        time.sleep(0.05)
        self.state['b'] = numpy.zeros_like(param.array)
        self.made_for = param.shape

    def update_core_cpu(self, param):
        self.state['a'] += 1
        self.state['b'] += 1


def test_state_is_created_once_when_threads_update_together():
    rule = _SlowStateRule()
    param = chainerlite.Parameter(numpy.zeros(3, numpy.float32))
    param.grad = numpy.ones(3, numpy.float32)
    barrier = threading.Barrier(4)
    errors = []

    def work():
        barrier.wait()
        try:
            rule.update(param)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert errors == []
    assert rule.inits == 1 and rule.made_for == (3,)
    assert sorted(rule.state) == ['a', 'b']
