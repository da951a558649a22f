"""Ready-made function hooks, one per module."""

from chainerlite.function_hooks.timer import TimerHook  # NOQA
