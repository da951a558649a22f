import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hooks
from chainerlite.backends import cuda
from chainerlite.function_hooks import nan_check
from chainerlite.testing import attr


def _variable(values, dtype=numpy.float32):
    return chainerlite.Variable(numpy.array(values, dtype))


def test_exported():
    assert function_hooks.NaNHook is nan_check.NaNHook
    assert nan_check.NaNHook().name == 'NaNHook'


@pytest.mark.parametrize('bad', [numpy.nan, numpy.inf, -numpy.inf])
def test_forward_input_given_as_data(bad):
    x = _variable([1.0, bad])
    with pytest.raises(
        RuntimeError,
        match=r'NaNHook: Exp .* input 0 in '
        r'forward',
    ):
        with nan_check.NaNHook():
            F.exp(x)


def test_forward_raises_at_the_function_producing_the_value():
    x = _variable([0.0, 1.0])
    calls = []
    with pytest.raises(RuntimeError) as info:
        with nan_check.NaNHook(), numpy.errstate(divide='ignore'):
            calls.append('start')
            F.log(x)  # computes -inf
            calls.append('log')
    assert calls == ['start']
    message = str(info.value)
    assert 'Log' in message and 'output 0' in message
    assert 'forward' in message and 'backward' not in message
    assert chainerlite.get_function_hooks() == {}


def test_backward_raises_at_the_function_receiving_the_gradient():
    x = _variable([0.0, 4.0])
    with nan_check.NaNHook():
        h = F.identity(x)
        y = F.sum(F.sqrt(h))  # finite forward
    g = F.sqrt(h)
    g.grad = numpy.array([numpy.inf, 1.0], numpy.float32)
    with pytest.raises(RuntimeError) as info:
        with nan_check.NaNHook():
            g.backward()  # an infinite gradient arrives at Sqrt
    message = str(info.value)
    assert 'Sqrt' in message and 'output 0' in message
    assert 'backward' in message
    assert x.grad is None
    del y


def test_functions_run_by_a_backward_are_checked_as_they_produce():
    x = _variable([0.0, 4.0])
    y = F.sum(F.sqrt(x))  # finite forward
    with pytest.raises(RuntimeError) as info:
        with nan_check.NaNHook(), numpy.errstate(divide='ignore'):
            y.backward()  # sqrt's backward divides by zero
    assert 'produced a non-finite value' in str(info.value)
    assert x.grad is None


def test_backward_initial_gradient():
    y = F.exp(_variable([1.0, 2.0]))
    y.grad = numpy.array([numpy.nan, 1.0], numpy.float32)
    with pytest.raises(RuntimeError, match=r'output 0 of Exp .*backward'):
        with nan_check.NaNHook():
            y.backward()


def test_finite_graph_passes():
    x = _variable([[0.5, -1.0], [2.0, 3.0]], numpy.float16)
    with nan_check.NaNHook():
        y = F.forget(lambda a: F.sum(F.exp(a) * a), x)
        y.backward()
        F.identity(numpy.array([1, 2], numpy.int32))
        F.identity(numpy.zeros((0, 2), numpy.float32))
    assert numpy.isfinite(x.grad).all()


def test_non_finite_gradient_of_a_second_output():
    x = _variable([[1.0, 2.0], [0.0, 4.0]])
    a, b = F.split_axis(x, 2, 0)
    b_grad = numpy.array([[numpy.inf, 1.0]], numpy.float32)
    with pytest.raises(RuntimeError, match='output 1 of SplitAxis'):
        with nan_check.NaNHook():
            grads = [numpy.ones_like(a.array), b_grad]
            chainerlite.backward([a, b], [chainerlite.Variable(g) for g in grads])


def test_only_active_inside_the_block():
    x = _variable([numpy.nan])
    with nan_check.NaNHook():
        pass
    assert numpy.isnan(F.exp(x).array).all()


@attr.gpu
def test_gpu_arrays_are_checked():
    x = chainerlite.Variable(cuda.cupy.array([1.0, numpy.nan], numpy.float32))
    with pytest.raises(RuntimeError, match='Exp'):
        with nan_check.NaNHook():
            F.exp(x)
