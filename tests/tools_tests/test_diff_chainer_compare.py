"""The comparison of outcomes in the Chainer differential harness
(``tools/diff_chainer/compare.py``): tolerances per dtype, exception
matching by class name, result kinds, warnings."""

import warnings

import numpy
import pytest

from tools.diff_chainer import compare


class InvalidType(Exception):
    pass


class SubInvalidType(InvalidType):
    pass


class FakeVariable:
    """Has what ``plain`` looks for in a Variable of either library."""

    creator = None

    def __init__(self, array):
        self.array = array


def raising(exc):
    def thunk():
        raise exc

    return thunk


@pytest.mark.parametrize(
    ('dtype', 'ok', 'bad'),
    [('float16', 5e-3, 5e-2), ('float32', 5e-5, 1e-3), ('float64', 5e-8, 1e-5)],
)
def test_tolerance_follows_dtype(dtype, ok, bad):
    x = numpy.array([1.0, -2.0, 3.0], dtype)
    assert compare.close(x, (x * (1 + ok)).astype(dtype))
    assert not compare.close(x, (x * (1 + bad)).astype(dtype))


def test_nan_matches_nan_and_infinities_match_by_sign():
    x = numpy.array([numpy.nan, numpy.inf, 1.0], numpy.float32)
    assert compare.close(x, x.copy())
    assert not compare.close(
        x, numpy.array([numpy.nan, -numpy.inf, 1.0], numpy.float32)
    )
    assert not compare.close(x, numpy.array([0.0, numpy.inf, 1.0], numpy.float32))


def test_integers_compare_exactly():
    assert compare.close(numpy.arange(3), numpy.arange(3))
    assert not compare.close(numpy.arange(3), numpy.arange(3) + 1)


def test_dtype_shape_and_kind_differences_are_named():
    a = numpy.zeros(3, numpy.float32)
    assert compare.differences(a, a.astype(numpy.float64)) == [
        'out: dtype float32 vs float64'
    ]
    assert compare.differences(a, a.reshape(3, 1)) == ['out: shape (3,) vs (3, 1)']
    got = compare.differences(compare.plain(FakeVariable(a)), compare.plain(a))
    assert got == ['out: variable vs ndarray float32(3,)']
    assert compare.differences(compare.plain((a,)), compare.plain([a])) == [
        'out: tuple of 1 vs list of 1'
    ]


def test_nested_results_report_the_path_of_the_difference():
    a = numpy.zeros(2, numpy.float32)
    expected = compare.plain({'w': (a, FakeVariable(a))})
    actual = compare.plain({'w': (a, FakeVariable(a + 1))})
    assert compare.differences(expected, actual) == [
        # 1 is 1 / (1e-5 + 1e-4 * 1) times float32's allowance
        "out['w'][1]: values differ (max abs 1, 9.09e+03 x tolerance)"
    ]
    assert compare.differences(expected, expected) == []


def test_scalar_tuples_show_their_values():
    got = compare.differences(compare.plain((0, 1)), compare.plain((0,)))
    assert got == ['out: tuple of 2 vs tuple of 1']
    assert compare.differences(compare.plain((0, 1)), compare.plain((0, 2))) == [
        'out: [0, 1] vs [0, 2]'
    ]


def test_exception_of_a_subclass_of_chainers_type_agrees():
    expected = compare.run(raising(InvalidType('x')))
    assert (
        compare.differences(expected, compare.run(raising(SubInvalidType('x')))) == []
    )
    assert (
        compare.differences(expected, compare.run(raising(InvalidType('other text'))))
        == []
    )


def test_other_exception_types_and_raising_on_one_side_differ():
    expected = compare.run(raising(InvalidType('bad')))
    got = compare.differences(expected, compare.run(raising(ValueError('bad'))))
    assert got == ['out: raised InvalidType vs ValueError: bad']
    got = compare.differences(expected, compare.run(lambda: 1))
    assert got == ['out: Chainer raised InvalidType: bad; chainerlite did not']
    got = compare.differences(compare.run(lambda: 1), expected)
    assert got == ['out: chainerlite raised InvalidType: bad; Chainer did not']


def test_api_warnings_are_compared_and_numpy_runtime_warnings_are_not():
    def user():
        warnings.warn('w', UserWarning)
        return 1

    def runtime():
        warnings.warn('w', RuntimeWarning)
        return 1

    quiet = compare.run(lambda: 1)
    assert compare.run(user).warned == frozenset({'UserWarning'})
    assert compare.differences(quiet, compare.run(user)) == [
        "out: warnings [] vs ['UserWarning']"
    ]
    assert compare.differences(quiet, compare.run(runtime)) == []


def test_builtin_types_agree_by_isinstance_not_by_name():
    class Both(InvalidType, IndexError):
        pass

    chainer_side = compare.run(raising(IndexError('tuple index out of range')))
    assert compare.differences(chainer_side, compare.run(raising(Both('x')))) == []
    assert compare.differences(chainer_side, compare.run(raising(InvalidType('x'))))
    # a library's class that is only named as the builtin is not an instance
    named_alike = type('ValueError', (Exception,), {})
    builtin_value = compare.run(raising(ValueError('v')))
    assert compare.differences(builtin_value, compare.run(raising(named_alike('v'))))
