"""Classes made at run time are freed once unused, as in Chainer.

The core caches facts per class (dtype kinds of a type check, which hook
callbacks a class overrides, whether a class has its own attribute hooks);
those caches must not keep the classes alive, or a node or hook class
defined inside a function that runs every step leaks.
"""

import gc
import weakref

import numpy as np
import pytest

import chainerlite
from chainerlite.utils import type_check


def _freed(make_and_use, n=20):
    refs = [weakref.ref(make_and_use()) for _ in range(n)]
    gc.collect()
    return [r for r in refs if r() is not None] == []


def _x():
    return chainerlite.Variable(np.ones((2, 3), np.float32))


def _node_class(with_attr_hooks=False):
    class Double(chainerlite.FunctionNode):
        check_type_forward = type_check.declare_kinds(x='f')

        def forward(self, inputs):
            self.retain_inputs((0,))
            return (inputs[0] * 2,)

        def backward(self, indexes, grad_outputs):
            return (grad_outputs[0] * 2,)

    if with_attr_hooks:

        def __setattr__(self, name, value):
            super(Double, self).__setattr__(name, value)

        Double.__setattr__ = __setattr__
    return Double


def test_function_node_class_is_freed_after_forward():
    def use():
        cls = _node_class()
        (y,) = cls().apply((_x(),))
        assert (y.array == 2).all()
        return cls

    assert _freed(use)


def test_function_node_class_with_attribute_hooks_is_freed():
    def use():
        cls = _node_class(with_attr_hooks=True)
        node = cls()
        node.extra = 1
        node.apply((_x(),))
        return cls

    assert _freed(use)


def test_function_node_class_failing_type_check_is_freed():
    def use():
        cls = _node_class()
        with pytest.raises(type_check.InvalidType):
            cls().apply((np.ones(2, np.int32),))
        return cls

    assert _freed(use)


def test_function_node_class_is_freed_after_backward():
    def use():
        cls = _node_class()
        (y,) = cls().apply((_x(),))
        y.grad = np.ones_like(y.array)
        y.backward()
        return cls

    assert _freed(use)


def test_function_node_class_is_freed_after_double_backward():
    def use():
        cls = _node_class()
        x = _x()
        (y,) = cls().apply((x,))
        y.grad = np.ones_like(y.array)
        y.backward(enable_double_backprop=True)
        return cls

    assert _freed(use)


def _hook_class():
    class Counter(chainerlite.FunctionHook):
        name = 'counter'

        def __init__(self):
            self.calls = 0

        def forward_preprocess(self, function, in_data):
            super().forward_preprocess(function, in_data)  # a __class__ cell
            self.calls += 1

        def backward_postprocess(self, function, in_data, out_grad):
            self.calls += 1

    return Counter


def test_global_hook_class_is_freed():
    def use():
        cls = _hook_class()
        x = _x()
        with cls() as hook:
            y = chainerlite.functions.sum(x * 2.0)
            y.backward()
        # two forward calls, two backward ones, and the two forward calls
        # the backward makes (broadcast of the sum's gradient, ``gy * 2.0``)
        assert hook.calls == 6
        return cls

    assert _freed(use)


def test_local_hook_class_is_freed():
    def use():
        cls = _hook_class()
        node = chainerlite.functions.activation.relu.ReLU()
        hook = cls()
        node.add_hook(hook)
        node.apply((_x(),))
        assert hook.calls == 1
        return cls

    assert _freed(use)


def test_variable_subclass_is_freed():
    def use():
        class Tagged(chainerlite.Variable):
            def __init__(self, data, tag):
                super().__init__(data)
                self.tag = tag

        v = Tagged(np.ones(3, np.float32), 'a')
        (v * 2.0).grad = np.ones(3, np.float32)
        return Tagged

    assert _freed(use)


def test_hook_class_cache_follows_class_changes():
    # the per-class mask cache is keyed by the class version: a callback
    # added to the class later is seen by hooks registered afterwards
    cls = _hook_class()
    with cls() as hook:
        _x() * 2.0
    assert hook.calls == 1

    def forward_postprocess(self, function, in_data):
        self.calls += 10

    cls.forward_postprocess = forward_postprocess
    with cls() as hook:
        _x() * 2.0
    assert hook.calls == 11
