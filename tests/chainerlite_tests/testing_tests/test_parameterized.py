import os
import subprocess
import sys
import textwrap
import unittest

import pytest

from chainerlite import testing
from chainerlite.testing import parameterized


@testing.parameterize(
    {'a': 1, 'b': 'x'},
    {'a': 2, 'b': 'y'},
)
class TestUnittestStyle(unittest.TestCase):

    def test_params_are_attributes(self):
        assert (self.a, self.b) in [(1, 'x'), (2, 'y')]


@testing.parameterize(*testing.product({'n': [1, 2, 3]}))
class TestPytestStyle:

    def test_param_is_attribute(self):
        assert self.n in (1, 2, 3)


@testing.parameterize({'func': lambda v: v * 10})
class TestFunctionParameter:

    def test_function_stays_plain(self):
        assert self.func(2) == 20


@testing.parameterize({'outer': 'o1'}, {'outer': 'o2'})
@testing.parameterize({'inner': 1}, {'inner': 2}, {'inner': 3})
class TestStacked:

    def test_both(self):
        assert self.outer in ('o1', 'o2')
        assert self.inner in (1, 2, 3)


def _generated(prefix):
    return {name: obj for name, obj in globals().items()
            if name.startswith(prefix + '_param_') and isinstance(obj, type)}


def test_generated_classes_are_module_attributes():
    classes = _generated('TestUnittestStyle')
    assert sorted(classes) == [
        "TestUnittestStyle_param_0_{a=1, b='x'}",
        "TestUnittestStyle_param_1_{a=2, b='y'}",
    ]
    cls = classes["TestUnittestStyle_param_1_{a=2, b='y'}"]
    assert issubclass(cls, unittest.TestCase)
    assert (cls.a, cls.b) == (2, 'y')
    assert cls.__module__ == __name__


def test_decorated_name_is_not_a_test_class():
    assert not isinstance(TestUnittestStyle, type)
    assert not isinstance(TestPytestStyle, type)
    assert len(TestPytestStyle.classes) == 3


def test_pytest_style_classes():
    classes = _generated('TestPytestStyle')
    assert sorted(cls.n for cls in classes.values()) == [1, 2, 3]
    assert 'TestPytestStyle_param_0_{n=1}' in classes


def test_stacked_decorators_make_the_product():
    classes = _generated('TestStacked')
    combos = sorted((cls.inner, cls.outer) for cls in classes.values())
    assert combos == [(i, o) for i in (1, 2, 3) for o in ('o1', 'o2')]
    # Only the final classes remain: the inner ones were replaced.
    assert all(name.count('_param_') == 2 for name in classes)


def test_long_parameters_are_shortened():
    name = parameterized._class_name('T', 0, {'x': 'a' * 500})
    assert len(name) < 200
    assert '...' in name


def test_parameterize_rejects_non_classes():
    with pytest.raises(TypeError):
        testing.parameterize({'a': 1})(lambda: None)


def test_product_of_dict():
    assert testing.product({'a': [1, 2], 'b': [3, 4]}) == [
        {'a': 1, 'b': 3}, {'a': 1, 'b': 4},
        {'a': 2, 'b': 3}, {'a': 2, 'b': 4}]
    assert testing.product({'a': []}) == []


def test_product_of_lists():
    result = testing.product([
        [{'a': 1}, {'a': 2}],
        [{'b': 3, 'c': 4}, {'b': 5, 'c': 6}],
    ])
    assert result == [
        {'a': 1, 'b': 3, 'c': 4}, {'a': 1, 'b': 5, 'c': 6},
        {'a': 2, 'b': 3, 'c': 4}, {'a': 2, 'b': 5, 'c': 6}]
    with pytest.raises(TypeError):
        testing.product(3)


def test_product_dict():
    assert testing.product_dict(
        [{'a': 1}, {'a': 2}], [{'b': 3}]) == [
            {'a': 1, 'b': 3}, {'a': 2, 'b': 3}]
    assert testing.product_dict([{'a': 1}], [{'a': 2}]) == [{'a': 2}]


def test_pytest_collects_and_runs_generated_classes(tmp_path):
    source = textwrap.dedent('''
        import unittest
        from chainerlite import testing

        @testing.parameterize(*testing.product({'v': [1, 2, 3]}))
        class TestPlain:
            def test_v(self):
                assert self.v != 2

        @testing.parameterize({'w': 5}, {'w': 6})
        class TestCase(unittest.TestCase):
            def test_w(self):
                self.assertIn(self.w, (5, 6))
    ''')
    (tmp_path / 'test_generated.py').write_text(source)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
         '--rootdir', str(tmp_path), '-c', os.devnull, '-rA',
         str(tmp_path / 'test_generated.py')],
        capture_output=True, text=True, env=env, cwd=str(tmp_path))
    out = result.stdout
    assert '1 failed, 4 passed' in out, out + result.stderr
    assert 'FAILED test_generated.py::TestPlain_param_1_{v=2}::test_v' in out
