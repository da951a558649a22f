import pathlib

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.functions.activation import sigmoid
from tools import mutant_ops
from tools import mutant_plugin
from tools import mutant_targets
from tools import mutant_worker
from tools import mutants

ROOT = pathlib.Path(__file__).resolve().parents[2]
SIGMOID = 'chainerlite.functions.activation.sigmoid'
ACTIVATION_TESTS = 'tests/chainerlite_tests/functions_tests/activation_tests/'
# Sigmoid's mirror, and the file that checks every activation's grad node
# (it names Sigmoid and SigmoidGrad)
SIGMOID_TESTS = [
    ACTIVATION_TESTS + 'test_grad_nodes.py',
    ACTIVATION_TESTS + 'test_sigmoid.py',
]


@pytest.fixture(scope='module')
def finder():
    return mutant_targets.TestFinder(ROOT)


def test_scale_multiplies_first_present_gradient():
    a, b = numpy.ones(2), numpy.full(2, 2.0)
    out = mutant_ops.scale((None, a, b))
    assert out[0] is None and out[2] is b
    numpy.testing.assert_allclose(out[1], [1.1, 1.1])


def test_scale_keeps_variables():
    (out,) = mutant_ops.scale((chainerlite.Variable(numpy.ones(2)),))
    assert isinstance(out, chainerlite.Variable)
    numpy.testing.assert_allclose(out.array, [1.1, 1.1])


def test_drop_makes_last_of_several_none_and_a_single_one_zero():
    a, b = numpy.ones(2), numpy.ones(3)
    out = mutant_ops.drop((a, b, None))
    assert out[0] is a and out[1:] == (None, None)
    (out,) = mutant_ops.drop((a,))
    numpy.testing.assert_array_equal(out, [0, 0])
    assert mutant_ops.drop((None, None)) is None


def test_swap_needs_equal_shape_and_dtype():
    a, c, b = numpy.ones(2), numpy.ones(3), numpy.zeros(2)
    out = mutant_ops.swap((a, c, b))
    assert out[0] is b and out[1] is c and out[2] is a
    assert mutant_ops.swap((a, b.astype(numpy.float32))) is None
    assert mutant_ops.swap((a,)) is None


def test_changes_compares_values():
    a = numpy.ones(2)
    assert not mutant_ops.changes((a, a.copy()), mutant_ops.swap((a, a.copy())))
    assert not mutant_ops.changes((numpy.zeros(2),), (None,))
    assert mutant_ops.changes((a,), (None,))
    assert mutant_ops.changes((a,), mutant_ops.scale((a,)))


def test_mutant_spec_round_trip_and_validation():
    spec = SIGMOID + ':Sigmoid:backward:swap'
    assert mutant_plugin.Mutant.parse(spec).spec == spec
    with pytest.raises(ValueError):
        mutant_plugin.Mutant.parse(SIGMOID + ':Sigmoid:backward:negate')
    with pytest.raises(ValueError):
        mutant_plugin.Mutant.parse(SIGMOID + ':Sigmoid:forward:scale')
    with pytest.raises(ValueError):
        mutant_plugin.Mutant.parse(SIGMOID + ':Sigmoid:_backward_arrays:scale')
    # a grad node's forward computes gradients: it is mutated too
    spec = SIGMOID + ':SigmoidGrad:forward:scale'
    assert mutant_plugin.Mutant.parse(spec).spec == spec


def _sigmoid_grad(x, double):
    y = F.sigmoid(x)
    (gx,) = chainerlite.grad(
        [y], [x], [chainerlite.Variable(numpy.ones(3))], enable_double_backprop=double
    )
    return gx.array


@pytest.mark.parametrize(
    'cls, method', [('Sigmoid', 'backward'), ('SigmoidGrad', 'forward')]
)
def test_mutant_scales_the_gradient_and_restores_it(cls, method):
    # Sigmoid's backward is its one derivative and applies SigmoidGrad,
    # whose forward computes the gradient arrays: the plain pass (which runs
    # SigmoidGrad compute-only) and double backprop both run each of them
    x = chainerlite.Variable(numpy.array([-1.0, 0.5, 2.0]))
    s = 1 / (1 + numpy.exp(-x.array))
    expected = s * (1 - s)
    original = vars(getattr(sigmoid, cls))[method]
    mutant = mutant_plugin.Mutant(SIGMOID, cls, method, 'scale')
    mutant.apply()
    try:
        for double in (False, True):
            numpy.testing.assert_allclose(_sigmoid_grad(x, double), 1.1 * expected)
    finally:
        mutant.restore()
    assert (mutant.calls, mutant.changed) == (2, 2)
    assert vars(getattr(sigmoid, cls))[method] is original
    numpy.testing.assert_allclose(_sigmoid_grad(x, False), expected)


def test_targets_find_own_and_inherited_methods():
    found = {(t.module, t.cls): t.methods for t in mutant_targets.targets()}
    assert found[SIGMOID, 'Sigmoid'] == ('backward',)
    assert found[SIGMOID, 'SigmoidGrad'] == ('forward', 'backward')
    assert not any('_backward_arrays' in methods for methods in found.values())
    flip = 'chainerlite.functions.array.'
    assert found[flip + 'fliplr', 'FlipLR'] == ()
    assert found[flip + '_flip_base', 'FlipBase'] == ('backward',)
    assert (flip + 'transpose', 'Transpose') in found


def test_compiled_nodes_are_listed_apart():
    compiled = mutant_targets.compiled_nodes()
    assert 'chainerlite._core.ops_math.Add' in compiled
    assert 'chainerlite._core.ops_nn.ReLU' in compiled
    assert not any(
        'functions' in name or '._' in name.rsplit('.', 1)[1] for name in compiled
    )


def test_test_files_of_public_and_private_modules(finder):
    assert finder.files(SIGMOID, 'Sigmoid') == SIGMOID_TESTS
    base = 'tests/chainerlite_tests/functions_tests/array_tests/'
    assert finder.files('chainerlite.functions.array._flip_base', 'FlipBase') == [
        base + 'test_fliplr.py',
        base + 'test_flipud.py',
    ]
    assert finder.mirror('chainerlite.functions.array._flip_base') is None


def test_test_files_grouped_in_one_file_are_found_by_function_name(finder):
    # erfcx has no test_erfcx.py: test_error_functions.py calls F.erfcx; the
    # private _roi is used by roi_*_2d modules tested in test_roi_pooling.py,
    # test_roi_conventions.py and test_roi_sampling_bound.py, and called by
    # the sweep over every function's integer arguments
    math = 'tests/chainerlite_tests/functions_tests/math_tests/'
    assert finder.mirror('chainerlite.functions.math.erfcx') is None
    # (and test_chainer_helper_names.py reads erfcx's module constants)
    assert finder.files('chainerlite.functions.math.erfcx', 'Erfcx') == [
        math + 'test_error_functions.py',
        'tests/chainerlite_tests/functions_tests/test_chainer_helper_names.py',
        # the labels hooks see in its backward
        'tests/chainerlite_tests/functions_tests/test_hook_labels.py',
    ]
    pooling = 'tests/chainerlite_tests/functions_tests/pooling_tests/'
    assert finder.files('chainerlite.functions.pooling._roi', 'ROIPooling') == [
        pooling + 'test_roi_conventions.py',
        pooling + 'test_roi_pooling.py',
        pooling + 'test_roi_sampling_bound.py',
        # Chainer's ROIPooling2DGrad by name
        'tests/chainerlite_tests/functions_tests/test_chainer_internal_nodes.py',
        'tests/chainerlite_tests/functions_tests/test_int_parameter_sweep.py',
        # Chainer's attribute names of the ROI nodes
        'tests/chainerlite_tests/functions_tests/test_node_argument_attributes.py',
        'tests/chainerlite_tests/functions_tests/test_retained_indexes.py',
    ]


def test_test_files_follow_subclasses_into_other_modules(finder):
    math = 'tests/chainerlite_tests/functions_tests/math_tests/'
    assert finder.files('chainerlite.functions.math.einsum', 'EinSum') == [
        math + 'test_einsum.py',
        math + 'test_tensordot.py',
        'tests/chainerlite_tests/functions_tests/test_hook_labels.py',
    ]


def test_plan_filters_and_groups_by_test_files(finder):
    groups = mutants.plan(['activation.sigmoid:'], ['scale', 'swap'], finder)
    assert groups == {
        tuple(SIGMOID_TESTS): [
            SIGMOID + ':Sigmoid:backward:scale',
            SIGMOID + ':Sigmoid:backward:swap',
            SIGMOID + ':SigmoidGrad:forward:scale',
            SIGMOID + ':SigmoidGrad:forward:swap',
            SIGMOID + ':SigmoidGrad:backward:scale',
            SIGMOID + ':SigmoidGrad:backward:swap',
        ]
    }


@pytest.mark.parametrize(
    'rc, calls, changed, result',
    [
        (None, 0, 0, 'timeout'),
        (0, 3, 0, 'not applicable'),
        (0, 0, 0, 'survived'),
        (0, 3, 1, 'survived'),
        (1, 3, 1, 'killed'),
        (1, 3, 0, 'error'),
        (2, 3, 1, 'error'),
    ],
)
def test_classify(rc, calls, changed, result):
    mutant = mutant_plugin.Mutant(
        SIGMOID, 'Sigmoid', 'backward', 'scale', calls, changed
    )
    assert mutant_worker.classify(rc, mutant) == result


def test_kill_rate_counts_killed_over_judged():
    results = [
        {'result': r} for r in ('killed', 'killed', 'killed', 'survived', 'no tests')
    ]
    assert mutants.summarize(results) == (
        {'killed': 3, 'survived': 1, 'no tests': 1},
        0.75,
    )
    assert mutants.summarize([{'result': 'no tests'}])[1] is None
