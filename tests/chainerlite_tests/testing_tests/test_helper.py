import os
import subprocess
import sys
import textwrap

from chainerlite import testing


def test_run_module_does_nothing_when_imported():
    assert testing.run_module('some.module', __file__) is None


def test_run_module_runs_the_file_as_script(tmp_path):
    script = tmp_path / 'test_script.py'
    script.write_text(
        textwrap.dedent('''
        from chainerlite import testing

        def test_ok():
            pass

        def test_other():
            pass

        testing.run_module(__name__, __file__)
    ''')
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run(
        [sys.executable, str(script), '-p', 'no:cacheprovider'],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
    )
    assert '2 passed' in result.stdout, result.stdout + result.stderr


def _skipif(decorator):
    def test_something():
        pass

    marks = [m for m in decorator(test_something).pytestmark if m.name == 'skipif']
    assert len(marks) == 1
    return marks[0]


def test_with_requires():
    assert not _skipif(testing.with_requires('pytest>=1.0')).args[0]
    assert _skipif(testing.with_requires('pytest>=1000')).args[0]
    missing = _skipif(testing.with_requires('surely-not-installed-package-xyz'))
    assert missing.args[0]
    assert 'surely-not-installed-package-xyz' in missing.kwargs['reason']


def test_without_requires():
    assert _skipif(testing.without_requires('pytest')).args[0]
    assert not _skipif(
        testing.without_requires('surely-not-installed-package-xyz')
    ).args[0]
    assert not _skipif(
        testing.without_requires('pytest', 'surely-not-installed-package-xyz')
    ).args[0]


@testing.with_requires('surely-not-installed-package-xyz')
@testing.parameterize({'n': 1}, {'n': 2})
class TestWithRequiresOnParameterized:
    def test_skipped(self):
        raise AssertionError('with_requires must skip every generated class')


@testing.without_requires('pytest')
def test_without_requires_skips_when_installed():
    raise AssertionError('pytest is installed, so this must be skipped')


def test_patch_keeps_the_original_working():
    import json

    with testing.patch('json.dumps') as dumps:
        assert json.dumps([1]) == '[1]'
    assert dumps.call_args.args == ([1],)
    assert json.dumps is not dumps


def test_patch_return_value_wins_over_the_original():
    import json

    with testing.patch('json.dumps', return_value='x'):
        assert json.dumps([1]) == 'x'
