"""Every name Chainer 7.8.1 offers (data/chainer_names.txt, written by
``tools/chainer_names.py`` in the oracle venv) resolves in chainerlite with
the same kind and a compatible signature, or is listed with its reason in
data/chainer_names_missing.txt."""

import pytest

import chainerlite
from tools import names_check


@pytest.fixture(scope='module')
def failures():
    assert chainerlite.__version__  # the package itself imports
    return names_check.problems()


def test_list_covers_chainer():
    entries = names_check.read_list()
    paths = {path: kind for kind, path, _ in entries}
    assert len(entries) > 4000
    assert paths['chainer.functions.relu'] == 'function'
    assert paths['chainer.links.Linear'] == 'class'
    assert paths['chainer.testing.attr'] == 'module'
    assert paths['chainer.Link.copy'] == 'method'
    assert paths['chainer.__version__'] == 'value'


def test_every_name_resolves_or_is_known(failures):
    known = names_check.read_known_missing()
    unexplained = {
        path: why
        for path, why in failures.items()
        if names_check.known_reason(path, known) is None
    }
    assert unexplained == {}


def test_no_stale_known_entry(failures):
    import fnmatch

    known = names_check.read_known_missing()
    stale = [p for p in known if not any(fnmatch.fnmatchcase(f, p) for f in failures)]
    assert stale == [], 'fixed: run python -m tools.names_check --prune'


@pytest.mark.parametrize(
    'theirs, ours, problem',
    [
        ('(x, axis=None)', '(x, axis=None)', None),
        ('(x, axis=None)', '(x, axis=None, *, keepdims=False)', None),
        ('(x, axis=None)', '(*args, **kwargs)', None),
        ('(x, axis=None)', '(a, axis=None)', "parameter 0 is 'a', not 'x'"),
        ('(x, axis=None)', '(x)', "takes no parameter 'axis' at 1"),
        ('(x, *, axis=None)', '(x)', "takes no keyword 'axis'"),
        ('(x)', '(x, y)', "requires 'y'"),
        ('(x, y=1)', '(x, y)', "requires 'y'"),
        ('(x, y=1)', '(x, y=2)', "default of 'y' is 2, not 1"),
        ('(x, y=?)', '(x, y=2)', None),
        ('(*xs)', '(xs)', 'takes no *xs'),
        ('(*args, **kwargs)', '(x, y=1)', None),
        ('(self, rhs)', '(a, rhs)', None),
        ('(x, shape=(1, 2))', '(x, shape=(1, 2))', None),
    ],
)
def test_signature_problem(theirs, ours, problem):
    assert names_check.signature_problem(theirs, ours) == problem


def test_engine_called_methods_compare_places_not_names():
    assert (
        names_check.signature_problem('(self, inputs)', '(self, xs)', by_position=True)
        is None
    )
    assert (
        names_check.signature_problem('(self, inputs)', '(self)', by_position=True)
        is not None
    )


def test_resolve_reads_attributes_then_modules():
    assert (
        names_check.resolve('chainerlite.utils.experimental')
        is chainerlite.utils.experimental
    )
    assert callable(names_check.resolve('chainerlite.utils.experimental'))
    assert names_check.resolve('chainerlite.utils.experimental.experimental') is (
        chainerlite.utils.experimental
    )
    with pytest.raises(AttributeError):
        names_check.resolve('chainerlite.no_such_name')


def test_known_missing_needs_a_reason(tmp_path):
    bad = tmp_path / 'known.txt'
    bad.write_text('chainer.x\n')
    with pytest.raises(ValueError, match='read_known_missing'):
        names_check.read_known_missing(bad)


def test_prune_removes_only_entries_that_resolve(tmp_path):
    known = tmp_path / 'known.txt'
    known.write_text('# c\n[open: one]\nchainer.a\nchainer.b*\n\n[two]\nchainer.c\n')
    assert names_check.prune(
        {'chainer.a': 'missing', 'chainer.bx': 'missing'}, known
    ) == ['chainer.c']
    assert names_check.read_known_missing(known) == {
        'chainer.a': 'open: one',
        'chainer.b*': 'open: one',
    }
