"""Chainer users import these paths; they must exist and hold the same objects."""

import importlib

import pytest

import chainerlite


@pytest.mark.parametrize(
    'path, name, target',
    [
        ('chainerlite.functions.math.basic_math', 'Mul', 'chainerlite._core.Mul'),
        (
            'chainerlite.functions.math.basic_math',
            'MulConstant',
            'chainerlite._core.MulConstant',
        ),
        ('chainerlite.functions.math.exponential', 'Exp', None),
        ('chainerlite.function', 'no_backprop_mode', 'chainerlite.no_backprop_mode'),
        (
            'chainerlite.function',
            'force_backprop_mode',
            'chainerlite.force_backprop_mode',
        ),
        ('chainerlite.function', 'Function', 'chainerlite.Function'),
        ('chainerlite.function_node', 'FunctionNode', 'chainerlite.FunctionNode'),
        ('chainerlite.function_hook', 'FunctionHook', 'chainerlite.FunctionHook'),
        ('chainerlite.variable', 'Variable', 'chainerlite.Variable'),
        ('chainerlite.variable', 'Parameter', 'chainerlite.Parameter'),
        ('chainerlite.configuration', 'using_config', 'chainerlite.using_config'),
        ('chainerlite.backend', 'get_array_module', None),
        ('chainerlite.function_hooks', 'TimerHook', None),
        ('chainerlite.utils', 'force_array', None),
        ('chainerlite.testing.attr', 'gpu', None),
        ('chainerlite.testing.attr', 'cudnn', None),
        ('chainerlite.testing.attr', 'slow', None),
    ],
)
def test_path_holds_object(path, name, target):
    obj = getattr(importlib.import_module(path), name)
    if target is not None:
        module, _, attr = target.rpartition('.')
        assert obj is getattr(importlib.import_module(module), attr)


def test_cuda_module_without_cupy():
    from chainerlite.backends import cuda
    import chainerlite.cuda as old_alias

    assert old_alias is cuda
    if cuda.cupy is None:
        assert cuda.available is False
        with pytest.raises(RuntimeError):
            cuda.check_cuda_available()


def test_nothing_named_core_installed_at_top_level():
    import os
    import site

    for path in site.getsitepackages():
        assert not os.path.exists(os.path.join(path, '_core'))
    assert chainerlite._core.__name__ == 'chainerlite._core'
    assert chainerlite._core.node.__name__ == 'chainerlite._core.node'
