"""Thread-local configuration: ``config``, ``global_config``, ``using_config``.

``config.<name>`` reads this thread's value if it set one, else the global
value; assigning to it affects the current thread only.
"""

import os

from chainerlite._core import (  # NOQA
    GlobalConfig,
    LocalConfig,
    config,
    global_config,
    using_config,
)
from chainerlite import _dtype


def _env_flag(name, default):
    return bool(int(os.environ.get(name, default)))


def _use_ideep_default():
    # Chainer's default is 'never'. Where the onednn extra is installed (its
    # library file is there; nothing is loaded here) the user asked for
    # oneDNN, and 'auto' runs it only where it was measured faster than
    # chainerlite's own kernels. CHAINER_USE_IDEEP overrides either.
    from chainerlite._kernels import onednn

    for path in onednn._candidates():
        if os.path.isabs(path) and os.path.exists(path):
            return 'auto'
    return 'never'


global_config.debug = _env_flag('CHAINER_DEBUG', '0')
global_config.cudnn_deterministic = False
global_config.warn_nondeterministic = False
global_config.enable_backprop = True
global_config.keep_graph_on_report = _env_flag('CHAINER_KEEP_GRAPH_ON_REPORT', '0')
global_config.train = True
global_config.type_check = _env_flag('CHAINER_TYPE_CHECK', '1')
global_config.use_cudnn = os.environ.get('CHAINER_USE_CUDNN', 'auto')
global_config.use_cudnn_tensor_core = 'auto'
global_config.autotune = False
global_config.schedule_func = None
global_config.use_ideep = os.environ.get('CHAINER_USE_IDEEP') or _use_ideep_default()
global_config.lazy_grad_sum = False
global_config.cudnn_fast_batch_normalization = False
global_config.in_recomputing = False
global_config.use_static_graph = True
global_config._will_recompute = False
global_config.compute_mode = None
global_config.dtype = _dtype.dtype_from_env(os.environ.get('CHAINER_DTYPE', 'float32'))
