"""benchmarks/forget/curves.py and the residual MLP of benchmarks/models:
tiny points run in a fresh process and report what the curves plot."""

import json
import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from models import residual_mlp

CURVES = (
    pathlib.Path(__file__).resolve().parents[2] / 'benchmarks' / 'forget' / 'curves.py'
)


def _step(library):
    import importlib

    dims = residual_mlp.SIZES['tiny']
    arrays = residual_mlp.arrays(dims, 0)
    data = residual_mlp.data(dims, 3, 1)
    if library == 'torch':
        return residual_mlp.torch_step(dims, arrays, data)
    return residual_mlp.chainer_step(
        importlib.import_module(library), dims, arrays, data
    )


def test_residual_mlp_trains_in_chainerlite():
    step = _step('chainerlite')
    losses = [step() for _ in range(3)]
    assert all(math.isfinite(v) for v in losses) and len(set(losses)) == 3
    assert len(step.model.blocks) == residual_mlp.SIZES['tiny']['depth']


def test_residual_mlp_same_losses_as_pytorch():
    pytest.importorskip('torch')
    ours, theirs = _step('chainerlite'), _step('torch')
    for _ in range(3):
        np.testing.assert_allclose(ours(), theirs(), rtol=1e-4)


def _point(*argv):
    done = subprocess.run(
        [sys.executable, str(CURVES), '--size', 'tiny', '--rounds', '1', *argv],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_points_report_peak_and_time():
    plain = _point('--point', 'transformer', 'chainerlite', 'none')
    assert plain['step_ms'] > 0 and plain['traced_peak_mib'] > 0
    assert plain['rss_peak_mib'] >= 0
    # the tiny model's activations are a few percent of its peak (its
    # parameters and their gradients are the rest): a budget just below
    # the plain peak needs forgotten blocks
    budget = int(plain['traced_peak_mib'] * 2**20 * 0.97)
    plan = _point(
        '--point', 'transformer', 'chainerlite', 'plan-0.97', '--budget', str(budget)
    )
    assert plan['forgotten'], plan
    assert plan['predicted_traced_mib'] * 2**20 <= budget
    assert plan['traced_peak_mib'] < plain['traced_peak_mib']
    unreachable = _point(
        '--point', 'transformer', 'chainerlite', 'plan-0.01', '--budget', '100'
    )
    assert 'plan_forget: no choice' in unreachable['unreachable']


def test_plot_draws_the_curves(tmp_path):
    pytest.importorskip('matplotlib')
    points = [
        dict(model='m', library=lib, method=method, rss_peak_mib=mib, step_ms=ms)
        for lib, method, mib, ms in (
            ('torch', 'none', 10, 5),
            ('torch', 'torch-block', 6, 7),
            ('torch', 'torch-selective', 8, 6),
            ('chainerlite', 'none', 11, 4),
            ('chainerlite', 'forget-block', 7, 5),
            ('chainerlite', 'plan-0.8', 9, 4.5),
            ('chainerlite', 'plan-0.6', 7.5, 5),
        )
    ]
    path = tmp_path / 'curves.json'
    path.write_text(json.dumps({'batches': {'m': 2}, 'points': points}))
    done = subprocess.run(
        [sys.executable, str(CURVES), '--plot', str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / 'curves.png').stat().st_size > 10000


def test_update_in_backward_methods_train_as_the_plain_step():
    import importlib.util

    spec = importlib.util.spec_from_file_location('curves', CURVES)
    curves = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(curves)
    plain, during = (
        _step('chainerlite'),
        curves.updating_in_backward(_step('chainerlite')),
    )
    assert during.model.blocks is not None
    for _ in range(3):
        assert plain() == during()
    for (name, p), (_, q) in zip(
        sorted(plain.model.namedparams()), sorted(during.model.namedparams())
    ):
        assert (p.array == q.array).all(), name
        assert q.grad is None
    point = _point(
        '--point', 'residual_mlp', 'chainerlite', 'forget-block-release-update'
    )
    assert point['step_ms'] > 0 and point['traced_peak_mib'] > 0
