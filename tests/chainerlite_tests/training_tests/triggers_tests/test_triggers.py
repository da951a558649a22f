import io

import numpy as np
import pytest

from chainerlite import serializers
from chainerlite import testing
from chainerlite import training
from chainerlite.training import triggers


def _fires(trigger, n, iter_per_epoch=1, call_at=None):
    trainer = testing.get_trainer_with_mock_updater(None, iter_per_epoch=iter_per_epoch)
    fired = []
    for _ in range(n):
        trainer.updater.update()
        it = trainer.updater.iteration
        if call_at is None or it in call_at:
            if trigger(trainer):
                fired.append(it)
    return fired


@pytest.mark.parametrize(
    'period, unit, ipe, expected',
    [
        (3, 'iteration', 1, [3, 6, 9]),
        (1, 'epoch', 4, [4, 8]),
        (1.5, 'epoch', 2, [3, 6, 9]),
        (1, 'epoch', 2.5, [3, 5, 8, 10]),
    ],
)
def test_interval_trigger(period, unit, ipe, expected):
    assert _fires(triggers.IntervalTrigger(period, unit), 10, ipe) == expected


def test_interval_trigger_sparse_calls_fire_once_per_gap():
    # Called at 2, 5 and 8 only: boundaries 3 and 6 were crossed before 5
    # and 8.
    fired = _fires(triggers.IntervalTrigger(3, 'iteration'), 9, call_at={2, 5, 8})
    assert fired == [5, 8]


def test_interval_trigger_resumes_and_str():
    trainer = testing.get_trainer_with_mock_updater(None, iter_per_epoch=1)
    trigger = triggers.IntervalTrigger(4, 'iteration')
    for _ in range(3):
        trainer.updater.update()
        assert not trigger(trainer)
    buf = io.BytesIO()
    serializers.save_npz(buf, trigger)
    resumed = triggers.IntervalTrigger(4, 'iteration')
    buf.seek(0)
    serializers.load_npz(buf, resumed)
    trainer.updater.update()
    assert resumed(trainer)
    assert str(resumed) == "IntervalTrigger(4, 'iteration')"
    assert resumed.get_training_length() == (4, 'iteration')


def test_interval_trigger_refuses_a_period_that_is_not_positive():
    # a zero period: also Chainer 7.8.1's ZeroDivisionError (raised at its
    # first call there); a negative one is only chainerlite's ValueError
    for unit in ('iteration', 'epoch'):
        with pytest.raises(ZeroDivisionError, match='positive') as info:
            triggers.IntervalTrigger(0, unit)
        assert isinstance(info.value, ValueError)
        with pytest.raises(ValueError, match='positive'):
            triggers.IntervalTrigger(-1, unit)


def test_manual_schedule_trigger():
    trigger = triggers.ManualScheduleTrigger([2, 5], 'iteration')
    assert _fires(trigger, 7) == [2, 5]
    assert trigger.finished
    trigger = triggers.ManualScheduleTrigger(1.5, 'epoch')
    assert _fires(trigger, 5, iter_per_epoch=2) == [3]
    with pytest.raises(ValueError, match='unit'):
        triggers.ManualScheduleTrigger(1, 'hour')


def test_once_trigger_and_call_on_resume():
    trigger = triggers.OnceTrigger(call_on_resume=True)
    assert not trigger.finished
    assert _fires(trigger, 3) == [1]
    assert trigger.finished
    buf = io.BytesIO()
    serializers.save_npz(buf, trigger)
    for call_on_resume, expected in [(True, [1]), (False, [])]:
        resumed = triggers.OnceTrigger(call_on_resume)
        buf.seek(0)
        serializers.load_npz(buf, resumed)
        assert _fires(resumed, 2) == expected


class _Clock(object):
    elapsed_time = 0.0


def test_time_trigger_catches_up_after_a_gap_and_saves_next_time():
    # as Chainer 7.8.1's: strictly after the next time, which moves on by one
    # period per firing (after a gap it fires at each call until caught up)
    trigger = triggers.TimeTrigger(1.0)
    clock = _Clock()
    fired = []
    for t in [0.5, 1.0, 1.1, 1.5, 4.7, 4.8, 5.0, 5.2]:
        clock.elapsed_time = t
        if trigger(clock):
            fired.append(t)
    assert fired == [1.1, 4.7, 4.8, 5.0, 5.2]
    saved = {}
    trigger.serialize(serializers.DictionarySerializer(saved))
    assert sorted(saved) == ['next_time'] and float(saved['next_time']) == 6.0
    fresh = triggers.TimeTrigger(1.0)
    fresh.serialize(serializers.NpzDeserializer(saved))
    clock.elapsed_time = 6.0
    assert not fresh(clock)
    clock.elapsed_time = 6.01
    assert fresh(clock)
    with pytest.raises(ValueError):
        triggers.TimeTrigger(0)


def _run_with_values(trigger, values, iter_per_epoch=1, key='main/loss'):
    trainer = testing.get_trainer_with_mock_updater(None, iter_per_epoch=iter_per_epoch)
    fired = []
    for value in values:
        trainer.updater.update()
        trainer.observation = {key: value}
        if trigger(trainer):
            fired.append(trainer.updater.iteration)
    return fired


def test_min_max_value_triggers_average_over_the_interval():
    values = [3.0, 1.0, 2.5, 2.5, 1.0, 1.0]  # pair means: 2, 2.5, 1
    assert _run_with_values(
        triggers.MinValueTrigger('main/loss', (2, 'iteration')), values
    ) == [2, 6]
    assert _run_with_values(
        triggers.MaxValueTrigger('main/loss', (2, 'iteration')), values
    ) == [2, 4]


def test_early_stopping_trigger():
    values = [5.0, 4.0, 4.5, 4.2, 4.1, 3.0]
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, 'iteration'),
        monitor='main/loss',
        patience=3,
        max_trigger=(100, 'iteration'),
    )
    assert _run_with_values(trigger, values) == [5]  # 3.0 improves
    accuracies = [0.1, 0.2, 0.15, 0.3]
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, 'iteration'), monitor='main/accuracy', patience=1
    )
    assert _run_with_values(trigger, accuracies, key='main/accuracy') == [3]
    trigger = triggers.EarlyStoppingTrigger(max_trigger=(2, 'iteration'))
    assert _run_with_values(trigger, [1.0] * 3) == [2]
    assert trigger.get_training_length() == (2, 'iteration')
    with pytest.raises(TypeError):
        triggers.EarlyStoppingTrigger(patience=1, patients=2)
    # as in Chainer, a mode other than 'max' and 'min' is 'auto'
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, 'iteration'), monitor='main/accuracy', mode='best', patience=1
    )
    assert _run_with_values(trigger, accuracies, key='main/accuracy') == [3]


def test_get_trigger():
    def fn(trainer):
        return True

    assert training.get_trigger(fn) is fn
    assert training.get_trigger(None)(None) is False
    assert isinstance(training.get_trigger((2, 'epoch')), triggers.IntervalTrigger)
    for bad in ['epoch', 3, (1, 2, 3)]:
        with pytest.raises(TypeError, match='trigger'):
            training.get_trigger(bad)
    with pytest.raises(ValueError, match='unit'):
        training.get_trigger((1, 'day'))
    np.testing.assert_equal(training.util.get_trigger is training.get_trigger, True)
