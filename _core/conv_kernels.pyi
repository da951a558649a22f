import numpy

def im2col_2d(
    img: numpy.ndarray,
    col: numpy.ndarray,
    sy: int,
    sx: int,
    py: int,
    px: int,
    dy: int,
    dx: int,
    pval: float,
) -> None: ...
def im2col_padded_2d(
    padded: numpy.ndarray, col: numpy.ndarray, sy: int, sx: int, dy: int, dx: int
) -> None: ...
def col2im_2d(
    col: numpy.ndarray,
    img: numpy.ndarray,
    sy: int,
    sx: int,
    py: int,
    px: int,
    dy: int,
    dx: int,
) -> None: ...
def channels_to_batch(
    y: numpy.ndarray, bias: numpy.ndarray | None, out: numpy.ndarray
) -> None: ...
