import io
from unittest import mock

import pytest

from chainerlite import serializers
from chainerlite import testing
from chainerlite.training import extensions


def _values(extension, n_calls, start=None):
    optimizer = mock.Mock()
    optimizer.lr = start
    trainer = testing.get_trainer_with_mock_updater()
    trainer.updater.get_optimizer.return_value = optimizer
    extension.initialize(trainer)
    values = [optimizer.lr]
    for _ in range(n_calls):
        extension(trainer)
        values.append(optimizer.lr)
    return values


@pytest.mark.parametrize(
    'extension, start, expected',
    [
        (extensions.ExponentialShift('lr', 0.5), 4.0, [4.0, 2.0, 1.0, 0.5]),
        (
            extensions.ExponentialShift('lr', 0.5, init=8.0, target=3.0),
            None,
            [8.0, 4.0, 3.0, 3.0],
        ),
        (
            extensions.ExponentialShift('lr', 3.0, init=1.0, target=5.0),
            None,
            [1.0, 3.0, 5.0, 5.0],
        ),
        (
            extensions.StepShift('lr', 0.1, 2, init=1.0),
            None,
            [1.0, 1.0, 0.1, 0.1, 0.1**2],
        ),
        (extensions.MultistepShift('lr', 0.5, [1, 3], 2.0), None, [2.0, 1.0, 1.0, 0.5]),
        (
            extensions.PolynomialShift('lr', 2.0, 4, init=1.0),
            None,
            [1.0, 0.75**2, 0.5**2, 0.25**2, 0.0, 0.0],
        ),
        (
            extensions.InverseShift('lr', 0.5, 2.0, init=1.0),
            None,
            [1.0, 1.5**-2, 2.0**-2],
        ),
        (
            extensions.LinearShift('lr', (1.0, 3.0), (1, 3)),
            None,
            [1.0, 1.0, 2.0, 3.0, 3.0],
        ),
        (
            extensions.WarmupShift('lr', 0.0, 4, init=1.0),
            None,
            [0.0, 0.25, 0.5, 0.75, 1.0, 1.0],
        ),
    ],
)
def test_schedules(extension, start, expected):
    assert _values(extension, len(expected) - 1, start) == pytest.approx(expected)


def test_explicit_optimizer_and_resume(tmp_path):
    optimizer = mock.Mock()
    optimizer.momentum = 0.0
    trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    trainer.out = str(tmp_path)
    shift = extensions.ExponentialShift('momentum', 2.0, init=0.25, optimizer=optimizer)
    trainer.extend(shift)
    trainer.run()
    assert optimizer.momentum == 2.0
    buf = io.BytesIO()
    serializers.save_npz(buf, shift)
    new_optimizer = mock.Mock()
    resumed = extensions.ExponentialShift(
        'momentum', 2.0, init=0.25, optimizer=new_optimizer
    )
    buf.seek(0)
    serializers.load_npz(buf, resumed)
    resumed.initialize(trainer)
    assert new_optimizer.momentum == 2.0
    assert isinstance(new_optimizer.momentum, float)
    resumed(trainer)
    assert new_optimizer.momentum == 4.0


def test_invalid_arguments():
    with pytest.raises(ValueError, match='rate'):
        extensions.ExponentialShift('lr', -0.5)
    with pytest.raises(ValueError, match='gamma'):
        extensions.InverseShift('lr', -1.0, 1.0)


def test_the_initial_value_is_the_last_value_saved():
    # Chainer 7.8.1 saves the value set at initialization as _last_value
    # before the first call (found by the differential harness)
    shift = extensions.ExponentialShift('lr', 0.5)
    _values(shift, 0, start=4.0)
    target = serializers.DictionarySerializer()
    target.save(shift)
    assert target.target['_last_value'] == 4.0


def test_multistep_shift_saves_chainers_keys_and_resumes():
    # Chainer 7.8.1's keys: _t and _current_step (the steps taken)
    shift = extensions.MultistepShift('lr', 0.5, [1, 3], 2.0)
    _values(shift, 3)
    target = serializers.DictionarySerializer()
    target.save(shift)
    assert sorted(target.target) == ['_current_step', '_t']
    assert (target.target['_t'], target.target['_current_step']) == (3, 2)
    resumed = extensions.MultistepShift('lr', 0.5, [1, 3], 2.0)
    serializers.NpzDeserializer(target.target).load(resumed)
    assert _values(resumed, 1) == [0.5, 0.5]


def test_warmup_shift_saves_only_its_count():
    shift = extensions.WarmupShift('lr', 0.0, 4, 1.0)
    _values(shift, 2)
    target = serializers.DictionarySerializer()
    target.save(shift)
    assert sorted(target.target) == ['_t']
    resumed = extensions.WarmupShift('lr', 0.0, 4, 1.0)
    serializers.NpzDeserializer(target.target).load(resumed)
    assert _values(resumed, 1) == [0.5, 0.75]


def test_warmup_leaves_the_attribute_to_a_decay_after_the_warmup():
    optimizer = mock.Mock()
    optimizer.lr = 0.1
    trainer = testing.get_trainer_with_mock_updater((6, 'iteration'))
    trainer.updater.get_optimizer.return_value = optimizer
    step = extensions.StepShift('lr', 0.5, 2)
    # the warm-up comes second: each iteration it is called after the decay
    warmup = extensions.WarmupShift('lr', 0.0, 2, 0.1)
    step.initialize(trainer)
    warmup.initialize(trainer)
    values = []
    for _ in range(6):
        step(trainer)
        warmup(trainer)
        values.append(optimizer.lr)
    # 0.05, 0.1 from the warm-up, then the step decay's 0.1 * 0.5 ** (t // 2)
    assert values == pytest.approx([0.05, 0.1, 0.05, 0.025, 0.025, 0.0125])


def test_warmup_start_none_is_the_attribute_s_value():
    assert _values(extensions.WarmupShift('lr', None, 2, 1.0), 3, 0.5) == (
        pytest.approx([0.5, 0.75, 1.0, 1.0])
    )
