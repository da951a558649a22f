"""Lazy access to mpi4py: importing chainerlite never needs MPI."""

INSTALL_HINT = (
    'chainerlite.chainermn needs mpi4py and an MPI runtime: '
    'pip install "chainerlite[mpi]" (mpi4py with the mpich wheel), or '
    'pip install mpi4py built against a system MPI'
)


def get_mpi():
    """Returns ``mpi4py.MPI``, or raises an ImportError saying what to install."""
    try:
        from mpi4py import MPI
    except ImportError as error:
        raise ImportError('{} ({})'.format(INSTALL_HINT, error)) from error
    return MPI


def world():
    """``MPI.COMM_WORLD``."""
    return get_mpi().COMM_WORLD


_half_sum_op = None


def _add_half(inbuf, outbuf, datatype):
    import numpy

    out = numpy.frombuffer(outbuf, dtype=numpy.float16)
    out += numpy.frombuffer(inbuf, dtype=numpy.float16)


def sum_op(dtype):
    """The MPI reduction op and datatype that add arrays of ``dtype``.

    MPI has no half-precision type; float16 travels as 16-bit words and a
    user-defined op adds them as float16.
    """
    import numpy

    MPI = get_mpi()
    if numpy.dtype(dtype) != numpy.float16:
        return MPI.SUM, None
    global _half_sum_op
    if _half_sum_op is None:
        _half_sum_op = MPI.Op.Create(_add_half, commute=True)
    return _half_sum_op, MPI.UINT16_T
