"""Names at Chainer's module paths that are thin: top-level helpers,
module aliases, ChainList.insert, the variable formatting functions."""

import warnings

import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import variable
from chainerlite.backends import cuda
from chainerlite.functions.math import basic_math


def test_performance_warning_is_a_runtime_warning():
    from chainerlite.warnings import PerformanceWarning

    assert issubclass(PerformanceWarning, RuntimeWarning)
    with pytest.warns(PerformanceWarning):
        warnings.warn('slow', PerformanceWarning)


def test_summaries_at_top_level():
    assert chainerlite.DictSummary is chainerlite.reporter.DictSummary
    assert chainerlite.Summary is chainerlite.reporter.Summary


def test_get_cpu_array_types():
    assert chainerlite.get_cpu_array_types() == (numpy.ndarray,)


@pytest.mark.parametrize(
    'arrays, expected',
    [
        ([], True),
        ([numpy.ones(2), numpy.ones(3)], True),
        ([numpy.ones(2), None], True),
        ([numpy.float32(1)], False),
        ([numpy.ones(2), numpy.float32(1)], False),
        ([numpy.ones(2), [1.0]], False),
    ],
)
def test_is_arrays_compatible(arrays, expected):
    assert chainerlite.is_arrays_compatible(arrays) is expected


@pytest.mark.skipif(cuda.available, reason='the stand-ins exist without CuPy only')
def test_cuda_device_event_stream_are_inert_without_cupy():
    with cuda.Device(0) as device:
        assert isinstance(device, cuda.Device)
    cuda.Event()
    cuda.Stream(non_blocking=True)


def test_chain_list_insert_renames_children():
    layers = chainerlite.ChainList(L.Linear(2, 2), L.Linear(2, 3))
    layers.insert(1, L.Linear(2, 4))
    layers.insert(-1, L.Linear(2, 5))
    assert [link.W.shape[0] for link in layers] == [2, 4, 5, 3]
    assert [link.name for link in layers] == ['0', '1', '2', '3']
    assert [p for p, _ in layers.namedparams()][-2:] == ['/3/W', '/3/b']
    with pytest.raises(TypeError, match='ChainList.insert'):
        layers.insert(0, 3)


def test_variable_repr_and_str():
    v = chainerlite.Variable(numpy.ones((2, 2), numpy.float32), name='w')
    assert variable.variable_repr(v) == repr(v)
    assert variable.variable_str(v) == str(v)
    assert variable.variable_str(v).startswith('variable w(')


def test_training_trigger_module():
    from chainerlite.training import trigger
    from chainerlite.training.triggers import IntervalTrigger

    assert trigger.IntervalTrigger is IntervalTrigger
    assert chainerlite.training.IntervalTrigger is IntervalTrigger
    assert isinstance(trigger.get_trigger((2, 'epoch')), IntervalTrigger)


def test_module_aliases():
    from chainerlite.links.activation import simplified_dropconnect
    from chainerlite.training.extensions import variable_unchain

    assert simplified_dropconnect.SimplifiedDropconnect is L.SimplifiedDropconnect
    # defined there, as in Chainer (not in links.connection)
    assert L.SimplifiedDropconnect.__module__ == simplified_dropconnect.__name__
    assert (
        variable_unchain.unchain_variables
        is chainerlite.training.extensions.unchain_variables
    )


@pytest.mark.parametrize(
    'func, expected',
    [
        (lambda v: basic_math.absolute(v), [1.0, 2.0]),
        (lambda v: basic_math.rsub(v, 3.0), [2.0, 5.0]),
        (lambda v: basic_math.rdiv(v, 2.0), [2.0, -1.0]),
        (lambda v: basic_math.rpow(v, 2.0), [2.0, 0.25]),
        (lambda v: basic_math.floordiv(v, 2.0), [0.0, -1.0]),
        (lambda v: basic_math.rfloordiv(v, 3.0), [3.0, -2.0]),
        (lambda v: v // 2.0, [0.0, -1.0]),
        (lambda v: 3.0 // v, [3.0, -2.0]),
    ],
)
def test_basic_math_operator_functions(func, expected):
    v = chainerlite.Variable(numpy.array([1.0, -2.0], numpy.float32))
    y = func(v)
    assert isinstance(y, chainerlite.Variable)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected)


def test_basic_math_matmul_functions():
    a = chainerlite.Variable(numpy.arange(4, dtype=numpy.float32).reshape(2, 2))
    b = numpy.eye(2, dtype=numpy.float32) * 2
    numpy.testing.assert_allclose(basic_math.matmul(a, b).array, a.array @ b)
    numpy.testing.assert_allclose(basic_math.rmatmul(a, b).array, b @ a.array)


def test_optimizer_call_hook():
    model = L.Linear(2, 2)
    optimizer = chainerlite.optimizers.SGD()
    optimizer.setup(model)
    seen = []
    optimizer.call_hook(lambda opt: seen.append(opt))
    assert seen == [optimizer]


def test_discriminative_loss_module_path():
    from chainerlite.functions.loss import discriminative_loss

    assert (
        discriminative_loss.discriminative_margin_based_clustering_loss
        is chainerlite.functions.discriminative_margin_based_clustering_loss
    )


def test_debug_mode_context_manager():
    with pytest.warns(DeprecationWarning, match='DebugMode'):
        mode = chainerlite.DebugMode(True)
    assert not chainerlite.is_debug()
    with mode:
        assert chainerlite.is_debug()
    assert not chainerlite.is_debug()


def test_get_compute_mode_and_fallback():
    assert chainerlite.get_compute_mode() is None
    with chainerlite.using_config('compute_mode', 'cudnn_fast'):
        assert chainerlite.get_compute_mode() == 'cudnn_fast'
    assert repr(chainerlite.Fallback) == 'Fallback'
    assert chainerlite.FunctionAdapter is chainerlite.function.FunctionAdapter


def test_should_use_cudnn_tensor_core_follows_the_config():
    assert chainerlite.should_use_cudnn_tensor_core is cuda.should_use_cudnn_tensor_core
    with chainerlite.using_config('use_cudnn_tensor_core', 'always'):
        assert cuda.should_use_cudnn_tensor_core(numpy.float32)
    with chainerlite.using_config('use_cudnn_tensor_core', 'never'):
        assert not cuda.should_use_cudnn_tensor_core(numpy.float16)
    with chainerlite.using_config('use_cudnn_tensor_core', 'auto'):
        assert cuda.should_use_cudnn_tensor_core(numpy.float16) == cuda.cudnn_enabled
        assert not cuda.should_use_cudnn_tensor_core(numpy.float32)
    with chainerlite.using_config('use_cudnn_tensor_core', 'sometimes'):
        with pytest.raises(ValueError, match='use_cudnn_tensor_core'):
            cuda.should_use_cudnn_tensor_core(numpy.float16)


def test_old_module_paths_of_hooks_grad_and_assert_allclose():
    from chainerlite import function
    from chainerlite import function_node
    from chainerlite import gradient_check
    from chainerlite.function_hooks import cupy_memory_profile

    assert function.FunctionHook is chainerlite.FunctionHook
    assert function_node.grad is chainerlite.grad
    assert cupy_memory_profile.memory_hook_available == cuda.available
    gradient_check.assert_allclose(numpy.ones(2), numpy.ones(2) + 1e-7)
    with pytest.raises(AssertionError):
        gradient_check.assert_allclose(numpy.ones(2), numpy.zeros(2))


def test_static_graph_utilities():
    from chainerlite.graph_optimizations import static_graph_utilities as s

    def f(x):
        return x + 1

    assert s.static_code(f) is f
    assert chainerlite.graph_optimizations.static_code is s.static_code

    class Double(chainerlite.FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

    (y,) = s.static_forward_optimizations(Double(), (numpy.ones(2),))
    numpy.testing.assert_array_equal(y, numpy.full(2, 2.0))


def test_pooling_2d_base_class():
    from chainerlite.functions.pooling import pooling_2d

    class MinPooling2D(pooling_2d.Pooling2D):
        def forward(self, inputs):
            (x,) = inputs
            n, c, h, w = x.shape
            return (
                x.reshape(n, c, h // self.kh, self.kh, w // self.kw, self.kw).min(
                    axis=(3, 5)
                ),
            )

    node = MinPooling2D((2, 1), pad=(1, 0))
    assert (node.kh, node.kw, node.sy, node.sx, node.ph, node.pw) == (2, 1, 2, 1, 1, 0)
    assert node.cover_all and not node.return_indices
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    (y,) = MinPooling2D(2).apply((x,))
    numpy.testing.assert_array_equal(y.array, [[[[0, 2], [8, 10]]]])
    with pytest.raises(ValueError, match='pooling_2d'):
        pooling_2d.Pooling2D(0)
    with pytest.raises(chainerlite.utils.type_check.InvalidType):
        MinPooling2D(2).apply((numpy.zeros((4, 4), numpy.float32),))
