import numpy

DIRECT_CONV_MAX_KW: int

def direct_conv_simd() -> bool: ...
def direct_conv_2d(
    xp: numpy.ndarray,
    wt: numpy.ndarray,
    bias: numpy.ndarray | None,
    y: numpy.ndarray,
    portable: bool = False,
) -> None: ...
def direct_conv_2d_grad_weight(
    xp: numpy.ndarray, gy: numpy.ndarray, gw: numpy.ndarray, portable: bool = False
) -> None: ...
