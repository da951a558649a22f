import os
import subprocess
import sys
import textwrap

import pytest

from chainerlite import testing


def test_run_module_does_nothing_when_imported():
    assert testing.run_module('some.module', __file__) is None


def test_run_module_runs_the_file_as_script(tmp_path):
    script = tmp_path / 'test_script.py'
    script.write_text(textwrap.dedent('''
        from chainerlite import testing

        def test_ok():
            pass

        def test_other():
            pass

        testing.run_module(__name__, __file__)
    '''))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run(
        [sys.executable, str(script), '-p', 'no:cacheprovider'],
        capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert '2 passed' in result.stdout, result.stdout + result.stderr


def _skipif(decorator):
    def test_something():
        pass
    marks = [m for m in decorator(test_something).pytestmark
             if m.name == 'skipif']
    assert len(marks) == 1
    return marks[0]


def test_with_requires():
    assert not _skipif(testing.with_requires('pytest>=1.0')).args[0]
    assert _skipif(testing.with_requires('pytest>=1000')).args[0]
    missing = _skipif(
        testing.with_requires('surely-not-installed-package-xyz'))
    assert missing.args[0]
    assert 'surely-not-installed-package-xyz' in missing.kwargs['reason']


def test_without_requires():
    assert _skipif(testing.without_requires('pytest')).args[0]
    assert not _skipif(
        testing.without_requires('surely-not-installed-package-xyz')).args[0]
    assert not _skipif(testing.without_requires(
        'pytest', 'surely-not-installed-package-xyz')).args[0]


@testing.with_requires('surely-not-installed-package-xyz')
@testing.parameterize({'n': 1}, {'n': 2})
class TestWithRequiresOnParameterized:

    def test_skipped(self):
        raise AssertionError('with_requires must skip every generated class')


@testing.without_requires('pytest')
def test_without_requires_skips_when_installed():
    raise AssertionError('pytest is installed, so this must be skipped')


def test_assert_warns():
    import warnings
    with testing.assert_warns(DeprecationWarning):
        warnings.warn('old', DeprecationWarning)
    with pytest.raises(AssertionError, match='DeprecationWarning'):
        with testing.assert_warns(DeprecationWarning):
            pass


def test_patch_wraps_the_original():
    import numpy
    from chainerlite.functions.activation import relu
    original = relu.relu
    with testing.patch('chainerlite.functions.activation.relu.relu',
                       wraps=original) as m:
        y = relu.relu(numpy.array([-1.0, 2.0]))
    assert m.call_count == 1
    assert y.array.tolist() == [0.0, 2.0]
    assert relu.relu is original
