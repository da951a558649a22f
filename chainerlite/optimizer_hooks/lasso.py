"""L1 regularization hook."""

from __future__ import annotations

from chainerlite import backend


class Lasso:
    """Optimizer/UpdateRule hook that adds L1 regularization.

    Adds ``rate * sign(param)`` to the gradient of each parameter, a
    subgradient of ``rate * ||param||_1``.

    Args:
        rate (float): Coefficient of the regularization.

    Attributes:
        rate (float): Coefficient of the regularization.
        timing (str): ``'pre'``: the hook runs before the update.
        name (str): Default registration name, ``'Lasso'``.
        call_for_each_param (bool): ``True``: called as
            ``hook(rule, param)``.

    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float) -> None:
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = backend.get_array_module(p)
        g += self.rate * xp.sign(p)
