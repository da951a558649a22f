"""Parameters that are consecutive rows of one array, joined without a copy.

The n-step links keep the weights (and biases) that a cell joins along
their first axis (an LSTM's four gates) as views of one array, in the
cell's order (:func:`share_rows`); :func:`joined` then hands the cell that
array itself, where a concatenation would copy all of them on every call.
The optimizers update the parameters in place, so the array stays current;
a parameter given a new array (``to_device``, an assignment) ends the
sharing, and the call falls back to a concatenation.
"""

import numpy

from chainerlite import function_node
from chainerlite import variable
from chainerlite.functions.array import split_axis


def share_rows(params):
    """Makes the arrays of ``params`` (Parameters of one dtype, equal
    trailing shapes) consecutive rows of one new array, in the order
    given, keeping their values. NumPy arrays only; others are left."""
    arrays = [p.array for p in params]
    if not all(isinstance(a, numpy.ndarray) for a in arrays):
        return
    whole = numpy.concatenate(arrays, axis=0)
    start = 0
    for p, a in zip(params, arrays):
        p.array = whole[start : start + len(a)]
        start += len(a)


def _address(a):
    return a.__array_interface__['data'][0]


def _whole(arrays):
    # The array whose consecutive rows ``arrays`` are, in order, or None.
    base = arrays[0].base
    if (
        not isinstance(base, numpy.ndarray)
        or not base.flags.c_contiguous
        or len(base) != sum(len(a) for a in arrays)
    ):
        return None
    step = base.strides[0]
    at = _address(base)
    for a in arrays:
        if a.base is not base or _address(a) != at or a.shape[1:] != base.shape[1:]:
            return None
        at += len(a) * step
    return base


class JoinedViews(function_node.FunctionNode):
    """Concatenation along the first axis of inputs that are consecutive
    rows of ``whole``: the output is ``whole`` itself (no copy)."""

    def __init__(self, whole):
        self.whole = whole

    def forward(self, inputs):
        self.sections = numpy.cumsum([len(x) for x in inputs])[:-1]
        return (self.whole.view(),)

    def backward(self, indexes, grad_outputs):
        parts = split_axis.split_axis(grad_outputs[0], self.sections, axis=0)
        return tuple(parts[i] for i in indexes)


def joined(params):
    """``params`` (Variables or arrays) concatenated along their first axis
    without a copy where they are consecutive rows of one array (see
    :func:`share_rows`); None otherwise."""
    arrays = [variable.as_array(p) for p in params]
    if len(arrays) < 2 or not all(isinstance(a, numpy.ndarray) for a in arrays):
        return None
    whole = _whole(arrays)
    if whole is None:
        return None
    return JoinedViews(whole).apply(params)[0]
