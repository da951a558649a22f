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
)
from chainerlite._core.backprop import backward, grad  # NOQA
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
