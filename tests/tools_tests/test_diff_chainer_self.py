"""The differential harness end to end with chainerlite on both sides: every
runner makes cases and finds no difference between a library and itself,
and names are routed to their runners (no Chainer needed)."""

import types

import numpy
import pytest

import chainerlite
from tools.diff_chainer import dispatch
from tools.diff_chainer import names
from tools.diff_chainer import pair

LIBS = (chainerlite, chainerlite)
CASES = [
    'chainer.functions.relu',
    'chainer.functions.sum',
    'chainer.functions.linear',
    'chainer.links.Linear',
    'chainer.optimizers.Adam',
    'chainer.optimizer_hooks.WeightDecay',
    'chainer.initializers.Constant',
    'chainer.iterators.SerialIterator',
    'chainer.distributions.Normal',
    'chainer.training.triggers.IntervalTrigger',
    'chainer.datasets.split_dataset_random',
    'chainer.reporter.DictSummary',
    'chainer.reporter.report_scope',
]


@pytest.mark.parametrize('qualified', CASES)
def test_a_library_agrees_with_itself(qualified):
    obj = names.twin(qualified)
    runner = dispatch.runner_for(qualified, obj, chainerlite)
    assert callable(runner), runner
    tally = pair.Tally()
    assert runner(qualified, LIBS, tally, 8, 10.0) is None
    assert tally.cases > 0 and tally.agreed == tally.cases, tally.examples
    assert tally.both_ran > 0


def test_a_changed_result_is_found():
    # chainerlite against a stand-in whose relu is off by one
    F = chainerlite.functions
    public = {n: getattr(F, n) for n in dir(F) if not n.startswith('_')}
    shifted = types.SimpleNamespace(
        Variable=chainerlite.Variable,
        using_config=chainerlite.using_config,
        grad=chainerlite.grad,
        functions=types.SimpleNamespace(**public),
    )
    shifted.functions.relu = lambda x: F.relu(x) + 1
    tally = pair.Tally()
    runner = dispatch.runner_for('chainer.functions.relu', F.relu, chainerlite)
    runner('chainer.functions.relu', (chainerlite, shifted), tally, 8, 10.0)
    assert tally.aspects.get('forward', 0) > 0
    assert tally.agreed < tally.cases


def test_names_leave_out_modules_and_foreign_objects():
    found = names.public_names(['chainerlite.functions'])
    assert 'chainerlite.functions.relu' in found
    assert not any(isinstance(v, type(numpy)) for v in found.values())
    assert 'chainerlite.functions.numpy' not in found


def test_names_without_a_runner_say_so():
    reason = dispatch.runner_for('chainer.testing.assert_allclose', len, chainerlite)
    assert reason == 'no runner for a function of chainer.testing yet'
