"""The differential harness draws its cases from no literal of the code
around it (tools/diff_chainer/draws.py)."""

import importlib
import sys

import pytest
from hypothesis import Phase
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tools.diff_chainer import draws

# a Hypothesis before 6.131 has no pool of local literals (nothing to empty)
providers = pytest.importorskip('hypothesis.internal.conjecture.providers')
if not hasattr(providers, '_get_local_constants'):
    pytest.skip('this Hypothesis draws from no local literal', allow_module_level=True)

LITERAL = 987654321


def _drawn():
    seen = []

    @settings(max_examples=60, derandomize=True, database=None, phases=[Phase.generate])
    @given(st.integers(0, 10**9), st.text(max_size=3))
    def body(n, s):
        seen.append((n, s))

    body()
    return seen


def test_a_new_local_literal_changes_no_draw(tmp_path, monkeypatch):
    with draws.without_local_constants():
        before = _drawn()
    # a module outside site-packages and the standard library is "local"
    # to Hypothesis, which would take its literals into its pool
    (tmp_path / 'harness_literals.py').write_text(
        f'VALUES = [{LITERAL}, {LITERAL + 1}, "harness literal"]\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module('harness_literals')
    try:
        assert LITERAL in providers._get_local_constants().integers
        with draws.without_local_constants():
            assert LITERAL not in providers._get_local_constants().integers
            after = _drawn()
        # restored after the block
        assert LITERAL in providers._get_local_constants().integers
    finally:
        del sys.modules['harness_literals']
    assert before == after
