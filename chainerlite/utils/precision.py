"""Helpers for computing float16 inputs in float32."""

import functools

import numpy


def _fp16_mixed_precision_helper(fn):
    """Decorator of ``forward(self, inputs)``: computes float16 in float32.

    When some input is float16, those inputs are cast to float32 before
    the call; when every floating input is float16, the float32 outputs
    are cast back to float16 after it (as in Chainer, a float32 input
    keeps float32 outputs). Other inputs, and None outputs, pass
    unchanged. Without a float16 input the method runs as is.
    """

    @functools.wraps(fn)
    def forward(self, inputs):
        if not any(x is not None and x.dtype == numpy.float16 for x in inputs):
            return fn(self, inputs)
        all_half = all(
            x is None or x.dtype.kind != 'f' or x.dtype == numpy.float16 for x in inputs
        )
        inputs = tuple(
            x.astype(numpy.float32) if x is not None and x.dtype == numpy.float16 else x
            for x in inputs
        )
        outputs = fn(self, inputs)
        if not all_half:
            return outputs
        return tuple(
            y.astype(numpy.float16) if y is not None and y.dtype == numpy.float32 else y
            for y in outputs
        )

    return forward
