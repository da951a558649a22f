"""EarlyStoppingTrigger sums a value reported at a call that stops on
``max_trigger`` into the next check, as Chainer 7.8.1 does (found by the
differential harness, tools/diff_chainer; the firing sequence is
Chainer's, recorded)."""

import types

from chainerlite.training import triggers


class _Trainer:
    def __init__(self):
        self.updater = types.SimpleNamespace(
            iteration=0, epoch=0, epoch_detail=0.0, previous_epoch_detail=None
        )
        self.observation = {}

    def step(self, value):
        u = self.updater
        u.previous_epoch_detail = u.epoch_detail
        u.iteration += 1
        u.epoch = u.iteration
        u.epoch_detail = float(u.iteration)
        self.observation = {'main/loss': value}


def test_firing_sequence_is_chainers():
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, 'iteration'),
        monitor='main/loss',
        patience=1,
        max_trigger=(8, 'iteration'),
    )
    trainer = _Trainer()
    fired = []
    for value in [0.5, 0.4, 0.6, 0.7, 0.3, 0.8, 0.9, 1.0, 0.2, 0.1]:
        trainer.step(value)
        fired.append(bool(trigger(trainer)))
    # the 9th: the mean of 1.0 (reported at the 8th) and 0.2 is no better
    assert fired == [False, False, True, True, False, True, True, True, True, False]
