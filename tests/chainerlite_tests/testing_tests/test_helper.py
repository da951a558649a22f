import os
import subprocess
import sys
import textwrap

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


def test_with_requires():
    present = testing.with_requires('pytest>=1.0')
    assert not present.args[0]
    too_new = testing.with_requires('pytest>=1000')
    assert too_new.args[0]
    missing = testing.with_requires('surely-not-installed-package-xyz')
    assert missing.args[0]
    assert 'surely-not-installed-package-xyz' in missing.kwargs['reason']
