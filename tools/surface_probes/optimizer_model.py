"""Optimizer's object model: setup, update with and without a loss
function, epochs, hooks and their names and timings, hyperparameters and
their proxies, update rules and the states that serialization carries."""

import warnings

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def _link(c, seed=0):
    numpy.random.seed(seed)
    return c.L.Linear(3, 2)


def _set_up(c, opt):
    """A fresh link and ``opt`` set up on it."""
    link = _link(c)
    opt.setup(link)
    return link, opt


def _drawn(c, n, **dtypes):
    """A link with a parameter of ``n`` uniform draws per keyword, of that
    dtype."""
    link = c.chainer.Link()
    with link.init_scope():
        for name, dtype in dtypes.items():
            setattr(link, name, c.chainer.Parameter(numpy.random.rand(n).astype(dtype)))
    return link


def _x():
    return numpy.arange(12, dtype=numpy.float32).reshape(4, 3) / 10


def _backward(c, link):
    link.cleargrads()
    c.F.sum(link(_x()) ** 2).backward()


def setup_cases(c):
    opt = c.O.SGD()
    link = _link(c)
    out = [opt.setup(link) is opt, opt.target is link]
    out.append(_try(lambda: c.O.SGD().setup(object())))
    out.append(_try(lambda: c.O.SGD().setup(numpy.zeros(2))))
    _backward(c, link)
    opt.update()
    opt.new_epoch()
    rule = link.W.update_rule
    out.append([opt.t, opt.epoch, rule.t])
    other = _link(c, 1)
    opt.setup(other)
    out.append([opt.t, opt.epoch, link.W.update_rule is rule, other.W.update_rule.t])
    opt.setup(link)
    out.append([link.W.update_rule is rule, link.W.update_rule.t])
    return out


def before_setup(c):
    opt = c.O.Adam()
    return [
        opt.target,
        opt.t,
        opt.epoch,
        _try(lambda: opt.update()),
        _try(lambda: opt.add_hook(lambda o: None)),
        _try(lambda: opt.remove_hook('x')),
        _try(lambda: opt.call_hooks()),
        _try(lambda: opt.serialize(c.chainer.serializers.DictionarySerializer())),
        opt.alpha,
        sorted(opt.hyperparam.get_dict()),
    ]


def lossfun_update(c):
    link, opt = _set_up(c, c.O.SGD(lr=0.1))
    seen = []

    def lossfun(x, scale=1):
        # the gradients are cleared after the loss is computed
        seen.append(None if link.W.grad is None else float(link.W.grad.sum()))
        return c.F.sum(link(x)) * scale

    link.cleargrads()
    link.W.grad = numpy.ones((2, 3), numpy.float32)
    opt.update(lossfun, _x(), scale=2)
    opt.update(lossfun, _x())
    return [seen, opt.t, link.W.array, link.W.grad, link.b.grad]


def update_without_grads(c):
    link, opt = _set_up(c, c.O.MomentumSGD())
    link.cleargrads()
    opt.update()
    out = [link.W.grad, link.b.grad, link.W.array, opt.t, link.W.update_rule.t]
    out.append(dict(link.W.update_rule.state))
    fresh = _link(c)
    opt.setup(fresh)
    out.append(_try(lambda: opt.update()))
    return out


def new_epoch_cases(c):
    opt = c.O.SGD()
    opt.setup(_link(c))
    opt.new_epoch()
    out = [opt.epoch, _try(lambda: opt.new_epoch(auto=True))]
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    out.append(_try(lambda: opt.new_epoch()))
    out.append(opt.epoch)
    return out


def _called(opt, log):
    """The hooks each timing calls, by the labels they log."""
    out = []
    for timing in ('pre', 'post'):
        del log[:]
        opt.call_hooks(timing)
        out.append(list(log))
    return out


def hook_names_and_errors(c):
    opt = c.O.SGD()
    opt.setup(_link(c))
    log = []

    def named(o):
        log.append('named')

    class Callable:
        def __call__(self, o):
            log.append(type(self).__name__)

    class WithName(Callable):
        name = 'custom'

    opt.add_hook(named)
    opt.add_hook(lambda o: log.append('lambda'))
    opt.add_hook(WithName())
    opt.add_hook(named, name='again', timing='post')
    out = [
        _called(opt, log),
        _try(lambda: opt.add_hook(named)),
        _try(lambda: opt.add_hook(named, name='again')),
        _try(lambda: opt.add_hook(lambda o: None)),
        _try(lambda: opt.add_hook(Callable())),
        _try(lambda: opt.add_hook(3, name='three')),
        _try(lambda: opt.add_hook(named, name='t', timing='during')),
        _try(lambda: opt.remove_hook('missing')),
    ]
    opt.remove_hook('again')
    opt.remove_hook('named')
    opt.remove_hook('<lambda>')
    out.append(_called(opt, log))
    return out


def hook_timing_attribute(c):
    opt = c.O.SGD()
    opt.setup(_link(c))
    log = []

    class Post:
        timing = 'post'

        def __call__(self, *args):
            log.append(type(self).__name__)

    class Odd(Post):
        timing = 'sometimes'

    opt.add_hook(Post(), name='post')
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        opt.add_hook(Odd(), name='odd')
    out = [_called(opt, log), [x.category.__name__ for x in w]]
    link = _link(c)
    opt.setup(link)
    rule = link.W.update_rule
    # an update rule takes a timing other than 'pre' as 'post'
    rule.add_hook(lambda r, p: log.append('rule-odd'), name='odd', timing='auto')
    rule.add_hook(Odd(), name='odd2')
    del log[:]
    _backward(c, link)
    opt.update()
    out.append(list(log))
    return out


def hook_order(c):
    link, opt = _set_up(c, c.O.SGD(lr=0.5))
    log = []

    def pre(o):
        log.append(('pre', o.t, float(link.W.array.sum())))

    def post(o):
        log.append(('post', o.t, float(link.W.array.sum())))

    class PerParam:
        call_for_each_param = True
        name = 'each'

        def __call__(self, rule, param):
            log.append(('each', param.name, rule.t, type(rule).__name__))

    opt.add_hook(post, timing='post')
    opt.add_hook(pre)
    opt.add_hook(PerParam())
    _backward(c, link)
    opt.update()
    opt.call_hooks('post')
    out = [log, _try(lambda: opt.call_hooks('never'))]
    return out


def rule_hooks(c):
    link, opt = _set_up(c, c.O.SGD(lr=0.5))
    log = []
    rule = link.W.update_rule

    def pre(r, p):
        log.append(('pre', r.t, float(p.grad.sum()), float(p.array.sum())))

    def post(r, p):
        log.append(('post', r.t, float(p.array.sum())))

    rule.add_hook(pre)
    rule.add_hook(post, timing='post')
    out = [_try(lambda: rule.add_hook(pre))]
    _backward(c, link)
    opt.update()
    rule.remove_hook('post')
    out.append(_try(lambda: rule.remove_hook('post')))
    _backward(c, link)
    opt.update()
    out.append(log)
    return out


def hooks_without_lr(c):
    out = []
    for name in ('AdaDelta', 'Adam', 'SGD'):
        link = _link(c)
        opt = getattr(c.O, name)()
        opt.setup(link)
        opt.add_hook(c.chainer.optimizer_hooks.WeightDecay(0.1))
        opt.add_hook(c.chainer.optimizer_hooks.GradientLARS(threshold=0.1))
        for _ in range(2):
            _backward(c, link)
            opt.update()
        out.append([link.W.array, link.b.array])
    return out


def _hook_steps(c, hook, n=3, opt='SGD'):
    link = _link(c)
    o = getattr(c.O, opt)()
    o.setup(link)
    o.add_hook(hook)
    grads = []
    for _ in range(n):
        _backward(c, link)
        o.update()
        grads.append(link.W.grad.copy())
    return [link.W.array, link.b.array, grads]


def hook_weight_decay(c):
    return _hook_steps(c, c.chainer.optimizer_hooks.WeightDecay(0.05))


def hook_lasso(c):
    return _hook_steps(c, c.chainer.optimizer_hooks.Lasso(0.05), opt='MomentumSGD')


def hook_gradient_clipping(c):
    return [
        _hook_steps(c, c.chainer.optimizer_hooks.GradientClipping(1.0)),
        _hook_steps(c, c.chainer.optimizer_hooks.GradientClipping(1e3)),
    ]


def hook_gradient_hard_clipping(c):
    return _hook_steps(
        c, c.chainer.optimizer_hooks.GradientHardClipping(-0.5, 0.25), opt='Adam'
    )


def hook_gradient_noise(c):
    def noise(xp, shape, dtype, hook, rule):
        rs = numpy.random.RandomState(rule.t)
        return (hook.eta * rs.standard_normal(shape)).astype(dtype)

    H = c.chainer.optimizer_hooks.GradientNoise
    numpy.random.seed(11)
    default = _hook_steps(c, H(0.3))
    return [_hook_steps(c, H(0.1, noise_func=noise)), default]


def hook_gradient_lars(c):
    H = c.chainer.optimizer_hooks.GradientLARS
    return [
        _hook_steps(c, H()),
        _hook_steps(c, H(threshold=10.0, weight_decay=0.01)),
        _hook_steps(c, H(threshold=0.0, weight_decay=0.1, eps=1e-3), opt='Adam'),
    ]


def hook_attributes(c):
    h = c.chainer.optimizer_hooks
    out = []
    for hook in (
        h.WeightDecay(0.1),
        h.Lasso(0.1),
        h.GradientClipping(1.0),
        h.GradientHardClipping(-1, 1),
        h.GradientNoise(0.1),
        h.GradientLARS(),
    ):
        out.append(
            [
                hook.name,
                getattr(hook, 'timing', None),
                getattr(hook, 'call_for_each_param', False),
            ]
        )
    return out


def deprecated_hook_names(c):
    out = []
    for name in ('WeightDecay', 'Lasso', 'GradientClipping', 'GradientNoise'):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            hook = getattr(c.chainer.optimizer, name)(0.1)
        out.append(
            [
                type(hook).__name__,
                isinstance(hook, getattr(c.chainer.optimizer_hooks, name)),
                sorted({x.category.__name__ for x in w}),
            ]
        )
    return out


def hyperparameter_proxies(c):
    link, opt = _set_up(c, c.O.MomentumSGD(lr=0.1))
    opt.lr = 0.2
    out = [link.W.update_rule.hyperparam.lr, opt.hyperparam.lr]
    link.W.update_rule.hyperparam.lr = 0.5
    opt.lr = 0.3
    out.append([link.W.update_rule.hyperparam.lr, link.b.update_rule.hyperparam.lr])
    out.append(link.W.update_rule.hyperparam.get_dict())
    out.append(link.b.update_rule.hyperparam.get_dict())
    out.append(repr(opt.hyperparam))
    out.append(link.W.update_rule.hyperparam.parent is opt.hyperparam)
    out.append(_try(lambda: opt.hyperparam.nothing))
    out.append(_try(lambda: c.chainer.optimizer.Hyperparameter().lr))
    _backward(c, link)
    opt.update()
    out.append([link.W.array, link.b.array])
    del link.W.update_rule.hyperparam.lr
    out.append(link.W.update_rule.hyperparam.lr)
    return out


def hyperparameter_objects(c):
    H = c.chainer.optimizer.Hyperparameter
    root = H()
    root.a, root.b = 1, 2
    child = H(root)
    child.b = 3
    grand = H(child)
    grand.c = 4
    return [
        grand.get_dict(),
        repr(grand),
        grand.a,
        grand.b,
        child.parent is root,
        root.parent,
        _try(lambda: grand.d),
        repr(H()),
    ]


def update_rule_direct(c):
    ch = c.chainer
    rule = c.O.SGD(lr=0.5).create_update_rule()
    p = ch.Parameter(numpy.ones(3, numpy.float32))
    p.grad = numpy.full(3, 2, numpy.float32)
    out = [rule.state, rule.t, rule.enabled, rule.hyperparam.lr]
    rule.update(p)
    out.append([p.array, rule.t, rule.state])
    rule.enabled = False
    rule.update(p)
    out.append([p.array, rule.t])
    base = ch.UpdateRule()
    base_p = ch.Parameter(numpy.ones(2, numpy.float32))
    base_p.grad = numpy.ones(2, numpy.float32)
    out.append(_try(lambda: base.update(base_p)))
    out.append(base.t)
    return out


def update_rule_state_lazy(c):
    link = c.L.Linear(None, 2)
    opt = c.O.Adam()
    opt.setup(link)
    link.cleargrads()
    opt.update()
    out = [link.W.update_rule.t, link.W.update_rule.state, opt.t]
    _backward(c, link)
    opt.update()
    out.append([link.W.update_rule.t, sorted(link.W.update_rule.state), opt.t])
    out.append(link.W.array)
    return out


def fp32_update(c):
    numpy.random.seed(0)
    link = _drawn(c, 4, w=numpy.float16)
    opt = c.O.MomentumSGD(lr=0.001)
    opt.setup(link)
    opt.use_fp32_update()
    for i in range(3):
        link.w.grad = numpy.full(4, 0.1 * (i + 1), numpy.float16)
        opt.update()
    out = [link.w.array, link.w.grad, sorted(link.w.update_rule.state)]
    out.append(dict(link.w.update_rule.state))
    plain = _drawn(c, 4, w=numpy.float16)
    opt2 = c.O.MomentumSGD(lr=0.001)
    opt2.use_fp32_update()
    opt2.setup(plain)
    plain.w.grad = numpy.full(4, 0.1, numpy.float16)
    opt2.update()
    out.append(plain.w.array)
    return out


def static_loss_scale(c):
    link, opt = _set_up(c, c.O.SGD(lr=0.1))
    opt.set_loss_scale(8.0)
    out = [opt._loss_scale]
    opt.add_hook(c.chainer.optimizer_hooks.WeightDecay(0.01))
    opt.update(lambda: c.F.sum(link(_x())))
    out.append([link.W.array, link.W.grad])
    out.append(_try(lambda: opt.loss_scaling(scale=0)))
    out.append(_try(lambda: opt.loss_scaling(interval=0)))
    return out


def nan_in_grads(c):
    link, opt = _set_up(c, c.O.SGD())
    link.cleargrads()
    link.W.grad = numpy.full((2, 3), numpy.nan, numpy.float32)
    link.b.grad = numpy.zeros(2, numpy.float32)
    opt.loss_scaling()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        opt.update()
    return [
        opt.t,
        link.W.array,
        opt._loss_scale,
        opt.is_safe_to_update(),
        [x.category.__name__ for x in w],
    ]


def serialize_round_trip(c):
    ch = c.chainer
    link, opt = _set_up(c, c.O.Adam())
    for _ in range(2):
        _backward(c, link)
        opt.update()
    opt.new_epoch()
    s = ch.serializers.DictionarySerializer()
    opt.serialize(s)
    saved = dict(s.target)
    other = _link(c, 1)
    opt2 = c.O.Adam()
    opt2.setup(other)
    opt2.serialize(ch.serializers.NpzDeserializer(saved))
    return [
        sorted(saved),
        [opt2.t, opt2.epoch],
        dict(other.W.update_rule.state),
        other.W.update_rule.t,
    ]


def serialize_missing_state(c):
    ch = c.chainer
    link, opt = _set_up(c, c.O.Adam())
    _backward(c, link)
    opt.update()
    s = ch.serializers.DictionarySerializer()
    opt.serialize(s)
    saved = {k: v for k, v in s.target.items() if not k.startswith('W/')}
    out = []
    for disable in (False, True):
        other = _link(c, 1)
        opt2 = c.O.Adam()
        opt2.setup(other)
        if disable:
            other.W.update_rule.enabled = False
        out.append(_try(lambda: opt2.serialize(ch.serializers.NpzDeserializer(saved))))
        out.append([other.W.update_rule.state, other.b.update_rule.t])
    return out


def params_added_after_setup(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.a = _link(c)
    opt = c.O.SGD(lr=0.5)
    opt.setup(m)
    opt.add_hook(ch.optimizer_hooks.WeightDecay(0.1))
    with m.init_scope():
        m.late = ch.Parameter(numpy.ones(2, numpy.float32))
    m.cleargrads()
    for p in m.params():
        p.grad = numpy.ones_like(p.array)
    out = [m.late.update_rule]
    out.append(_try(lambda: opt.update()))
    out.append([p.array for p in m.params()])
    return out


def optimizer_of_chain_with_shared_link(c):
    ch = c.chainer
    shared = _link(c)
    m = ch.ChainList(shared, shared)
    opt = c.O.MomentumSGD(lr=0.1)
    opt.setup(m)
    _backward(c, shared)
    opt.update()
    return [shared.W.array, shared.W.update_rule.t, opt.t]


def setup_again_drops_hooks(c):
    link, opt = _set_up(c, c.O.SGD())
    log = []
    opt.add_hook(lambda o: log.append('h'), name='h')
    opt.setup(link)
    opt.call_hooks()
    return [log, _try(lambda: opt.remove_hook('h'))]


def use_cleargrads_switch(c):
    link, opt = _set_up(c, c.O.SGD(lr=0.1))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        opt.use_cleargrads(False)
    link.cleargrads()
    link.W.grad = numpy.ones((2, 3), numpy.float32)
    link.b.grad = None
    seen = []

    def lossfun():
        seen.append(link.b.grad)
        return c.F.sum(link(_x()))

    opt.update(lossfun)
    return [sorted({x.category.__name__ for x in w}), seen, link.W.grad, link.W.array]


def adam_lr_property(c):
    link = _link(c)
    opt = c.O.Adam(alpha=0.01)
    out = [_try(lambda: opt.lr)]
    opt.setup(link)
    for _ in range(3):
        _backward(c, link)
        opt.update()
        out.append([opt.lr, link.W.update_rule.lr, opt.alpha_t])
    opt2 = c.O.Adam(alpha=0.01, amsgrad=True, weight_decay_rate=0.1)
    out.append(sorted(opt2.hyperparam.get_dict().items()))
    return out


def custom_rule_and_proxy(c):
    ch = c.chainer

    class Rule(ch.UpdateRule):
        def init_state(self, param):
            self.state['acc'] = param.xp.zeros_like(param.array)

        def update_core_cpu(self, param):
            self.state['acc'] += param.grad
            param.array -= self.hyperparam.rate * self.state['acc']

    class Opt(ch.GradientMethod):
        rate = ch.optimizer.HyperparameterProxy('rate')

        def __init__(self, rate=0.1):
            super().__init__()
            self.hyperparam.rate = rate

        def create_update_rule(self):
            return Rule(self.hyperparam)

    link = _link(c)
    opt = Opt()
    opt.setup(link)
    opt.rate = 0.2
    for _ in range(2):
        _backward(c, link)
        opt.update()
    s = ch.serializers.DictionarySerializer()
    opt.serialize(s)
    return [
        link.W.array,
        dict(link.W.update_rule.state),
        sorted(s.target),
        opt.rate,
        Opt.rate.__doc__ is not None,
        type(Opt.__dict__['rate']).__name__,
    ]


def serialize_without_t(c):
    ch = c.chainer
    link, opt = _set_up(c, c.O.SGD())
    return [
        _try(lambda: opt.serialize(ch.serializers.NpzDeserializer({}))),
        _try(
            lambda: opt.serialize(
                ch.serializers.NpzDeserializer({'t': numpy.asarray(3)}, strict=False)
            )
        ),
        opt.t,
        opt.epoch,
    ]


def copies_of_optimizers(c):
    import copy
    import pickle

    link, opt = _set_up(c, c.O.MomentumSGD(lr=0.3))
    _backward(c, link)
    opt.update()
    out = []
    for dup in (copy.deepcopy(opt), pickle.loads(pickle.dumps(opt))):
        rule = dup.target.W.update_rule
        out.append(
            [
                dup.lr,
                dup.t,
                rule.t,
                rule.hyperparam.lr,
                rule.hyperparam.parent is dup.hyperparam,
                dict(rule.state),
                dup.target is link,
                rule.state['v'] is link.W.update_rule.state['v'],
            ]
        )
        dup.lr = 0.9
        out.append([rule.hyperparam.lr, opt.lr])
    H = c.chainer.optimizer.Hyperparameter
    root = H()
    root.x = 1
    leaf = H(root)
    for dup in (copy.deepcopy(leaf), pickle.loads(pickle.dumps(leaf))):
        out.append([dup.x, dup.get_dict(), dup.parent is root])
    return out


def hook_that_clears_grads(c):
    link, opt = _set_up(c, c.O.SGD(lr=0.5))
    seen = []

    def clear(o):
        o.target.cleargrads()

    def look(o):
        seen.append([p.grad for p in o.target.params()])

    opt.add_hook(clear)
    opt.add_hook(look)
    _backward(c, link)
    opt.update()
    return [seen, link.W.array, link.W.grad]


def serialize_with_lazy_params(c):
    ch = c.chainer
    link = c.L.Linear(None, 2)
    opt = c.O.Adam()
    opt.setup(link)
    link.cleargrads()
    opt.update()
    s = ch.serializers.DictionarySerializer()
    opt.serialize(s)
    other = c.L.Linear(None, 2)
    opt2 = c.O.Adam()
    opt2.setup(other)
    # a rule without state saved only its t: loading it expects the state
    loaded = _try(
        lambda: opt2.serialize(ch.serializers.NpzDeserializer(dict(s.target)))
    )
    return [{k: v for k, v in s.target.items()}, loaded, other.W.update_rule.t]


def rule_state_device_and_types(c):
    link = _link(c)
    link.W.array = link.W.array.astype(numpy.float64)
    opt = c.O.Adam()
    opt.setup(link)
    link.cleargrads()
    link.W.grad = numpy.ones((2, 3), numpy.float64)
    link.b.grad = numpy.ones(2, numpy.float32)
    opt.update()
    return [
        {k: str(v.dtype) for k, v in link.W.update_rule.state.items()},
        {k: str(v.dtype) for k, v in link.b.update_rule.state.items()},
        str(link.W.array.dtype),
    ]


def every_optimizer_surface(c):
    from tools.surface_probes.optimizers import NAMES

    out = {}
    for name in NAMES + ('AdaBound', 'AMSBound'):
        cls = getattr(c.O, name)
        opt = cls()
        proxies = sorted(
            k
            for klass in cls.__mro__
            for k, v in vars(klass).items()
            if type(v).__name__ == 'HyperparameterProxy'
        )
        rule = opt.create_update_rule()
        out[name] = [
            proxies,
            sorted(opt.hyperparam.get_dict().items()),
            type(rule).__name__,
            rule.is_elementwise,
            rule.hyperparam.parent is opt.hyperparam,
            issubclass(cls, c.chainer.GradientMethod),
        ]
    return out


def fp32_update_hooks_and_states(c):
    ch = c.chainer
    numpy.random.seed(0)
    link = _drawn(c, 3, w=numpy.float16, u=numpy.float32)
    opt = c.O.Adam(alpha=0.01)
    opt.setup(link)
    opt.use_fp32_update()
    seen = []

    def look(rule, param):
        seen.append([param.name, str(param.dtype), str(param.grad.dtype)])

    link.w.update_rule.add_hook(look)
    link.u.update_rule.add_hook(look)
    opt.add_hook(ch.optimizer_hooks.WeightDecay(0.1))
    for i in range(2):
        link.w.grad = numpy.full(3, 0.5 * (i + 1), numpy.float16)
        link.u.grad = numpy.full(3, 0.5 * (i + 1), numpy.float32)
        opt.update()
    return [
        seen,
        link.w.array,
        str(link.w.array.dtype),
        link.w.grad,
        {k: str(v.dtype) for k, v in link.w.update_rule.state.items()},
        dict(link.w.update_rule.state),
        link.u.array,
    ]


def serialize_param_without_rule(c):
    ch = c.chainer
    m = ch.Chain(a=_link(c))
    opt = c.O.MomentumSGD()
    opt.setup(m)
    with m.init_scope():
        m.late = ch.Parameter(numpy.ones(2, numpy.float32))
    m.cleargrads()
    s = ch.serializers.DictionarySerializer()
    opt.serialize(s)
    return sorted(s.target)


PROBES = _values.probes(globals(), __name__)
