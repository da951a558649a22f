"""What triggers expose and when they fire at the edges, as Chainer 7.8.1's
do (found by the surface probes, tools/surface_probes/triggers.py):
IntervalTrigger's ``count``, ManualScheduleTrigger's ``finished`` and its
loading without it, a best-value trigger whose key was not observed,
EarlyStoppingTrigger's ``best``, its printed comparison and its warning."""

import contextlib
import io
import types
import warnings

import pytest

from chainerlite import serializers
from chainerlite.training import triggers


class _Trainer:
    """Four iterations per epoch; ``step`` moves one iteration on."""

    def __init__(self):
        self.updater = types.SimpleNamespace(
            iteration=0, epoch=0, epoch_detail=0.0, previous_epoch_detail=None
        )
        self.observation = {}

    def step(self, observation=None):
        u = self.updater
        u.previous_epoch_detail = u.epoch_detail
        u.iteration += 1
        u.epoch = u.iteration // 4
        u.epoch_detail = u.iteration / 4
        self.observation = observation or {}


def _fired(trigger, observations):
    trainer, out = _Trainer(), []
    for observation in observations:
        trainer.step(observation)
        out.append(bool(trigger(trainer)))
    return out


def test_interval_trigger_counts_whole_periods_of_epochs_only():
    trigger = triggers.IntervalTrigger(0.5, 'epoch')
    assert trigger.count == 0
    assert _fired(trigger, [None] * 7) == [False, True] * 3 + [False]
    assert trigger.count == 3.0  # 1.75 epochs // 0.5
    by_iteration = triggers.IntervalTrigger(2, 'iteration')
    _fired(by_iteration, [None] * 5)
    assert by_iteration.count == 0


def test_manual_schedule_finished_only_when_it_fires_at_the_last_point():
    trigger = triggers.ManualScheduleTrigger([2, 3], 'iteration')
    trainer = _Trainer()
    trainer.step()
    trainer.step()
    trigger(trainer)
    assert not trigger.finished
    trainer.step()
    assert trigger(trainer) and trigger.finished
    # no points: never fires, never finished
    empty = triggers.ManualScheduleTrigger([], 'iteration')
    assert _fired(empty, [None] * 3) == [False] * 3 and not empty.finished
    # a tuple is taken as a list (Chainer's trigger fails at its first call)
    assert triggers.ManualScheduleTrigger((2, 3), 'iteration').points == [2, 3]
    assert triggers.ManualScheduleTrigger(2, 'epoch').points == [2]


def test_manual_schedule_loaded_without_finished_sets_it_at_the_next_call():
    trigger = triggers.ManualScheduleTrigger([2], 'iteration')
    with pytest.warns(UserWarning) as record:
        trigger.serialize(serializers.NpzDeserializer({}))
    # the previous iteration, the previous epoch and the finished flag
    assert len(record) == 3 and 'finished' in str(record[2].message)
    trainer = _Trainer()
    for _ in range(4):
        trainer.step()
    assert not trigger(trainer)  # guessed previous iteration: 3, past the point
    assert trigger.finished


def test_best_value_trigger_without_the_key_raises_key_error():
    trigger = triggers.MaxValueTrigger('main/accuracy', trigger=(2, 'iteration'))
    assert _fired(trigger, [{'main/accuracy': 0.5}, {}]) == [False, True]
    trigger = triggers.MaxValueTrigger('main/accuracy', trigger=(2, 'iteration'))
    trainer = _Trainer()
    trainer.step()
    trigger(trainer)
    trainer.step()
    with pytest.raises(KeyError, match='main/accuracy'):
        trigger(trainer)


def test_early_stopping_best_and_verbose_comparison():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        trigger = triggers.EarlyStoppingTrigger(
            check_trigger=(1, 'iteration'), monitor='main/accuracy', verbose=True
        )
    assert out.getvalue() == 'early stopping: operator is greater\n'
    assert trigger.best == float('-inf')
    _fired(trigger, [{'main/accuracy': v} for v in (0.25, 0.5, 0.375)])
    assert trigger.best == 0.5 and trigger.count == 1
    quiet = triggers.EarlyStoppingTrigger()
    assert quiet.best == float('inf')


def test_early_stopping_warns_at_each_check_without_the_monitor():
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'), patience=1)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter('always')
        fired = _fired(
            trigger,
            [{}, {}, {'main/loss': 2.0}, {'main/loss': 3.0}, {'main/loss': 1.0}],
        )
    assert fired == [False, False, False, True, False]
    assert len(record) == 2 and 'main/loss' in str(record[0].message)
    # the values waiting at a check without the monitor stay summed
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(2, 'iteration'), patience=1)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter('always')
        _fired(trigger, [{'main/loss': 4.0}, {}, {}, {'main/loss': 2.0}])
    assert trigger.best == 3.0
