"""The differential harness end to end with chainerlite on both sides: every
runner makes cases and finds no difference between a library and itself,
and names are routed to their runners (no Chainer needed)."""

import types

import numpy
import pytest

import chainerlite

# the harness's references compute with SciPy (the NumPy 1 venv has none)
pytest.importorskip('scipy', reason='the harness needs SciPy')

from tools.diff_chainer import dispatch  # noqa: E402
from tools.diff_chainer import generic
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
    'chainer.training.extensions.LogReport',
    'chainer.training.extensions.snapshot',
    'chainer.training.get_trigger',
    'chainer.Variable',
    'chainer.config',
    'chainer.testing.assert_allclose',
    'chainer.serializers.save_npz',
    'chainer.serializers.NpzDeserializer',
    'chainer.function_hooks.PrintHook',
    'chainer.function_hooks.TimerHook',
    'chainer.link_hooks.SpectralNormalization',
    'chainer.LinkHook',
    'chainer.FunctionHook',
    'chainer.grad',
    'chainer.backward',
    'chainer.using_config',
    'chainer.FunctionNode',
    'chainer.Parameter',
    'chainer.Summary',
    'chainer.dataset.concat_examples',
    'chainer.utils.WalkerAlias',
    'chainer.backend.CpuDevice',
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


def test_names_without_a_runner_of_their_kind_run_as_objects():
    runner = dispatch.runner_for('chainer.testing.assert_allclose', len, chainerlite)
    assert runner is generic.run


def test_signatures_that_bind_calls_differently_are_found():
    def chainer_side(x, axis=None, *, keep=False):
        pass

    def renamed(y, axis=None, *, keep=False):
        pass

    def keyword_only(x, *, axis=None, keep=False):
        pass

    def other_default(x, axis=0, keep=False, extra=1):
        pass

    def more(x, axis=None, keep=False, extra=1):
        pass

    expected = generic.signature(chainer_side)
    assert generic.incompatible(expected, generic.signature(more)) == []
    assert 'no x' in generic.incompatible(expected, generic.signature(renamed))
    assert 'axis keyword-only' in generic.incompatible(
        expected, generic.signature(keyword_only)
    )
    assert 'axis=0 vs None' in generic.incompatible(
        expected, generic.signature(other_default)
    )


def test_a_missing_attribute_is_found():
    class Chainers:
        def method(self):
            pass

    class Ours:
        pass

    scratch = {}
    assert generic.attributes(Chainers, scratch, 'a') == 'lacks: '
    assert generic.attributes(Ours, {'peer': scratch}, 'a') == 'lacks: method'


class _Shifted:
    """chainerlite, but with ``optimizers.MomentumSGD`` taking twice the
    learning rate asked for."""

    def __init__(self):
        base = chainerlite.optimizers
        self.optimizers = types.SimpleNamespace(
            MomentumSGD=lambda lr, **kw: base.MomentumSGD(lr=2 * lr, **kw)
        )

    def __getattr__(self, name):
        return getattr(chainerlite, name)


def test_a_changed_training_run_is_found():
    tally = pair.Tally()
    runner = dispatch.runner_for('chainer.training.Trainer', None, chainerlite)
    runner('chainer.training.Trainer', (chainerlite, _Shifted()), tally, 4, 10.0)
    assert tally.aspects.get('train', 0) > 0


def test_printed_numbers_are_masked_with_their_padding():
    from tools.diff_chainer import training

    # PrintReport pads each number to its column: 0.24806 and 0.248059 (one
    # float32 rounding apart) print alike once masked; text does not
    chainer_line = '7           5           0.24806     0.1         \n'
    lite_line = '7           5           0.248059    0.1         \n'
    assert training._text(chainer_line) == training._text(lite_line) == '# # # # \n'
    assert training._text('main/loss 1.5') != training._text('main/lost 1.5')
