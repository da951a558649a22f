"""A Trainer's run: its log, triggers, schedules, evaluator and snapshot."""

import tempfile

import numpy

from tools.surface_probes import _values


def _trainer(c, epochs=2, **extra):
    T = c.chainer.training
    E = T.extensions
    numpy.random.seed(0)
    x = numpy.random.rand(12, 3).astype(numpy.float32)
    t = (x.sum(axis=1) > 1.5).astype(numpy.int32)
    data = c.chainer.datasets.TupleDataset(x, t)
    model = c.L.Classifier(c.L.Linear(3, 2))
    opt = c.O.MomentumSGD(lr=0.1)
    opt.setup(model)
    it = c.chainer.iterators.SerialIterator(data, 4, shuffle=False)
    updater = T.updaters.StandardUpdater(it, opt)
    trainer = T.Trainer(updater, (epochs, 'epoch'), out=extra.pop('out'))
    log = E.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log)
    trainer.extend(E.observe_lr(), trigger=(1, 'iteration'))
    trainer.extend(E.ExponentialShift('lr', 0.5), trigger=(2, 'iteration'))
    test_it = c.chainer.iterators.SerialIterator(data, 5, repeat=False, shuffle=False)
    trainer.extend(E.Evaluator(test_it, model), trigger=(1, 'epoch'))
    return trainer, log, model


def _round(entry):
    return {k: v for k, v in entry.items() if k != 'elapsed_time'}


def log_of_a_run(c):
    trainer, log, model = _trainer(c, out=tempfile.mkdtemp())
    trainer.run()
    return [_round(e) for e in log.log], [p.array for p in model.params()]


def triggers(c):
    T = c.chainer.training

    class Fake:
        def __init__(self):
            self.updater = type(
                'U',
                (),
                {
                    'iteration': 0,
                    'epoch': 0,
                    'epoch_detail': 0.0,
                    'is_new_epoch': False,
                    'previous_epoch_detail': None,
                },
            )()
            self.observation = {}

    out = []
    for make in (
        lambda: T.triggers.IntervalTrigger(3, 'iteration'),
        lambda: T.triggers.ManualScheduleTrigger([2, 5], 'iteration'),
        lambda: T.triggers.OnceTrigger(),
    ):
        trig, fake, fired = make(), Fake(), []
        for i in range(1, 8):
            fake.updater.iteration = i
            fake.updater.epoch_detail = i / 4
            fake.updater.previous_epoch_detail = (i - 1) / 4
            fired.append(bool(trig(fake)))
        out.append(fired)
    return out


def snapshot_keys(c):
    trainer, _, _ = _trainer(c, epochs=1, out=tempfile.mkdtemp())
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    trainer.serialize(s)
    return sorted(k for k in s.target if 'elapsed' not in k)


PROBES = _values.probes(globals(), __name__)
