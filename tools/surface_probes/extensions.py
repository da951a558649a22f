"""A Trainer's extensions as programs use them: LogReport's entries, file
and resumption, observed values, the order and names of extensions, what
a run does on an error, and the updater's counters."""

import io
import json
import os
import tempfile

import numpy

from tools.surface_probes import _values


def _parts(c, n=12, batch=4):
    # a classifier of n rows in batches of `batch`, its optimizer and updater
    numpy.random.seed(0)
    x = numpy.random.rand(n, 3).astype(numpy.float32)
    t = (x.sum(axis=1) > 1.5).astype(numpy.int32)
    data = c.chainer.datasets.TupleDataset(x, t)
    model = c.L.Classifier(c.L.Linear(3, 2))
    opt = c.O.SGD(lr=0.1)
    opt.setup(model)
    it = c.chainer.iterators.SerialIterator(data, batch, shuffle=False)
    updater = c.chainer.training.updaters.StandardUpdater(it, opt)
    return updater, model, data


def _trainer(c, stop=(2, 'epoch'), out=None):
    updater, model, data = _parts(c)
    out = out or tempfile.mkdtemp()
    return c.chainer.training.Trainer(updater, stop, out=out), model, data


def _entries(log):
    return [{k: v for k, v in e.items() if k != 'elapsed_time'} for e in log]


def log_report_keys_and_trigger(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c)
    log = E.LogReport(keys=['main/loss', 'epoch'], trigger=(2, 'iteration'))
    trainer.extend(log)
    trainer.run()
    return _entries(log.log), sorted(os.listdir(trainer.out))


def log_report_postprocess_and_file(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c)

    def post(summary):
        summary['twice'] = 2 * summary['main/loss']

    log = E.LogReport(postprocess=post, filename='my_log')
    trainer.extend(log)
    trainer.run()
    with open(os.path.join(trainer.out, 'my_log')) as f:
        written = json.load(f)
    return _entries(log.log), _entries(written), sorted(os.listdir(trainer.out))


def log_report_without_a_file(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c)
    log = E.LogReport(filename=None, trigger=(3, 'iteration'))
    trainer.extend(log)
    trainer.run()
    return _entries(log.log), sorted(os.listdir(trainer.out))


def log_report_resumed(c):
    # a LogReport serialized midway and loaded into a new trainer goes on
    # with the same log
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(4, 'iteration'))
    log = E.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log)
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    trainer.serialize(s)
    keys = sorted(k for k in s.target if 'extensions/LogReport' in k)
    trainer2, _, _ = _trainer(c, stop=(6, 'iteration'))
    log2 = E.LogReport(trigger=(1, 'iteration'))
    trainer2.extend(log2)
    d = c.chainer.serializers.NpzDeserializer(s.target)
    trainer2.serialize(d)
    trainer2.run()
    return keys, [e['iteration'] for e in log2.log], len(log2.log)


def observed_values(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(5, 'iteration'))
    log = E.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log)
    trainer.extend(E.observe_lr(), trigger=(1, 'iteration'))
    trainer.extend(
        E.observe_value('iteration_twice', lambda t: t.updater.iteration * 2),
        trigger=(2, 'iteration'),
    )
    trainer.extend(E.observe_lr(observation_key='rate'), trigger=(1, 'iteration'))
    trainer.run()
    return _entries(log.log)


def extension_names_and_order(c):
    T = c.chainer.training
    trainer, _, _ = _trainer(c, stop=(2, 'iteration'))
    calls = []

    def make(tag, priority=None):
        @(
            T.make_extension(priority=priority)
            if priority is not None
            else T.make_extension()
        )
        def ext(t):
            calls.append((tag, t.updater.iteration))

        return ext

    trainer.extend(make('plain'))
    trainer.extend(make('again'))  # same function name: a second name
    trainer.extend(make('writer', T.PRIORITY_WRITER))
    trainer.extend(make('reader', T.PRIORITY_READER))
    trainer.extend(make('named'), name='custom')
    names = sorted(trainer._extensions)
    trainer.run()
    return names, calls, type(trainer.get_extension('custom')).__name__


def extension_lifecycle(c):
    T = c.chainer.training
    trainer, _, _ = _trainer(c, stop=(3, 'iteration'))
    seen = []

    class Ext(T.Extension):
        trigger = (2, 'iteration')

        def initialize(self, t):
            seen.append(('initialize', t.updater.iteration))

        def __call__(self, t):
            seen.append(('call', t.updater.iteration))

        def finalize(self):
            seen.append(('finalize',))

    ext = Ext()
    trainer.extend(ext)
    trainer.run()
    return seen, ext.default_name, ext.name if hasattr(ext, 'name') else None


def error_during_a_run(c):
    T = c.chainer.training
    trainer, _, _ = _trainer(c, stop=(5, 'iteration'))
    seen = []

    class Watch(T.Extension):
        trigger = (1, 'iteration')

        def __call__(self, t):
            if t.updater.iteration == 2:
                raise ValueError('stop here')

        def on_error(self, t, exc, tb):
            seen.append(('on_error', type(exc).__name__, str(exc)))

        def finalize(self):
            seen.append(('finalize',))

    trainer.extend(Watch())
    try:
        trainer.run()
    except ValueError as e:
        seen.append(('raised', str(e)))
    return seen, trainer.updater.iteration


def updater_counters(c):
    updater, _, _ = _parts(c, n=10, batch=4)
    out = []
    for _ in range(6):
        updater.update()
        out.append(
            (
                updater.iteration,
                updater.epoch,
                round(updater.epoch_detail, 6),
                updater.previous_epoch_detail,
                updater.is_new_epoch,
            )
        )
    s = c.chainer.serializers.DictionarySerializer()
    updater.serialize(s)
    return out, sorted(s.target)


def updater_loss_func_and_converter(c):
    updater, model, data = _parts(c)
    T = c.chainer.training
    seen = []

    def converter(batch, device=None):
        seen.append(len(batch))
        return c.chainer.dataset.concat_examples(batch, device)

    def loss_func(x, t):
        return c.F.sum(model.predictor(x)) * 0 + c.F.mean_squared_error(
            model.predictor(x), c.F.cast(c.F.stack([t, t], axis=1), 'f')
        )

    it = c.chainer.iterators.SerialIterator(data, 5, shuffle=False)
    updater = T.updaters.StandardUpdater(
        it, updater.get_optimizer('main'), converter=converter, loss_func=loss_func
    )
    for _ in range(3):
        updater.update()
    return seen, [p.array for p in model.params()]


def value_triggers(c):
    T = c.chainer.training
    out = []
    for make in (
        lambda: T.triggers.MaxValueTrigger('v', trigger=(1, 'iteration')),
        lambda: T.triggers.MinValueTrigger('v', trigger=(2, 'iteration')),
    ):
        trainer, _, _ = _trainer(c, stop=(1, 'iteration'))
        trig, fired = make(), []
        for i, v in enumerate([3.0, 1.0, 4.0, 1.5, 5.0, 0.5], 1):
            trainer.updater.iteration = i
            trainer.observation = {'v': v}
            fired.append(bool(trig(trainer)))
        out.append(fired)
    return out


def print_report_text(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(3, 'iteration'))
    trainer.extend(E.LogReport(trigger=(1, 'iteration')))
    out = io.StringIO()
    trainer.extend(
        E.PrintReport(['iteration', 'main/accuracy', 'missing'], out=out),
        trigger=(1, 'iteration'),
    )
    trainer.run()
    return out.getvalue()


PROBES = _values.probes(globals(), __name__)
