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
from chainerlite._core.conv_kernels import col2im_2d, im2col_2d  # NOQA
from chainerlite._core.conv_kernels import channels_to_batch  # NOQA
from chainerlite._core.conv_kernels import im2col_padded_2d  # NOQA
from chainerlite._core.direct_conv import (  # NOQA
    DIRECT_CONV_MAX_KW,
    direct_conv_2d,
    direct_conv_2d_grad_weight,
    direct_conv_simd,
)
from chainerlite._core.lstm_kernels import (  # NOQA
    lstm_backward,
    lstm_forward,
)
from chainerlite._core.pool_kernels import (  # NOQA
    max_pooling_2d,
    max_pooling_2d_grad,
)
from chainerlite._core.sce_kernels import sce_backward, sce_forward  # NOQA
