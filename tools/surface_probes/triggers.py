"""Triggers called by a stand-in trainer: when they fire for fractional
and epoch periods, what they save and load, their attributes, and their
errors and warnings."""

import contextlib
import io
import warnings

from tools.surface_probes import _values


class _Updater:
    def __init__(self, per_epoch):
        self.per_epoch = per_epoch
        self.iteration = 0
        self.previous_epoch_detail = None

    @property
    def epoch_detail(self):
        return self.iteration / self.per_epoch

    @property
    def epoch(self):
        return self.iteration // self.per_epoch

    @property
    def is_new_epoch(self):
        return self.iteration % self.per_epoch == 0


class _Trainer:
    def __init__(self, per_epoch=4):
        self.updater = _Updater(per_epoch)
        self.observation = {}
        self.elapsed_time = 0.0

    def step(self):
        u = self.updater
        u.previous_epoch_detail = u.epoch_detail
        u.iteration += 1


def _fires(trigger, n, per_epoch=4, observe=None):
    t, out = _Trainer(per_epoch), []
    for i in range(1, n + 1):
        t.step()
        t.observation = observe(i) if observe else {}
        out.append(bool(trigger(t)))
    return out


def _warned(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        result = fn()
    return result, [x.category.__name__ for x in w]


def _saved(c, obj):
    s = c.chainer.serializers.DictionarySerializer()
    obj.serialize(s)
    return s.target


def interval_fractional_periods(c):
    tr = c.chainer.training.triggers
    out = []
    for period, unit, per_epoch in (
        (0.5, 'epoch', 3),
        (1.5, 'epoch', 4),
        (2, 'epoch', 3),
        (1, 'iteration', 3),
        (4, 'iteration', 3),
        (2.5, 'iteration', 3),
    ):
        trig = tr.IntervalTrigger(period, unit)
        out.append([_fires(trig, 10, per_epoch), trig.count])
    return out


def interval_attributes(c):
    tr = c.chainer.training.triggers
    trig = tr.IntervalTrigger(3, 'epoch')
    return [
        trig.period,
        trig.unit,
        trig.count,
        trig.get_training_length(),
        str(trig),
        str(tr.IntervalTrigger(0.5, 'iteration')),
        _values.attempt(lambda: tr.IntervalTrigger(1, 'epochs')),
        _values.attempt(lambda: tr.IntervalTrigger(1, None)),
        _values.attempt(lambda: tr.IntervalTrigger(1)),
    ]


def interval_serialize(c):
    tr = c.chainer.training.triggers
    trig = tr.IntervalTrigger(3, 'iteration')
    t = _Trainer()
    for _ in range(4):
        t.step()
        trig(t)
    saved = _saved(c, trig)
    again = tr.IntervalTrigger(3, 'iteration')
    again.serialize(c.chainer.serializers.NpzDeserializer(saved))
    fired = []
    for _ in range(5):
        t.step()
        fired.append(bool(again(t)))
    return saved, fired


def interval_loaded_without_keys(c):
    # a snapshot without the trigger's keys: a warning, and the previous
    # position is guessed from the updater
    tr = c.chainer.training.triggers
    out = []
    for unit in ('iteration', 'epoch'):
        trig = tr.IntervalTrigger(2, unit)
        _, warned = _warned(
            lambda trig=trig: trig.serialize(c.chainer.serializers.NpzDeserializer({}))
        )
        t = _Trainer(per_epoch=2)
        for _ in range(3):
            t.step()
        fired = []
        for _ in range(6):
            t.step()
            fired.append(bool(trig(t)))
        out.append([warned, fired])
    return out


def manual_schedule_points(c):
    tr = c.chainer.training.triggers
    out = []
    for points, unit in (
        ([2, 5], 'iteration'),
        (3, 'iteration'),
        ([0.5, 1.25, 2], 'epoch'),
        (1, 'epoch'),
        ([7, 2], 'iteration'),
        ([], 'iteration'),
    ):
        trig = tr.ManualScheduleTrigger(points, unit)
        fired = _values.attempt(lambda trig=trig: _fires(trig, 10))
        out.append([trig.points, trig.unit, fired, trig.finished])
    return out


def manual_schedule_bad_unit(c):
    tr = c.chainer.training.triggers
    return [
        _values.attempt(lambda: tr.ManualScheduleTrigger([1], 'second')),
        _values.attempt(lambda: tr.ManualScheduleTrigger([1], 'Epoch')),
        _values.attempt(lambda: tr.ManualScheduleTrigger(1, None)),
    ]


def manual_schedule_tuple_points(c):
    tr = c.chainer.training.triggers
    return tr.ManualScheduleTrigger((1, 2), 'iteration').points


def manual_schedule_serialize(c):
    tr = c.chainer.training.triggers
    trig = tr.ManualScheduleTrigger([2, 4], 'iteration')
    t = _Trainer()
    for _ in range(5):
        t.step()
        trig(t)
    saved = _saved(c, trig)
    fresh = tr.ManualScheduleTrigger([2, 4], 'iteration')
    fresh.serialize(c.chainer.serializers.NpzDeserializer(saved))
    empty = tr.ManualScheduleTrigger([2, 4], 'iteration')
    _, warned = _warned(
        lambda: empty.serialize(c.chainer.serializers.NpzDeserializer({}))
    )
    t2 = _Trainer()
    for _ in range(5):
        t2.step()
    return (
        saved,
        fresh.finished,
        warned,
        empty.finished,
        bool(empty(t2)),
        empty.finished,
    )


def best_value_triggers(c):
    tr = c.chainer.training.triggers
    values = [3.0, 1.0, 4.0, 1.5, 5.0, 0.5, 0.25, 9.0]
    out = []
    for make in (
        lambda: tr.MaxValueTrigger('v', trigger=(1, 'iteration')),
        lambda: tr.MinValueTrigger('v', trigger=(2, 'iteration')),
        lambda: tr.MaxValueTrigger('v', trigger=(1, 'epoch')),
        lambda: tr.BestValueTrigger(
            'v', lambda best, new: new % 2 > best % 2, (1, 'iteration')
        ),
    ):
        trig = make()
        out.append(_fires(trig, 8, observe=lambda i: {'v': values[i - 1]}))
    return out


def best_value_missing_key(c):
    tr = c.chainer.training.triggers
    trig = tr.MaxValueTrigger('v', trigger=(2, 'iteration'))
    t = _Trainer()
    t.step()
    first = bool(trig(t))
    t.step()
    return first, _values.attempt(lambda: trig(t))


def best_value_serialize(c):
    tr = c.chainer.training.triggers
    trig = tr.MinValueTrigger('v', trigger=(3, 'iteration'))
    t = _Trainer()
    for i in range(5):
        t.step()
        t.observation = {'v': float(10 - i)}
        trig(t)
    saved = _saved(c, trig)
    fresh = tr.MinValueTrigger('v', trigger=(3, 'iteration'))
    fresh.serialize(c.chainer.serializers.NpzDeserializer(saved))
    fired = []
    for i in range(4):
        t.step()
        t.observation = {'v': 7.5 - i}
        fired.append(bool(fresh(t)))
    return sorted(saved), saved['best_value'], fired


def once_trigger(c):
    tr = c.chainer.training.triggers
    out = []
    for resume in (False, True):
        trig = tr.OnceTrigger(call_on_resume=resume)
        before = trig.finished
        fired = _fires(trig, 3)
        saved = _saved(c, trig)
        fresh = tr.OnceTrigger(call_on_resume=resume)
        fresh.serialize(c.chainer.serializers.NpzDeserializer(saved))
        out.append(
            [before, fired, trig.finished, saved, fresh.finished, _fires(fresh, 2)]
        )
    return out


def once_trigger_loaded_without_keys(c):
    tr = c.chainer.training.triggers
    out = []
    for resume in (False, True):
        trig = tr.OnceTrigger(resume)
        _, warned = _warned(
            lambda trig=trig: trig.serialize(c.chainer.serializers.NpzDeserializer({}))
        )
        out.append([warned, trig.finished, _fires(trig, 2)])
    return out


def time_trigger(c):
    tr = c.chainer.training.triggers
    trig = tr.TimeTrigger(2.5)
    t = _Trainer()
    fired = []
    for now in (0.0, 1.0, 2.5, 2.6, 3.0, 5.0, 5.1, 12.0, 12.5, 13.0):
        t.elapsed_time = now
        fired.append(bool(trig(t)))
    saved = _saved(c, trig)
    fresh = tr.TimeTrigger(2.5)
    fresh.serialize(c.chainer.serializers.NpzDeserializer(saved))
    t.elapsed_time = 13.0
    return fired, saved, bool(fresh(t)), bool(fresh(t))


def _early(c, values, **kwargs):
    tr = c.chainer.training.triggers
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        trig = tr.EarlyStoppingTrigger(**kwargs)
        fired, warned = _warned(
            lambda: _fires(
                trig, len(values), per_epoch=2, observe=lambda i: values[i - 1]
            )
        )
    return [fired, warned, trig.count, trig.best, out.getvalue()]


def early_stopping_modes(c):
    loss = [{'main/loss': v} for v in (0, 5, 4, 6, 7, 8, 3, 9, 9, 9, 9, 9)]
    acc = [{'main/accuracy': v} for v in (0, 5, 4, 6, 7, 8, 3, 9, 9, 9, 9, 9)]
    return [
        _early(c, loss, check_trigger=(1, 'iteration')),
        _early(c, acc, monitor='main/accuracy', check_trigger=(1, 'iteration')),
        _early(c, loss, mode='max', check_trigger=(1, 'iteration'), patience=2),
        _early(
            c, acc, monitor='main/accuracy', mode='min', check_trigger=(1, 'iteration')
        ),
        _early(c, loss, check_trigger=(1, 'epoch'), patience=1),
        _early(c, loss, check_trigger=(1, 'iteration'), mode='other'),
    ]


def early_stopping_verbose_and_max_trigger(c):
    loss = [{'main/loss': float(v)} for v in range(10)]
    return [
        _early(c, loss, check_trigger=(1, 'iteration'), verbose=True, patience=2),
        _early(c, loss, check_trigger=(1, 'iteration'), max_trigger=(3, 'iteration')),
        _early(
            c, loss, monitor='main/accuracy', verbose=True, max_trigger=(2, 'epoch')
        ),
    ]


def early_stopping_missing_monitor(c):
    return _early(c, [{}] * 4, check_trigger=(1, 'iteration'))


def early_stopping_arguments(c):
    tr = c.chainer.training.triggers
    plain = tr.EarlyStoppingTrigger()
    alias = tr.EarlyStoppingTrigger(patients=7)
    return [
        plain.patience,
        plain.monitor,
        plain.verbose,
        plain.count,
        plain.best,
        plain.already_warning,
        plain.get_training_length(),
        alias.patience,
        tr.EarlyStoppingTrigger(max_trigger=(5, 'iteration')).get_training_length(),
        _values.attempt(lambda: tr.EarlyStoppingTrigger(patience=1, patients=2)),
        _values.attempt(lambda: tr.EarlyStoppingTrigger(unknown=1)),
        _values.attempt(
            lambda: tr.EarlyStoppingTrigger(max_trigger=None).get_training_length()
        ),
    ]


PROBES = _values.probes(globals(), __name__)
