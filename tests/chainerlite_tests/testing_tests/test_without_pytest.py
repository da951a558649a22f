"""chainerlite.testing imports and works where pytest is not installed.

Each check runs in a fresh interpreter whose import system refuses pytest
(a ``sys.meta_path`` finder that raises ImportError for it), as on a machine
without pytest, with a timeout so that a hang fails instead of blocking.
"""

import subprocess
import sys
import textwrap

BLOCK_PYTEST = '''
import sys

class _NoPytest:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('pytest', '_pytest'):
            raise ImportError("No module named 'pytest'")

sys.meta_path.insert(0, _NoPytest())
try:
    import pytest
except ImportError:
    pass
else:
    raise SystemExit('pytest was not hidden')
'''


def _run(body):
    code = BLOCK_PYTEST + textwrap.dedent(body)
    proc = subprocess.run(
        [sys.executable, '-c', code], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_every_public_name_imports():
    out = _run('''
        import chainerlite.testing as testing
        names = ['BackendConfig', 'FunctionTestCase', 'FunctionTestError',
                 'LinkTestCase', 'LinkTestError', 'LinkInitializersTestCase',
                 'InitializerArgument', 'assert_allclose', 'assert_warns',
                 'attr', 'condition', 'distribution_unittest', 'fix_random',
                 'generate_matrix', 'generate_seed', 'inject_backend_tests',
                 'parameterize', 'parameterize_pytest', 'from_pytest_parameterize',
                 'patch', 'product', 'product_dict', 'run_module', 'save_and_load',
                 'save_and_load_hdf5', 'save_and_load_npz',
                 'unary_math_function_unittest', 'with_requires',
                 'without_requires', 'get_trainer_with_mock_updater']
        print([n for n in names if not hasattr(testing, n)])
        print(testing.attr.is_available())
    ''')
    assert out == ['[]', 'False']


def test_markers_say_pytest_is_missing_when_applied():
    out = _run('''
        from chainerlite.testing import attr
        for decorator in (attr.gpu, attr.slow, attr.cudnn, attr.ideep,
                          attr.chainerx, lambda f: attr.multi_gpu(2)(f)):
            try:
                decorator(lambda: None)
            except RuntimeError as e:
                print('chainerlite.testing.attr' in str(e) and 'pytest' in str(e))
            else:
                print('applied')
    ''')
    assert out == ['True'] * 6


def test_unittest_classes_run_without_pytest():
    # parameterize, with_requires, condition.retry and a class with
    # parameters all work through unittest alone.
    out = _run('''
        import unittest
        from chainerlite import testing
        from chainerlite.testing import condition

        calls = []

        @testing.parameterize({'n': 1}, {'n': 2})
        class TestSquare(unittest.TestCase):
            def test_square(self):
                self.assertEqual(self.n * self.n, self.n ** 2)

        @testing.with_requires('numpy>=1000')
        class TestSkipped(unittest.TestCase):
            def test_never(self):
                raise AssertionError('ran a test whose requirement is missing')

        class TestFlaky(unittest.TestCase):
            @condition.retry(3)
            def test_flaky(self):
                calls.append(1)
                self.assertGreaterEqual(len(calls), 2)

        loader = unittest.defaultTestLoader
        suite = unittest.TestSuite()
        for name, cls in sorted(globals().items()):
            if name.startswith('Test') and isinstance(cls, type):
                suite.addTests(loader.loadTestsFromTestCase(cls))
        result = unittest.TestResult()
        suite.run(result)
        print(result.testsRun, len(result.failures), len(result.errors),
              len(result.skipped), len(calls))
    ''')
    # two parameterized cases, one skipped, one flaky test passing at its
    # second trial
    assert out == ['4', '0', '0', '1', '2']


def test_gpu_tests_of_base_classes_name_the_missing_pytest():
    out = _run('''
        from chainerlite import testing
        try:
            testing.distribution_unittest.test_mean_gpu(None)
        except RuntimeError as e:
            print('pytest' in str(e))
    ''')
    assert out == ['True']
