"""Layer-wise adaptive rate scaling (LARS) hook."""

from __future__ import annotations


class GradientLARS:
    """Optimizer/UpdateRule hook for layer-wise adaptive rate scaling.

    With the weight decay ``beta``, each gradient becomes
    ``clip_rate * (grad + beta * param)``, where ``clip_rate = |param| /
    (eps + |grad| + beta * |param|)`` (L2 norms) when ``|param|`` exceeds
    ``threshold`` and 1 otherwise (You et al., arXiv:1708.03888). The
    learning rate of the optimizer then plays the part of the global rate
    times the LARS coefficient.

    Args:
        threshold (float): Weight norm above which the gradient is scaled.
        weight_decay (float): Coefficient ``beta`` of the weight decay.
        eps (float): Small value for numerical stability.

    Attributes:
        threshold (float): Weight norm above which the gradient is scaled.
        weight_decay (float): Coefficient of the weight decay.
        eps (float): Small value for numerical stability.
        timing (str): ``'pre'``: the hook runs before the update.
        name (str): Default registration name, ``'GradientLARS'``.
        call_for_each_param (bool): ``True``: called as
            ``hook(rule, param)``.

    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(
        self, threshold: float = 1e-2, weight_decay: float = 0.0, eps: float = 1e-9
    ) -> None:
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = param.xp
        p_norm = float(xp.linalg.norm(p))
        g_norm = float(xp.linalg.norm(g))
        rate = 1.0
        if p_norm > self.threshold:
            rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        g += self.weight_decay * p
        g *= rate
