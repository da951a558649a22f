"""Hook that clips each gradient element into a range."""

from __future__ import annotations

from chainerlite import backend


class GradientHardClipping:
    """Optimizer/UpdateRule hook that clips gradients element-wise.

    Each gradient element is clipped into ``[lower_bound, upper_bound]``.

    Args:
        lower_bound (float): Smallest allowed element value.
        upper_bound (float): Largest allowed element value.

    Attributes:
        lower_bound (float): Smallest allowed element value.
        upper_bound (float): Largest allowed element value.
        timing (str): ``'pre'``: the hook runs before the update.
        name (str): Default registration name, ``'GradientHardClipping'``.
        call_for_each_param (bool): ``True``: called as
            ``hook(rule, param)``.

    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound: float, upper_bound: float) -> None:
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        grad = param.grad
        if grad is None:
            return
        xp = backend.get_array_module(grad)
        xp.clip(grad, self.lower_bound, self.upper_bound, out=grad)
