"""Digits demo: an MLP and a CNN trained on the UCI handwritten digits.

``python -m chainerlite.examples.digits`` trains both models with Adam on
a :class:`~chainerlite.training.Trainer` (stopped half way and resumed from
its snapshot), prints a :class:`~chainerlite.function_hooks.TimerHook`
report of one CNN epoch, and compares the peak memory of CNN training
without and with :func:`~chainerlite.functions.forget`.
"""

from chainerlite.examples.digits.cli import main  # NOQA
