"""Values and gradients at kinks and special values agree with Chainer 7.8.1.

The oracle (``tests/chainerlite_tests/functions_tests/data/
kinks_chainer_7.8.1.json``) was recorded by ``python -m tools.kink_sweep
record`` with Chainer 7.8.1; these tests run the same cases with
chainerlite and compare them case by case: NaN positions, infinities and
their signs, finite values within the dtype's tolerance, dtypes and shapes
of outputs and gradients, and the exception type (and stage) where Chainer
raised. Each case runs plainly, with a function hook that watches forward
calls (the nodes' ``backward`` instead of their array-level shortcut) and
with double backprop. ``make test`` runs every case plainly and a third of
them in the other two modes; ``CHAINERLITE_FUZZ=full`` runs all of them.
"""

import importlib.util
import os
import pathlib

import pytest

import chainerlite.functions as F
from tools import kink_cases
from tools import kink_sweep

FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'
DIFFERENCES = pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'differences.rst'


@pytest.fixture(scope='module')
def oracle():
    return kink_sweep.load()


def public_functions():
    return {
        name
        for name in dir(F)
        if not name.startswith('_')
        and callable(getattr(F, name))
        and not isinstance(getattr(F, name), type(F))
    }


def test_every_public_function_is_covered_or_excluded():
    covered = {case.func for case in kink_cases.CASES}
    excluded = set(kink_cases.EXCLUDED)
    assert not covered & excluded
    assert sorted(public_functions() - covered - excluded) == []
    assert sorted((covered | excluded) - public_functions()) == []


def test_oracle_holds_every_case(oracle):
    keys = [case.key for case in kink_cases.CASES]
    assert len(keys) == len(set(keys))
    assert sorted(set(keys) ^ set(oracle)) == []


def test_known_differences_are_cases_and_documented():
    keys = {case.key for case in kink_cases.CASES}
    text = DIFFERENCES.read_text()
    for key, reason in kink_sweep.KNOWN.items():
        assert key in keys
        assert reason
        assert f'F.{key.split("/")[0]}' in text, key


def test_compare_sees_a_difference(oracle):
    # the comparison itself is not blind: a changed value, a NaN, an
    # infinity of the other sign and a missing exception all differ
    case = next(c for c in kink_cases.CASES if c.key == 'leaky_relu/special_float32')
    want = oracle[case.key]
    assert kink_sweep.compare(want, want) is None
    for i, bad in ((0, 1.5), (5, float('nan')), (0, float('inf'))):
        grads = [dict(want['grads'][0], values=list(want['grads'][0]['values']))]
        grads[0]['values'][i] = bad
        assert kink_sweep.compare(want, dict(want, grads=grads)) is not None
    raised = oracle['upsampling_2d/index4']
    assert kink_sweep.compare(raised, want) is not None


# The special functions need SciPy, which the NumPy 1 venv of make
# test-numpy1 lacks: there they raise ImportError and are not compared.
_NO_SCIPY = importlib.util.find_spec('scipy') is None


@pytest.mark.parametrize('mode', kink_sweep.MODES)
def test_agrees_with_chainer(oracle, mode):
    cases = kink_cases.CASES
    if mode != 'plain' and not FULL:
        cases = cases[::3]
    differ, stale = [], []
    for case, _, detail in kink_sweep.compare_all(oracle, (mode,), cases):
        if _NO_SCIPY and detail is not None and 'SciPy is not available' in detail:
            continue  # a special function, where SciPy is missing
        if detail is not None and case.key not in kink_sweep.KNOWN:
            differ.append(f'{case.key}: {detail}')
        if detail is None and case.key in kink_sweep.KNOWN and mode == 'plain':
            stale.append(case.key)
    assert differ == []
    assert stale == []
