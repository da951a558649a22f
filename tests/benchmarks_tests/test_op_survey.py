"""benchmarks/op_survey.py: every case runs forward and backward in
chainerlite (tiny arrays), and the table reports each one."""

import importlib.util
import pathlib

import pytest

_PATH = pathlib.Path(__file__).resolve().parents[2] / 'benchmarks' / 'op_survey.py'
_spec = importlib.util.spec_from_file_location('op_survey', _PATH)
op_survey = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(op_survey)


def test_every_case_runs_in_chainerlite():
    results = op_survey.measure([], 1, 'tiny', torch_wanted=False)
    assert len(results) >= 30
    for name, times in results.items():
        assert set(times) == {'forward', 'both'}, name
        assert all(t > 0 for t in times.values()), name
    text = op_survey.table(results)
    assert text.count('\n') == len(results) + 1  # header, rule, one row each
    assert all(f'| {name} |' in text for name in results)


def test_ratios_against_pytorch_where_installed():
    pytest.importorskip('torch')
    results = op_survey.measure(['relu', 'softmax'], 1, 'tiny')
    text = op_survey.table(results)
    assert 'x PyTorch' in text
    assert set(results['relu']) == {'forward', 'both', 'torch_forward', 'torch_both'}


def test_unknown_case():
    with pytest.raises(ValueError, match='unknown cases'):
        op_survey.measure(['no_such_function'], 1, 'tiny', torch_wanted=False)
