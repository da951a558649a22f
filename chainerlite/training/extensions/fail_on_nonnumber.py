"""Stopping the training when the parameters diverge."""

from __future__ import annotations

from chainerlite.backends import cuda
from chainerlite.training import extension


class FailOnNonNumber(extension.Extension):
    """Raises when a parameter holds NaN or infinity.

    It checks the values of every parameter of every optimizer's target
    (not their gradients, as in Chainer 7.8.1), at each iteration by
    default.
    """

    def __call__(self, trainer):
        """Raises ``RuntimeError`` if some value is not finite."""
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            for param_name, param in optimizer.target.namedparams():
                array = param.array
                if array is None:
                    continue
                xp = cuda.get_array_module(array)
                if not bool(xp.isfinite(array).all()):
                    raise RuntimeError(
                        'FailOnNonNumber: the parameter {} of the optimizer '
                        '{!r} holds NaN or infinity: the training '
                        'diverged'.format(param_name, name)
                    )
