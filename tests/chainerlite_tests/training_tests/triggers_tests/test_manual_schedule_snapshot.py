"""ManualScheduleTrigger's snapshot holds ``finished`` as Chainer 7.8.1's
does (found by the differential harness, tools/diff_chainer)."""

import types

from chainerlite import serializers
from chainerlite.training import triggers


def _trainer(iteration):
    updater = types.SimpleNamespace(
        iteration=iteration, epoch_detail=iteration / 10, previous_epoch_detail=None
    )
    return types.SimpleNamespace(updater=updater)


def test_finished_is_saved_and_loaded():
    trigger = triggers.ManualScheduleTrigger([1, 2], 'iteration')
    for iteration in (1, 2):
        trigger(_trainer(iteration))
    saved = {}
    trigger.serialize(serializers.DictionarySerializer(saved))
    assert sorted(saved) == ['finished', 'previous_epoch_detail', 'previous_iteration']
    assert bool(saved['finished']) is True
    fresh = triggers.ManualScheduleTrigger([1, 2], 'iteration')
    fresh.serialize(serializers.NpzDeserializer(saved))
    assert fresh.finished is True


def test_snapshot_without_finished_loads_as_not_finished():
    trigger = triggers.ManualScheduleTrigger([1, 2], 'iteration')
    saved = {}
    trigger.serialize(serializers.DictionarySerializer(saved))
    del saved['finished']
    trigger.finished = True
    trigger.serialize(serializers.NpzDeserializer(saved))
    assert trigger.finished is False
