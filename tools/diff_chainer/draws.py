"""Keeping the generated cases independent of the code around them.

Hypothesis (6.131 and later) draws some numbers and strings from the
literals of every "local" module imported (any module outside
site-packages and the standard library: the harness's own ``tools/``, and
chainerlite itself when the harness runs on a source tree), and it rescans
whenever a new module is imported. So a literal added anywhere in those
files, or a module imported lazily by an earlier name, changed which cases
every name drew, derandomized or not: a ``--ci`` slice of unchanged
chainerlite moved by tens of cases per name after an edit of the harness,
and the wheel and the source tree drew different cases (``einsum`` agreed in
15 or 9 of its 16 cases by that alone), which its floor file cannot hold.
While the harness draws, Hypothesis sees no local literal, so the cases
depend only on the strategies and Hypothesis's own version.
"""

import contextlib


@contextlib.contextmanager
def without_local_constants():
    """Within the block, Hypothesis's pool of local-module literals is empty
    (a Hypothesis without that pool is left as it is)."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # an older Hypothesis: no such pool
        yield
        return
    get = getattr(providers, '_get_local_constants', None)
    cache = getattr(providers, 'CONSTANTS_CACHE', None)
    if get is None or cache is None:
        yield
        return
    empty = Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()  # permitted constants computed with the local pool
    try:
        yield
    finally:
        providers._get_local_constants = get
        cache.cache.clear()
