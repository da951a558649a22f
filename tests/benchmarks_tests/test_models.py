"""The model steps of benchmarks/models: tiny versions run in chainerlite,
agree with PyTorch where it is installed, and measure.py / the compare.py
section report them."""

import json
import math
import mmap
import subprocess
import sys

import numpy as np
import pytest

import models
from models import _common
from models import measure
from models import section

MEASURE = str(section.MEASURE)


@pytest.mark.parametrize('model', models.MODELS)
def test_tiny_step_updates_in_chainerlite(model):
    step = models.make_step('chainerlite', model, 3, 'tiny', dropout=0.0)
    losses = [step() for _ in range(4)]
    assert all(math.isfinite(v) for v in losses)
    assert len(set(losses)) == 4  # each step's update changed the loss


def test_loaders_refuse_missing_and_unused_arrays():
    import chainerlite

    link = chainerlite.links.Linear(2, 3)
    arrays = {'/W': np.ones((3, 2), np.float32), '/b': np.zeros(3, np.float32)}
    _common.load_chainer(link, arrays)
    np.testing.assert_array_equal(link.W.array, arrays['/W'])
    with pytest.raises(ValueError, match=r"no array for \['/b'\]"):
        _common.load_chainer(link, {'/W': arrays['/W']})
    with pytest.raises(ValueError, match=r"unused: \['/c'\]"):
        _common.load_chainer(link, dict(arrays, **{'/c': arrays['/b']}))


@pytest.mark.parametrize('model', models.MODELS)
def test_same_losses_as_pytorch(model):
    pytest.importorskip('torch')
    ours = models.make_step('chainerlite', model, 3, 'tiny', dropout=0.0)
    theirs = models.make_step('torch', model, 3, 'tiny', dropout=0.0)
    for _ in range(3):  # the updates agree too
        np.testing.assert_allclose(ours(), theirs(), rtol=1e-4)


def test_unknown_model():
    with pytest.raises(ValueError, match='unknown model'):
        models.make_step('chainerlite', 'vgg', 2)


def _measure(*argv, parse=json.loads):
    done = subprocess.run(
        [sys.executable, MEASURE, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return parse(done.stdout)


def test_measure_time_interleaves_the_libraries():
    rows = _measure('time', '--size', 'tiny', '--rounds', '2', '--models', 'lstm_lm')[
        'rows'
    ]
    libraries = [r['library'] for r in rows]
    assert 'chainerlite' in libraries
    assert {r['batch'] for r in rows} == set(models.BATCHES['lstm_lm'])
    for r in rows:
        assert len(r['samples']['cpu']) == 2
        assert 0 < r['cpu min'] <= r['cpu median']


def test_measure_peak_of_a_step():
    tree = str(section.MEASURE.parents[2])  # this checkout, by its path
    row = _measure(
        'peak', 'chainerlite', 'resnet18', '8', '--size', 'tiny', '--tree', tree
    )
    assert row['rss_peak'] >= 0
    # the traced peak of a step holds at least the activations of the stem
    assert row['traced_peak'] > 8 * 4 * 8 * 8 * 4


def test_measure_profile_lists_functions():
    out = _measure('profile', 'lstm_lm', '3', '--size', 'tiny', '--top', '4', parse=str)
    timer, _, profile = out.partition('function calls')
    assert 'Recurrence' in timer and 'SoftmaxCrossEntropy' in timer
    assert 'Ordered by: internal time' in profile


def test_high_water_reset_follows_the_rss():
    if not measure.reset_high_water() or measure.rss_status() is None:
        pytest.skip('no /proc/self/clear_refs')
    rss, hwm = measure.rss_status()
    # 64 MiB of fresh pages touched: a new anonymous mapping, since NumPy's
    # allocations may come from chainerlite's cache of freed blocks, which
    # can hold resident ones after the other tests
    block = mmap.mmap(-1, 64 * 2**20)
    np.frombuffer(block, np.uint8)[:] = 1
    assert measure.rss_status()[1] - hwm >= 60 * 2**20
    block.close()


def test_section_quick_tables_and_targets(capsys):
    result = section.run(quick=True, size='tiny')
    us, peak = section.stats(result)
    small = {m: models.BATCHES[m][0] for m in models.MODELS}
    for model, batch in small.items():
        assert f'models:chainerlite {model} b{batch} 1T' in us
        assert f'models:chainerlite {model} b{batch}' in peak
    section.print_tables(result)
    out = capsys.readouterr().out
    assert out.count('\nresnet18 ') == 2 and '[models] peak memory' in out
    goals = section.targets()
    assert len(goals) == 3 * 2 * 3  # two thread counts and a peak per batch
    assert all(name.startswith('chainerlite ') for _, name, *_ in goals)
