"""Hook that rescales all gradients to bound their global L2 norm."""

from __future__ import annotations

import math

from chainerlite.backends import cuda
from chainerlite.optimizer_hooks import _kernels


def _sum_sqnorm(arrays):
    total = 0.0
    on_gpu = {}
    for x in arrays:
        if isinstance(x, cuda.ndarray):
            # one reduction per array, summed on its device: one
            # synchronization per device instead of one per array
            with x.device:
                s = _kernels.sqnorm(x)
                device_id = x.device.id
                on_gpu[device_id] = on_gpu.get(device_id, 0) + s
            continue
        x = x.ravel()
        total += float(x.dot(x))
    return total + sum(float(s) for s in on_gpu.values())


class GradientClipping:
    """Optimizer hook that clips the gradients by their global L2 norm.

    When the L2 norm of all the gradients together (as one vector) exceeds
    ``threshold``, every gradient is multiplied by ``threshold / norm``, so
    that the norm becomes ``threshold``. Otherwise nothing changes.

    Args:
        threshold (float): Largest allowed L2 norm.

    Attributes:
        threshold (float): Largest allowed L2 norm.
        timing (str): ``'pre'``: the hook runs before the update.
        name (str): Default registration name, ``'GradientClipping'``.
        call_for_each_param (bool): ``False``: called as
            ``hook(optimizer)``.

    """

    name = 'GradientClipping'
    call_for_each_param = False
    timing = 'pre'

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold

    def __call__(self, opt):
        grads = [
            param.grad for param in opt.target.params(False) if param.grad is not None
        ]
        norm = math.sqrt(_sum_sqnorm(grads))
        if norm <= self.threshold:
            return
        rate = self.threshold / norm
        for grad in grads:
            grad *= rate
