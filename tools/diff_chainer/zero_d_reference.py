"""The reference where Chainer's own node fails on 0-d arrays.

Some of Chainer's nodes hand a NumPy scalar on where its engine wants an
array when their inputs are 0-d (``sigmoid_cross_entropy``'s gradient node:
``TypeError: forward output must be a tuple of ndarrays``), so Chainer gives
no answer for a valid 0-d call. The same call on the inputs as arrays of one
element computes the same sums; its result, each array reshaped to the
shape of the input (or output) it belongs to, is the reference.
"""

import numpy

from tools.diff_chainer import references

# The message of Chainer's check of what a node's forward returned.
NOT_ARRAYS = 'forward output must be a tuple of ndarrays'


def one_element_for_zero_d(restage, inputs):
    """A reference maker for a gradient stage: ``restage(shaped)`` gives the
    stages up to that one for the inputs ``shaped``; ``inputs`` are the
    case's. Only where Chainer raised for :data:`NOT_ARRAYS` and an input is
    0-d."""
    if not any(isinstance(x, numpy.ndarray) and x.ndim == 0 for x in inputs):
        return lambda libs, scratch, outcomes: None
    shaped = [
        x.reshape(1) if isinstance(x, numpy.ndarray) and x.ndim == 0 else x
        for x in inputs
    ]
    shapes = [
        x.shape for x in inputs if isinstance(x, numpy.ndarray) and x.dtype.kind == 'f'
    ]

    def make(libs, scratch, outcomes):
        if not (outcomes[0].raised and NOT_ARRAYS in outcomes[0].message):
            return None
        outcome = references.last_outcome(restage(shaped), libs[0], {})
        if outcome is None:
            return None
        value = outcome.value
        if not (isinstance(value, tuple) and value[0] in ('list', 'tuple')):
            return None
        if len(value[1]) != len(shapes):
            return None
        back = [
            ('variable', g[1].reshape(shape))
            if isinstance(g, tuple) and g[:1] == ('variable',)
            else g
            for g, shape in zip(value[1], shapes)
        ]
        return references.Reference((value[0], back))

    return make
