"""Ready-made function hooks, one per module."""

from chainerlite.function_hooks.timer import TimerHook  # NOQA
from chainerlite.function_hooks.cuda_profile import CUDAProfileHook  # NOQA
from chainerlite.function_hooks.cupy_memory_profile import CupyMemoryProfileHook  # NOQA
from chainerlite.function_hooks.debug_print import PrintHook  # NOQA
from chainerlite.function_hooks.memory import MemoryHook  # NOQA
from chainerlite.function_hooks.nan_check import NaNHook  # NOQA
from chainerlite.function_hooks.trace import TraceHook  # NOQA
