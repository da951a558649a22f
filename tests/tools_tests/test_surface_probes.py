"""tools/surface_probes: how results are digested and compared."""

import pathlib

import numpy

from tools.surface_probes import __main__ as runner
from tools.surface_probes import _values, child


def test_an_exception_agrees_when_it_is_also_of_chainers_type():
    chainer_side = ['raise', ['AssertionError', 'Exception', 'BaseException', 'object']]
    both = [
        'raise',
        ['AssertedValueError', 'ValueError', 'AssertionError', 'Exception'],
    ]
    other = ['raise', ['ValueError', 'Exception', 'BaseException', 'object']]
    assert runner.agree(chainer_side, both)
    assert not runner.agree(chainer_side, other)
    assert not runner.agree(chainer_side, ['ok', None])
    # the same rule for the raise entries inside a result
    inner = ['ok', [1, ['raise', 'AttributeError', ['AttributeError', 'Exception']]]]
    both_inner = [
        'ok',
        [
            1,
            [
                'raise',
                'AttributeTypeError',
                ['AttributeTypeError', 'TypeError', 'AttributeError'],
            ],
        ],
    ]
    assert runner.agree(inner, both_inner)
    assert not runner.agree(inner, ['ok', [2, both_inner[1][1]]])


def test_differences_name_the_probes_that_differ_or_are_missing():
    theirs = {'a': ['ok', 1], 'b': ['ok', 2], 'c': ['ok', 3]}
    ours = {'a': ['ok', 1], 'b': ['ok', 5]}
    assert runner.differences(theirs, ours) == ['b', 'c']


def test_arrays_are_digested_by_shape_dtype_sum_and_specials():
    a = numpy.array([1.0, numpy.nan, numpy.inf, 2.5], numpy.float32)
    assert _values.summary(a) == ['array', [4], 'float32', 3.5, 1, 1]
    assert _values.summary({'x': (numpy.float64(1 / 3), None)}) == {
        'x': [0.333333, None]
    }


def test_every_probe_runs_on_chainerlite():
    out = child.run('chainerlite')
    assert len(out) >= 90
    # a probe may raise (as Chainer does there), but only the ones meant to
    raised = sorted(k for k, v in out.items() if v[0] == 'raise')
    assert raised == ['config.device_of_a_gpu', 'config.device_of_a_module']


def test_every_probe_module_is_run():
    # a module of probes that child.NAMES leaves out would never be compared
    folder = pathlib.Path(child.__file__).parent
    modules = sorted(
        p.stem
        for p in folder.glob('*.py')
        if not p.stem.startswith('_') and p.stem != 'child'
    )
    assert sorted(child.NAMES) == modules
    for module in child.MODULES:
        assert module.PROBES, module.__name__
