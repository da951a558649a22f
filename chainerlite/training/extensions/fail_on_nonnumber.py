"""Stopping the training when the parameters diverge."""

from __future__ import annotations

from chainerlite.backends import cuda
from chainerlite.training import extension


class FailOnNonNumber(extension.Extension):
    """Raises when a parameter (or its gradient) holds NaN or infinity.

    It checks every parameter of every optimizer's target, at each
    iteration by default.

    Args:
        check_grad (bool): Also check the gradients.

    """

    def __init__(self, check_grad=True) -> None:
        self._check_grad = check_grad

    def __call__(self, trainer):
        """Raises ``RuntimeError`` if some value is not finite."""
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            target = optimizer.target
            for param_name, param in target.namedparams():
                arrays = [('value', param.array)]
                if self._check_grad:
                    arrays.append(('gradient', param.grad))
                for kind, array in arrays:
                    if array is None:
                        continue
                    xp = cuda.get_array_module(array)
                    if not bool(xp.isfinite(array).all()):
                        raise RuntimeError(
                            'FailOnNonNumber: the {} of the parameter {} of '
                            'the optimizer {!r} holds NaN or infinity: the '
                            'training diverged'.format(kind, param_name, name)
                        )
