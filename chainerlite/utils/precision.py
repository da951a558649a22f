"""Helpers for computing float16 inputs in float32."""

import functools

import numpy


def _fp16_mixed_precision_helper(fn):
    """Decorator of ``forward(self, inputs)``: computes float16 in float32.

    When some input is float16, those inputs are cast to float32 before
    the call and the floating outputs are cast back to float16 after it;
    other inputs, and None outputs, pass unchanged. Without a float16
    input the method runs as is.
    """

    @functools.wraps(fn)
    def forward(self, inputs):
        if not any(x is not None and x.dtype == numpy.float16 for x in inputs):
            return fn(self, inputs)
        inputs = tuple(
            x.astype(numpy.float32) if x is not None and x.dtype == numpy.float16 else x
            for x in inputs
        )
        outputs = fn(self, inputs)
        return tuple(
            y.astype(numpy.float16, copy=False)
            if y is not None and y.dtype.kind == 'f'
            else y
            for y in outputs
        )

    return forward
