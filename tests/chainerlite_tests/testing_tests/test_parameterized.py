import os
import subprocess
import sys
import textwrap
import unittest

import numpy
import pytest

from chainerlite import testing
from chainerlite.testing import parameterized


@testing.parameterize({'a': 1, 'b': 'x'}, {'a': 2, 'b': 'y'})
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
    return {
        name: obj
        for name, obj in globals().items()
        if name.startswith(prefix + '_param_') and isinstance(obj, type)
    }


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


def test_class_names_list_parameters_in_sorted_order():
    # Chainer names the classes with the parameter names sorted, whatever
    # the dict's order, so test ids match Chainer's for unsorted dicts too.
    name = parameterized._class_name('T', 3, {'shape': (2, 3), 'dtype': int})
    assert name == 'T_param_3_{dtype=int, shape=(2, 3)}'


def test_class_names_show_the_repr_of_containers_without_addresses():
    name = parameterized._class_name('T', 0, {'f': [len, 1.5]})
    assert name == 'T_param_0_{f=[<built-in function len>, 1.5]}'
    obj = object()
    assert ' at 0x' not in parameterized._class_name('T', 0, {'o': [obj]})


def test_long_parameter_lists_keep_both_ends():
    param = {'k%03d' % i: 'v' * 90 for i in range(80)}
    name = parameterized._class_name('T', 0, param)
    inner = name[len('T_param_0_{') : -1]
    assert len(inner) == 5000
    assert inner.startswith('k000=') and inner.endswith("'" + 'v' * 90 + "'")


def test_parameterize_rejects_non_callables():
    with pytest.raises(TypeError):
        testing.parameterize({'a': 1})(3)


@testing.parameterize({'a': 1, 'b': 2}, {'a': 3, 'b': 4})
def test_parameterized_function(a, b):
    assert b == a + 1


@testing.parameterize(*testing.product({'n': [1, 2]}))
def test_parameterized_function_one_name(n):
    assert n in (1, 2)


def test_parameterized_function_is_pytest_parametrized():
    (mark,) = test_parameterized_function.pytestmark
    assert mark.name == 'parametrize'
    assert mark.args == (['a', 'b'], [(1, 2), (3, 4)])
    assert mark.kwargs['ids'] == ['param_0_{a=1, b=2}', 'param_1_{a=3, b=4}']


def test_parameterized_function_needs_the_same_names():
    with pytest.raises(ValueError, match='same names'):
        testing.parameterize({'a': 1}, {'b': 2})(lambda a: None)


@testing.parameterize_pytest('x,y', [(1, 1), (2, 4)])
class TestParameterizePytestClass(unittest.TestCase):
    def test_square(self):
        assert self.x**2 == self.y


@testing.parameterize_pytest('x', [1, 2])
def test_parameterize_pytest_function(x):
    assert x in (1, 2)


def test_parameterize_pytest_classes():
    classes = _generated('TestParameterizePytestClass')
    assert sorted((c.x, c.y) for c in classes.values()) == [(1, 1), (2, 4)]
    assert 'TestParameterizePytestClass_param_0_{x=1, y=1}' in classes


def test_parameterize_pytest_checks_lengths():
    with pytest.raises(ValueError, match='2 values for the 3 names'):
        testing.parameterize_pytest('a,b,c', [(1, 2)])


@testing.fix_random()
@testing.parameterize({'k': 0}, {'k': 1})
class TestDecoratorsOverParameterized(unittest.TestCase):
    def setUp(self):
        self.draw = numpy.random.uniform()

    def test_fix_random_reaches_every_class(self):
        numpy.random.seed(testing.random.base_seed())
        assert self.draw == numpy.random.uniform()


def test_apply_to_classes_replaces_module_attributes():
    def rename(cls):
        return type(cls.__name__ + '_x', (cls,), {'__module__': __name__})

    marked = parameterized._ParameterizedClasses(
        'Foo', __name__, [type('Foo_param_0', (), {})]
    )
    globals()['Foo_param_0'] = marked.classes[0]
    try:
        result = parameterized.apply_to_classes(marked, rename)
        assert [c.__name__ for c in result.classes] == ['Foo_param_0_x']
        assert 'Foo_param_0' not in globals()
        assert globals()['Foo_param_0_x'] is result.classes[0]
    finally:
        globals().pop('Foo_param_0', None)
        globals().pop('Foo_param_0_x', None)


def test_product_of_dict():
    assert testing.product({'a': [1, 2], 'b': [3, 4]}) == [
        {'a': 1, 'b': 3},
        {'a': 1, 'b': 4},
        {'a': 2, 'b': 3},
        {'a': 2, 'b': 4},
    ]
    assert testing.product({'a': []}) == []


def test_product_varies_names_in_sorted_order():
    # Chainer's class indices (``_param_N``) follow the sorted names, the
    # last name varying fastest, whatever the order of the dict.
    assert testing.product({'b': [1, 2], 'a': ['x', 'y']}) == [
        {'a': 'x', 'b': 1},
        {'a': 'x', 'b': 2},
        {'a': 'y', 'b': 1},
        {'a': 'y', 'b': 2},
    ]


def test_product_of_lists():
    result = testing.product(
        [[{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}, {'b': 5, 'c': 6}]]
    )
    assert result == [
        {'a': 1, 'b': 3, 'c': 4},
        {'a': 1, 'b': 5, 'c': 6},
        {'a': 2, 'b': 3, 'c': 4},
        {'a': 2, 'b': 5, 'c': 6},
    ]
    with pytest.raises(TypeError):
        testing.product(3)


def test_product_dict():
    assert testing.product_dict([{'a': 1}, {'a': 2}], [{'b': 3}]) == [
        {'a': 1, 'b': 3},
        {'a': 2, 'b': 3},
    ]
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
        [
            sys.executable,
            '-m',
            'pytest',
            '-q',
            '-p',
            'no:cacheprovider',
            '--rootdir',
            str(tmp_path),
            '-c',
            os.devnull,
            '-rA',
            str(tmp_path / 'test_generated.py'),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
    )
    out = result.stdout
    assert '1 failed, 4 passed' in out, out + result.stderr
    assert 'FAILED test_generated.py::TestPlain_param_1_{v=2}::test_v' in out


def test_product_splits_joint_keys():
    params = testing.product({'a,b': [(1, 'x'), (2, 'y')], 'c': [0]})
    assert params == [{'a': 1, 'b': 'x', 'c': 0}, {'a': 2, 'b': 'y', 'c': 0}]
    with pytest.raises(ValueError, match="'a,b'"):
        testing.product({'a,b': [(1, 2, 3)]})


def test_from_pytest_parameterize():
    assert testing.from_pytest_parameterize('x, y', [(1, 2), (3, 4)]) == [
        {'x': 1, 'y': 2},
        {'x': 3, 'y': 4},
    ]
    assert testing.from_pytest_parameterize(['x'], [5, 6]) == [{'x': 5}, {'x': 6}]
    with pytest.raises(ValueError, match='2 names'):
        testing.from_pytest_parameterize('x,y', [(1, 2, 3)])
