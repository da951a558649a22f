import numpy

def lstm_forward(
    c_prev: numpy.ndarray,
    x: numpy.ndarray,
    c_next: numpy.ndarray,
    h: numpy.ndarray,
    save: bool = False,
) -> numpy.ndarray | None: ...
def lstm_backward(
    c_prev: numpy.ndarray,
    x: numpy.ndarray,
    c_next: numpy.ndarray,
    gc: numpy.ndarray,
    gh: numpy.ndarray,
    gc_prev: numpy.ndarray,
    gx: numpy.ndarray,
    act: numpy.ndarray | None = None,
) -> None: ...
