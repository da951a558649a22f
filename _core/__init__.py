"""Compiled core of chainerlite: graph nodes, backprop, hooks, configuration.

This facade re-exports the compiled names; Python modules import them from
here rather than from an individual extension module.
"""

from chainerlite._core.config import (  # NOQA
    GlobalConfig,
    LocalConfig,
    config,
    force_backprop_mode,
    global_config,
    no_backprop_mode,
    using_config,
)
from chainerlite._core.hooks import (  # NOQA
    HookRegistry,
    get_function_hooks,
)
from chainerlite._core.node import (  # NOQA
    FunctionNode,
    Variable,
    VariableNode,
    _as_variable,
    _set_cupy,
    force_array,
    get_array_module,
    retained_indexes,
    substitute_forward,
)
from chainerlite._core.backprop import backprop, backward, grad  # NOQA
from chainerlite._core.ready import (  # NOQA
    ReadyGrads,
    recording_ready_grads,
    set_ready_grads,
)
from chainerlite._core.ops_math import (  # NOQA
    Absolute,
    Add,
    AddConstant,
    Div,
    DivFromConstant,
    Mul,
    MulConstant,
    Neg,
    PowConstVar,
    PowVarConst,
    PowVarVar,
    Sub,
    SubFromConstant,
)

import importlib  # NOQA: E402

from chainerlite._core.facts import open_classes  # NOQA: E402

# Chainer's classes are plain Python classes, and code built on it sets and
# replaces their attributes (mock.patch.object(FunctionNode, 'apply', ...));
# the compiled classes take that too, and the engine honours it (facts).
# (The modules by import: the facade's name `config` is the configuration.)
for _name in ('config', 'hooks', 'node', 'ops_array', 'ops_math', 'ops_nn', 'timer'):
    open_classes(importlib.import_module('chainerlite._core.' + _name))
del _name
