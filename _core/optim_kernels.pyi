from typing import Any

def adam(
    param: Any,
    grad: Any,
    m: Any,
    v: Any,
    one_minus_beta1: Any,
    one_minus_beta2: Any,
    lr: Any,
    eps: Any,
    eta: Any,
    weight_decay_rate: Any,
) -> bool: ...
