"""Function hook that stops at the first non-finite value in a graph."""

import numpy

from chainerlite import function_hook
from chainerlite.backends import cuda


def _first_non_finite(arrays):
    # Index of the first float or complex array holding NaN or Inf, or -1.
    for i, a in enumerate(arrays):
        if a is None or a.dtype.kind not in 'fc':
            continue
        xp = numpy if type(a) is numpy.ndarray else cuda.get_array_module(a)
        if not xp.isfinite(a).all():
            return i
    return -1


class NaNHook(function_hook.FunctionHook):
    """Function hook that raises at the first NaN or infinity in a graph.

    What is checked, and when:

    * **forward**: each function's outputs, right after it ran (through the
      ``out_data`` argument of ``forward_postprocess``). The first function
      that *produces* a non-finite value raises :class:`RuntimeError`
      naming it, the output index and ``'forward'``. Inputs given as data
      are checked too, before the first function that receives them runs.
    * **backward**: before each function's backward runs, the gradients of
      its outputs. A non-finite one raises :class:`RuntimeError` naming the
      function, the output index and ``'backward'``. Such a gradient was
      computed by the backward of a function that uses that output (or was
      the initial gradient given to ``backward``).

    Not checked: the gradients that reach leaf variables (for example the
    parameters' ``grad``); ``chainerlite.set_debug(True)`` checks those too,
    as it checks every gradient a backward returns. Only float and complex
    arrays are checked. Each check reads every element, and on the GPU it
    synchronises, so use the hook for debugging.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> from chainerlite.function_hooks import NaNHook
        >>> x = chainer.Variable(np.array([np.nan, 1.0], np.float32))
        >>> with NaNHook():
        ...     y = F.exp(x)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        RuntimeError: NaNHook: Exp received a non-finite value ... in forward...
    """

    name = 'NaNHook'
    forward_postprocess_out_data = True

    def forward_preprocess(self, function, in_data):
        i = _first_non_finite(in_data)
        if i >= 0:
            raise RuntimeError(
                'NaNHook: %s received a non-finite value (NaN or Inf) as '
                'input %d in forward; the function that computed this input '
                'produced it, or it was given as data.' % (function._impl_name, i)
            )

    def forward_postprocess(self, function, in_data, out_data):
        i = _first_non_finite(out_data)
        if i >= 0:
            raise RuntimeError(
                'NaNHook: %s produced a non-finite value (NaN or Inf) as '
                'output %d in forward.' % (function._impl_name, i)
            )

    def backward_preprocess(self, function, in_data, out_grad):
        i = _first_non_finite(out_grad)
        if i >= 0:
            raise RuntimeError(
                'NaNHook: the gradient of output %d of %s is non-finite '
                '(NaN or Inf) in backward, before %s.backward ran; the '
                'backward of a function using that output produced it, or '
                'it was the initial gradient.'
                % (i, function._impl_name, function._impl_name)
            )
