"""tools/onnx_probe: the calls, one library's records and the scoring."""

import numpy as np
import pytest

from tools import kink_cases
from tools.onnx_probe import __main__ as probe_main
from tools.onnx_probe import calls
from tools.onnx_probe import child

_RUNS = {'export': 'ok', 'run': 'ok', 'agree': True, 'error': 0.0}
_REFUSED = {'export': 'ValueError: X is not supported', 'run': None, 'agree': None}


def test_every_kink_case_and_the_extra_calls_are_probed():
    keys = calls.cases()
    assert {c.key for c in kink_cases.CASES} | {c.key for c in calls.EXTRA} == set(keys)
    assert all(case.call is not None for case in keys.values())


def test_redrawn_inputs_are_finite_float32_and_labels_are_kept():
    case = calls.cases()['softmax_cross_entropy/rows']
    inputs, arrays = calls.redrawn(case, 3)
    assert arrays == [0, 1]
    assert inputs[0].dtype == np.float32 and inputs[0].shape == case.inputs[0].shape
    assert ((inputs[0] >= calls.LOW) & (inputs[0] < calls.HIGH)).all()
    np.testing.assert_array_equal(inputs[1], case.inputs[1])
    assert calls.redrawn(case, 3, labels=False)[1] == [0]
    assert calls.redrawn(case, 3, dtype=np.float16)[0][0].dtype == np.float16


def _chainerlite():
    pytest.importorskip('onnx')
    ort = pytest.importorskip('onnxruntime')
    import chainerlite
    import chainerlite.onnx

    return chainerlite, chainerlite.onnx, ort


@pytest.mark.parametrize(
    'key, dtype',
    [
        ('relu/special_float32', 'float32'),
        ('maxout/last_axis', 'float32'),
        ('mul/x*0', 'float16'),
        ('gaussian_nll/mean', 'float64'),
    ],
)
def test_an_exported_call_agrees_with_the_forward(key, dtype):
    record = child.probe(*_chainerlite(), calls.cases()[key], 0, 11, dtype)
    assert record['export'] == 'ok' and record['run'] == 'ok'
    assert record['agree'] is True
    assert record['ops'] and 'Constant' not in record['ops']


def test_a_refused_call_records_the_exporters_error():
    record = child.probe(*_chainerlite(), calls.cases()['cumsum/rows'], 0, 11)
    assert record['export'] == 'ValueError: Cumsum is not supported'
    assert record['run'] is None


def test_disagreement_is_found_with_the_largest_difference():
    expected = [np.array([1.0, 2.0], np.float32)]
    assert child._compare([np.array([1.0, 2.5], np.float32)], expected) == (False, 0.5)
    assert child._compare([np.array([1.0, 2.0], np.float64)], expected)[0] is False
    assert child._compare([np.array([1.0, 2.00001], np.float32)], expected)[0]


def test_summary_counts_calls_and_functions_by_kind():
    chainer = {
        'f/a@9@float32': _RUNS,
        'f/b@9@float32': _RUNS,
        'g/a@9@float32': _REFUSED,
        'h/a@9@float32': _RUNS,
        'h/a@9@float16': _RUNS,
    }
    chainerlite = {
        'f/a@9@float32': _RUNS,
        'f/b@9@float32': _REFUSED,
        'g/a@9@float32': _RUNS,
        'h/a@9@float32': dict(_RUNS, agree=False),
        'h/a@9@float16': _REFUSED,
    }
    calls_by_kind, functions, disagree = probe_main.summary(chainer, chainerlite)
    assert calls_by_kind['9@float32'] == {
        'both': 2,
        'only_chainer': 1,
        'only_chainerlite': 1,
    }
    assert calls_by_kind['9@float16'] == {'only_chainer': 1}
    # f is exported by both through f/a
    assert functions['9@float32'] == {'both': 2, 'only_chainerlite': 1}
    assert disagree == {'chainer': [], 'chainerlite': ['h/a@9@float32']}


def test_unexpected_names_unlisted_problems_and_stale_entries():
    chainer = {'f/a@9': _RUNS, 'g/a@9': _RUNS, 'h/a@9': _RUNS}
    chainerlite = {'f/a@9': _REFUSED, 'g/a@9': dict(_RUNS, agree=False), 'h/a@9': _RUNS}
    known = {'only_chainer': {}, 'disagree': {'g/a@9': 'why', 'h/a@9': 'why'}}
    assert probe_main.unexpected(chainer, chainerlite, known) == [
        'only Chainer exports: f/a@9',
        'known.json lists, fixed: h/a@9 (chainerlite disagrees with its forward)',
    ]


def test_extra_ops_lists_operator_types_only_chainerlites_file_has():
    chainer = {
        'f/a@9@float32': dict(_RUNS, ops=['Add', 'Mul']),
        'g/a@9@float32': dict(_RUNS, ops=['ReduceMean']),
        'h/a@9@float32': dict(_RUNS, ops=['Add']),
    }
    chainerlite = {
        'f/a@9@float32': dict(_RUNS, ops=['Mul']),
        'g/a@9@float32': dict(_RUNS, ops=['Div', 'ReduceSum']),
        'h/a@9@float32': _REFUSED,
    }
    assert probe_main.extra_ops(chainer, chainerlite) == {
        'g/a@9@float32': ['Div', 'ReduceSum']
    }
