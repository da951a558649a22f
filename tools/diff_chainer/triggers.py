"""Runner for ``chainer.training.triggers``: the same trigger, polled once
per iteration of the same simulated training run (iterations, epochs and
reported values), then serialized."""

import operator

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S

NOT_COVERED = {'TimeTrigger': 'fires on wall-clock time'}
units = st.sampled_from(['iteration', 'epoch'])


class FakeUpdater:
    """The position a trigger reads, moved by ``FakeTrainer.step``."""

    def __init__(self, per_epoch):
        self.per_epoch = per_epoch
        self.iteration = 0
        self.epoch = 0
        self.epoch_detail = 0.0
        self.previous_epoch_detail = None
        self.is_new_epoch = False


class FakeTrainer:
    def __init__(self, per_epoch):
        self.updater = FakeUpdater(per_epoch)
        self.observation = {}

    def step(self, value):
        u = self.updater
        u.previous_epoch_detail = u.epoch_detail
        u.iteration += 1
        u.epoch_detail = u.iteration / u.per_epoch
        epoch = u.iteration // u.per_epoch
        u.is_new_epoch = epoch != u.epoch
        u.epoch = epoch
        self.observation = {'main/loss': value}


@st.composite
def trigger_arguments(draw, name):
    """Positional and keyword arguments of trigger ``name``."""
    interval = (draw(st.integers(1, 4)), draw(units))
    if name == 'IntervalTrigger':
        return interval, {}
    if name == 'ManualScheduleTrigger':
        points = draw(st.lists(st.integers(1, 10), max_size=4))
        return (points or draw(st.integers(1, 10)), draw(units)), {}
    if name in ('MaxValueTrigger', 'MinValueTrigger'):
        return ('main/loss', interval), {}
    if name == 'BestValueTrigger':
        return (
            'main/loss',
            draw(st.sampled_from([operator.gt, operator.le])),
            interval,
        ), {}
    if name == 'OnceTrigger':
        return (), {'call_on_resume': draw(st.booleans())}
    if name == 'EarlyStoppingTrigger':
        kwargs = {
            'check_trigger': interval,
            'monitor': 'main/loss',
            'patience': draw(st.integers(1, 3)),
            'mode': draw(st.sampled_from(['auto', 'min', 'max'])),
            'max_trigger': (draw(st.integers(5, 30)), 'iteration'),
        }
        return (), kwargs
    raise ValueError(f'no arguments for trigger {name}')


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name in NOT_COVERED:
        return NOT_COVERED[name]

    def draw_case(data):
        arguments = data.draw(trigger_arguments(name))
        per_epoch = data.draw(st.integers(1, 5))
        values = S.make_array(data.draw(S.seeds), (20,), numpy.float64).tolist()
        args, kwargs = arguments

        def polled(lib, s):
            s['trigger'] = getattr(lib.training.triggers, name)(*args, **kwargs)
            trainer = FakeTrainer(per_epoch)
            fired = []
            for value in values:
                trainer.step(value)
                fired.append(bool(s['trigger'](trainer)))
            return fired

        label = f'{name}(*{args}, **{kwargs}) per_epoch={per_epoch}'
        stages = [('fired', polled), ('serialize', pair.serialized('trigger'))]
        pair.run_case(libs, stages, tally, label)

    pair.explore(draw_case, examples, seconds)
