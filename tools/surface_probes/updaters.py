"""Updaters as a training loop drives them: StandardUpdater's arguments,
attributes, counters and keys, the batch forms it hands the loss, the
ParallelUpdater on CPU devices, and get_trigger."""

from tools.surface_probes import _training
from tools.surface_probes import _values


def _setup(c, n=10, batch=4, repeat=True):
    return _training.parts(c, n, batch, repeat)[:3]


def _updater(c, *args, **kwargs):
    return c.chainer.training.updaters.StandardUpdater(*args, **kwargs)


def standard_defaults(c):
    it, opt, model = _setup(c)
    u = _updater(c, it, opt)
    return [
        u.converter is c.chainer.dataset.concat_examples,
        u.loss_func,
        u.device,
        u.input_device,
        u.iteration,
        u.auto_new_epoch,
        u.loss_scale,
        opt.use_auto_new_epoch,
        u.get_iterator('main') is it,
        u.get_optimizer('main') is opt,
        sorted(u.get_all_optimizers()),
        u.get_all_optimizers() is u.get_all_optimizers(),
        u.epoch,
        u.epoch_detail,
        u.previous_epoch_detail,
        u.is_new_epoch,
    ]


def standard_devices(c):
    it, opt, _ = _setup(c)
    u = _updater(c, it, opt, device='@numpy')
    it2, opt2, _ = _setup(c)
    v = _updater(c, it2, opt2, input_device=-1)
    it3, opt3, _ = _setup(c)
    w = _updater(c, it3, opt3, device=-1, input_device='@numpy')
    return [
        str(u.device),
        str(u.input_device),
        u.device is u.input_device,
        v.device,
        str(v.input_device),
        str(w.device),
        str(w.input_device),
    ]


def standard_bad_arguments(c):
    it, opt, _ = _setup(c)
    return [
        _values.attempt(lambda: _updater(c, it, opt, unknown=1)),
        _values.attempt(lambda: _updater(c, it, opt, device='@nowhere')),
        _values.attempt(lambda: _updater(c, it, opt, input_device='nope')),
        _values.attempt(lambda: _updater(c, it, None)),
        _values.attempt(lambda: _updater(c, it, None, auto_new_epoch=False).loss_func),
        _values.attempt(lambda: _updater(c, it, opt).get_optimizer('other')),
        _values.attempt(lambda: _updater(c, it, opt).get_iterator('other')),
    ]


def standard_epochs_without_auto_new_epoch(c):
    out = []
    for auto in (True, False):
        it, opt, _ = _setup(c, n=6, batch=4)
        u = _updater(c, it, opt, auto_new_epoch=auto)
        seen = []
        for _ in range(4):
            u.update()
            seen.append((opt.epoch, u.epoch, u.is_new_epoch))
        out.append([opt.use_auto_new_epoch, seen])
    return out


def standard_manual_new_epoch_is_refused(c):
    # with the updater starting epochs, a manual new_epoch() is an error
    it, opt, _ = _setup(c)
    _updater(c, it, opt)
    first = _values.attempt(lambda: opt.new_epoch())
    it2, opt2, _ = _setup(c)
    _updater(c, it2, opt2, auto_new_epoch=False)
    opt2.new_epoch()
    return first, opt2.epoch


def standard_loss_scale(c):
    out = []
    for scale in (None, 4.0):
        it, opt, model = _setup(c)
        u = _updater(c, it, opt, loss_scale=scale)
        u.update()
        out.append([u.loss_scale, opt._loss_scale, [p.array for p in model.params()]])
    return out


def standard_batch_forms(c):
    # a converter may give a tuple (positional), a dict (keywords) or one
    # value (one argument)
    out = []
    for form in ('tuple', 'dict', 'single'):
        it, opt, model = _setup(c)
        seen = []

        def converter(batch, device=None, form=form):
            x, t = c.chainer.dataset.concat_examples(batch, device)
            if form == 'tuple':
                return x, t
            if form == 'dict':
                return {'x': x, 't': t}
            return x

        def loss(*args, **kwargs):
            seen.append((len(args), sorted(kwargs)))
            x = args[0] if args else kwargs['x']
            return c.F.sum(model.predictor(x) ** 2)

        u = _updater(c, it, opt, converter=converter, loss_func=loss)
        u.update()
        u.update()
        out.append([seen, [p.array for p in model.params()]])
    return out


def standard_converter_device_argument(c):
    # an old-style converter is given None, or -1 for a CPU device; one made
    # with @converter is given the device itself
    seen = []

    def old(batch, device):
        seen.append(device)
        return c.chainer.dataset.concat_examples(batch)

    @c.chainer.dataset.converter()
    def new(batch, device):
        seen.append(str(device))
        return c.chainer.dataset.concat_examples(batch, device)

    for conv, kw in (
        (old, {}),
        (old, {'device': '@numpy'}),
        (old, {'input_device': -1}),
        (new, {'device': -1}),
        (new, {}),
    ):
        it, opt, _ = _setup(c)
        _updater(c, it, opt, converter=conv, **kw).update()
    return seen


def standard_counters(c):
    it, opt, _ = _setup(c, n=7, batch=3)
    u = _updater(c, it, opt)
    out = []
    for _ in range(7):
        u.update()
        out.append(
            [
                u.iteration,
                u.epoch,
                round(u.epoch_detail, 6),
                None
                if u.previous_epoch_detail is None
                else round(u.previous_epoch_detail, 6),
                u.is_new_epoch,
                opt.t,
                opt.epoch,
            ]
        )
    return out


def standard_iterator_end(c):
    # a non-repeating iterator ends the updates with StopIteration
    it, opt, _ = _setup(c, n=5, batch=4, repeat=False)
    u = _updater(c, it, opt)
    u.update()
    u.update()
    return u.iteration, _values.attempt(u.update), u.iteration


def standard_serialize_keys(c):
    its = {'main': _setup(c)[0], 'extra': _setup(c)[0]}
    _, opt_a, _ = _setup(c)
    _, opt_b, _ = _setup(c)
    u = _updater(c, its, {'main': opt_a, 'other': opt_b})
    u.update()
    s = c.chainer.serializers.DictionarySerializer()
    u.serialize(s)
    return sorted(s.target), s.target['iteration']


def standard_serialize_round_trip(c):
    it, opt, model = _setup(c, n=7, batch=3)
    u = _updater(c, it, opt)
    for _ in range(4):
        u.update()
    s = c.chainer.serializers.DictionarySerializer()
    u.serialize(s)
    it2, opt2, model2 = _setup(c, n=7, batch=3)
    u2 = _updater(c, it2, opt2)
    u2.serialize(c.chainer.serializers.NpzDeserializer(s.target))
    before = [u2.iteration, u2.epoch, u2.epoch_detail, opt2.t, opt2.epoch]
    u.update()
    u2.update()
    return before, [p.array for p in model.params()], [p.array for p in model2.params()]


def standard_finalize(c):
    it, opt, _ = _setup(c)
    calls = []
    original = it.finalize
    it.finalize = lambda: (calls.append('main'), original())
    it2 = _setup(c)[0]
    it2.finalize = lambda: calls.append('extra')
    u = _updater(c, {'main': it, 'extra': it2}, opt)
    u.finalize()
    return sorted(calls)


def standard_optimizer_dict_without_main(c):
    # optimizers of other names: the updater is made; update_core needs
    # 'main'
    it, opt, _ = _setup(c)
    u = _updater(c, it, {'gen': opt})
    made = sorted(u.get_all_optimizers())
    return made, _values.attempt(u.update), u.iteration


def standard_iterators_without_main(c):
    # iterators of other names: the updater is made; what reads the epoch
    # of 'main' fails
    it, opt, _ = _setup(c)
    u = _updater(c, {'train': it}, opt)
    return [
        u.get_iterator('train') is it,
        _values.attempt(lambda: u.epoch),
        _values.attempt(lambda: u.epoch_detail),
        _values.attempt(lambda: u.is_new_epoch),
        _values.attempt(u.update),
        u.iteration,
    ]


def standard_subclass_update_core(c):
    # a subclass updating two optimizers from the 'main' iterator
    T = c.chainer.training
    it, opt_a, model_a = _setup(c)
    _, opt_b, model_b = _setup(c)
    log = []

    class Two(T.updaters.StandardUpdater):
        def update_core(self):
            batch = self.get_iterator('main').next()
            x, t = self.converter(batch, self.device)
            for name in ('a', 'b'):
                o = self.get_optimizer(name)
                o.update(o.target, x, t)
                log.append(name)

    u = Two(it, {'a': opt_a, 'b': opt_b})
    u.update()
    u.update()
    return log, u.iteration, opt_a.t, opt_b.t, [p.array for p in model_b.params()]


def updater_base(c):
    U = c.chainer.training.Updater
    u = U()
    return [
        u.connect_trainer(None),
        _values.attempt(u.finalize),
        _values.attempt(lambda: u.get_optimizer('main')),
        _values.attempt(u.get_all_optimizers),
        _values.attempt(u.update),
        _values.attempt(lambda: u.serialize(None)),
        c.chainer.training.updater.Updater is U,
        c.chainer.training.updater.StandardUpdater
        is c.chainer.training.updaters.StandardUpdater,
    ]


def _parallel(c, **kwargs):
    it, opt, model = _setup(c, n=8, batch=4)
    P = c.chainer.training.updaters.ParallelUpdater
    return P(it, opt, **kwargs), opt, model


def parallel_on_cpu(c):
    u, opt, model = _parallel(c, devices={'main': -1, 'second': '@numpy'})
    for _ in range(3):
        u.update()
    return [
        u.iteration,
        opt.t,
        sorted(u._models),
        [p.array for p in model.params()],
        [p.array for p in u._models['second'].params()],
    ]


def parallel_matches_standard_on_one_device(c):
    u, _, model = _parallel(c, devices={'main': '@numpy'})
    it, opt, model2 = _setup(c, n=8, batch=4)
    v = _updater(c, it, opt)
    for _ in range(3):
        u.update()
        v.update()
    return [p.array for p in model.params()], [p.array for p in model2.params()]


def parallel_bad_arguments(c):
    return [
        _values.attempt(lambda: _parallel(c)),
        _values.attempt(lambda: _parallel(c, devices={'other': -1})),
        _values.attempt(lambda: _parallel(c, devices={'main': -1}, unknown=1)),
    ]


def parallel_loss_func_and_observers(c):
    T = c.chainer.training
    u, opt, model = _parallel(c, devices={'main': -1, 'b': -1})
    t = T.Trainer(u, (1, 'iteration'))
    names = sorted(t.reporter._observer_names.values())
    calls = []

    def loss(x, t):
        calls.append(x.shape)
        return c.F.sum(x) * 0 + c.F.mean_squared_error(x, x * 2)

    u2, _, _ = _parallel(c, devices={'main': -1, 'b': -1}, loss_func=loss)
    u2.update()
    return names, calls


def get_trigger_forms(c):
    util = c.chainer.training.util
    T = c.chainer.training

    def f(trainer):
        return True

    interval = util.get_trigger((3, 'epoch'))
    return [
        util.get_trigger(f) is f,
        util.get_trigger(None) is util._never_fire_trigger,
        util._never_fire_trigger(None),
        type(interval).__name__,
        interval.period,
        interval.unit,
        type(util.get_trigger([2, 'iteration'])).__name__,
        T.trigger.get_trigger is util.get_trigger,
        T.get_trigger is util.get_trigger,
        _values.attempt(lambda: util.get_trigger((1, 'second'))),
        _values.attempt(lambda: util.get_trigger(3)),
        _values.attempt(lambda: util.get_trigger((1,))),
        _values.attempt(lambda: util.get_trigger((1, 'epoch', 2))),
        _values.attempt(lambda: util.get_trigger('epoch')),
    ]


def gpu_devices_without_cupy(c):
    it, opt, model = _setup(c)
    E = c.chainer.training.extensions
    return [
        _values.attempt(lambda: _updater(c, it, opt, device='@cupy:0')),
        _values.attempt(lambda: _updater(c, it, opt, device=0)),
        _values.attempt(lambda: _updater(c, it, opt, input_device='@cupy:1')),
        _values.attempt(lambda: E.Evaluator(it, model, device='@cupy:0')),
        _values.attempt(lambda: E.Evaluator(it, model, device=0)),
        _values.attempt(lambda: str(E.Evaluator(it, model, device=-1).device)),
    ]


def parallel_models_without_devices(c):
    # Chainer 7.8.1 keeps devices None when models are given and fails at
    # the first update
    it, opt, model = _setup(c, n=8, batch=4)
    other = model.copy('copy')
    P = c.chainer.training.updaters.ParallelUpdater
    u = P(it, opt, models={'main': model, 'other': other})
    return _values.attempt(u.update), u.iteration


def parallel_models_and_devices(c):
    it, opt, model = _setup(c, n=8, batch=4)
    other = model.copy('copy')
    P = c.chainer.training.updaters.ParallelUpdater
    seen = []

    def converter(batch, device):
        seen.append(device)
        return c.chainer.dataset.concat_examples(batch)

    u = P(
        it,
        opt,
        converter=converter,
        models={'main': model, 'other': other},
        devices={'main': -1, 'other': -1},
    )
    u.update()
    u.update()
    return (
        seen,
        [p.array for p in other.params()],
        _values.attempt(
            lambda: P(it, opt, models={'other': other}, devices={'other': -1})
        ),
    )


PROBES = _values.probes(globals(), __name__)
