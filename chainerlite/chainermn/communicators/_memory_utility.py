"""Host staging of arrays and packing of parameters into one flat buffer."""

import numpy

from chainerlite import backend


def to_host(array):
    """A C-contiguous NumPy copy (or view) of ``array`` (NumPy or CuPy).

    Keeps 0-d arrays 0-d (``numpy.ascontiguousarray`` would not).
    """
    host = numpy.asarray(backend.CpuDevice().send(array))
    return host if host.flags.c_contiguous else host.copy(order='C')


def array_to_buffer_object(array):
    """An object MPI can read and write in place: the contiguous array itself.

    CuPy arrays are passed as they are (mpi4py reads their
    ``__cuda_array_interface__``; the MPI must be CUDA-aware).
    """
    xp = backend.get_array_module(array)
    return xp.ascontiguousarray(array)


def params_with_grad(model, zero_fill=False):
    """``model``'s initialized parameters (in name order) that have a gradient.

    With ``zero_fill``, a parameter whose gradient is None gets a zero
    gradient and is included.
    """
    params = []
    for _, param in sorted(model.namedparams(), key=lambda item: item[0]):
        if param.data is None:
            continue
        if param.grad is None:
            if not zero_fill:
                continue
            xp = backend.get_array_module(param.data)
            param.grad = xp.zeros_like(param.data)
        params.append(param)
    return params


def pack(arrays, dtype, xp=numpy, out=None, scale=1):
    """One flat ``dtype`` buffer of ``xp`` holding ``arrays`` one after another.

    Each array is multiplied by ``scale`` and cast to ``dtype`` on its way
    into the buffer (one pass over its elements, in its own dtype). With
    ``out`` (a flat ``dtype`` buffer of the right size), that buffer is
    filled and returned instead of a new one.
    """
    if out is None:
        out = xp.empty(sum(a.size for a in arrays), dtype=dtype)
    offset = 0
    for array in arrays:
        chunk = out[offset : offset + array.size].reshape(array.shape)
        if xp is numpy:
            if not isinstance(array, numpy.ndarray):
                array = to_host(array)
            numpy.multiply(array, scale, out=chunk, casting='unsafe')
        else:
            chunk[...] = xp.asarray(array) * scale
        offset += array.size
    return out


def unpack(buffer, arrays):
    """Copies consecutive pieces of ``buffer`` back into ``arrays`` in place."""
    offset = 0
    for array in arrays:
        piece = buffer[offset : offset + array.size].reshape(array.shape)
        backend.copyto(array, piece)
        offset += array.size


def unpack_grads(buffer, params):
    """Gives ``params`` their gradients from consecutive pieces of ``buffer``.

    A host gradient of the buffer's dtype becomes a view of its piece (no
    copy); any other gradient (another dtype, another device) has its piece
    copied into it.
    """
    offset = 0
    for param in params:
        grad = param.grad
        piece = buffer[offset : offset + grad.size].reshape(grad.shape)
        if type(grad) is type(piece) is numpy.ndarray and grad.dtype == piece.dtype:
            param.grad = piece
        else:
            backend.copyto(grad, piece)
        offset += grad.size
