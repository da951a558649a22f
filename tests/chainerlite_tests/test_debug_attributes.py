"""Chainer's debugging and layout attributes of Variable and FunctionNode,
and the loss-scaling steps of Optimizer."""

import traceback

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import links
from chainerlite import optimizers


def test_debug_print_of_a_named_variable_with_grad():
    x = chainerlite.Variable(numpy.array([[1.0, 3.0]], numpy.float32), name='x')
    x.grad = numpy.array([[2.0, 2.0]], numpy.float32)
    assert x.debug_print().split('\n') == [
        '<variable x>',
        '- device: CPU',
        "- backend: <class 'numpy.ndarray'>",
        '- shape: (1, 2)',
        '- dtype: float32',
        '- statistics: mean=2.00000000, std=1.00000000',
        '- grad: mean=2.00000000, std=0.00000000',
    ]


def test_debug_print_of_an_empty_unnamed_variable():
    v = chainerlite.Variable()
    lines = v.debug_print().split('\n')
    assert lines[0] == '<variable at {:#x}>'.format(id(v))
    assert lines[1:] == [
        '- device: None',
        '- backend: None',
        '- shape: None',
        '- dtype: None',
        '- statistics: None',
        '- grad: None',
    ]


def test_raw_array_and_layout():
    x = chainerlite.Variable(numpy.ones(3, numpy.float32))
    assert x.raw_array is x.array
    assert x.layout is None


def test_node_layouts_and_lazy_grad_sum():
    x = chainerlite.Variable(numpy.ones(3, numpy.float32))
    y = x * 2 + x
    node = y.creator
    assert node.input_layouts == (None, None)
    assert node.output_layouts == (None,)
    assert node.lazy_grad_sum is False
    node.lazy_grad_sum = True
    assert node.lazy_grad_sum is True
    # as Chainer asserts: a node not applied has no layouts
    with pytest.raises(AssertionError):
        chainerlite.FunctionNode().input_layouts
    with pytest.raises(AssertionError):
        chainerlite.FunctionNode().output_layouts


@pytest.mark.parametrize('debug', [False, True])
def test_stack_is_kept_in_debug_mode_only(debug):
    x = chainerlite.Variable(numpy.ones(3, numpy.float32))
    with chainerlite.using_config('debug', debug):
        y = F.relu(x)
    if debug:
        assert isinstance(y.creator.stack, traceback.StackSummary)
        assert any(
            f.name == 'test_stack_is_kept_in_debug_mode_only' for f in y.creator.stack
        )
    else:
        assert y.creator.stack is None


def _optimizer_with_grads(grad):
    link = links.Linear(2, 3)
    link.W.grad = numpy.full((3, 2), grad, numpy.float32)
    link.b.grad = numpy.zeros(3, numpy.float32)
    opt = optimizers.SGD()
    opt.setup(link)
    return opt


def test_loss_scale_steps():
    opt = _optimizer_with_grads(1.0)
    opt.loss_scaling(interval=2)
    opt.check_nan_in_grads()
    assert opt.is_safe_to_update()
    scales = []
    for _ in range(3):
        opt.update_loss_scale()
        scales.append(opt._loss_scale)
    assert scales == [2.0, 4.0, 8.0]  # doubled until a first overflow
    opt.target.W.grad[0, 0] = numpy.inf
    with pytest.warns(UserWarning, match='Non finite number found in param.grad of /W'):
        opt.check_nan_in_grads()
    assert not opt.is_safe_to_update()
    opt.update_loss_scale()
    assert opt._loss_scale == 4.0
    opt.target.W.grad[0, 0] = 1.0
    opt.check_nan_in_grads()
    opt.update_loss_scale()  # then by 2 ** (1 / interval)
    numpy.testing.assert_allclose(opt._loss_scale, 4.0 * 2**0.5)


def test_update_loss_scale_without_dynamic_scaling_does_nothing():
    # as in Chainer, gradients are only checked under dynamic scaling
    opt = _optimizer_with_grads(numpy.nan)
    opt.check_nan_in_grads()
    assert opt.is_safe_to_update()
    opt.update_loss_scale()
    assert opt._loss_scale is None
