import numpy

def max_pooling_2d(
    x: numpy.ndarray,
    y: numpy.ndarray,
    indexes: numpy.ndarray,
    kh: int,
    kw: int,
    sy: int,
    sx: int,
    py: int,
    px: int,
) -> None: ...
def max_pooling_2d_grad(
    gy: numpy.ndarray,
    indexes: numpy.ndarray,
    gx: numpy.ndarray,
    kh: int,
    kw: int,
    sy: int,
    sx: int,
    py: int,
    px: int,
) -> None: ...
