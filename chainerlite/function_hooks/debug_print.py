"""Function hook that prints what each function receives."""

import sys
import warnings

import numpy

from chainerlite import function_hook


def _describe(array):
    # Lines describing one array: device, type, shape, dtype, statistics.
    backend = type(array)
    lines = [
        '- device: %s'
        % ('CPU' if isinstance(array, numpy.ndarray) else 'GPU %d' % array.device.id),
        '- backend: %s.%s' % (backend.__module__, backend.__name__),
        '- shape: %s' % (array.shape,),
        '- dtype: %s' % array.dtype,
    ]
    if array.size == 0:
        lines.append('- statistics: (empty)')
    elif array.dtype.kind in 'biuf':
        a = array.astype(numpy.float64)
        lines.append(
            '- statistics: mean={:.8g}, std={:.8g}, min={:.8g}, max={:.8g}'.format(
                float(a.mean()), float(a.std()), float(a.min()), float(a.max())
            )
        )
    return lines


def _section(title, arrays, missing):
    lines = [title]
    for i, array in enumerate(arrays):
        if array is None:
            lines.append(missing)
        else:
            lines.append('<array %d>' % i)
            lines.extend(_describe(array))
    return lines


class PrintHook(function_hook.FunctionHook):
    """Function hook that prints debug information about function calls.

    Before each forward call it prints the function's label and a summary
    of each input array (device, array type, shape, dtype, and mean,
    standard deviation, minimum and maximum); before each backward call it
    prints the inputs again (``(removed)`` for inputs the function did not
    keep for backward) and a summary of each output gradient (``(None)``
    when an output got no gradient). One ``with`` statement thus shows the
    data flowing through every function, without print calls in the model
    or in the library.

    Args:
        sep: *(deprecated)* Ignored, as in Chainer; passing it warns.
        end (str): Text written after each message.
        file: Text stream the messages are written to.
        flush (bool): If ``True``, the stream is flushed after each message.

    .. admonition:: Example

        >>> import io
        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> from chainerlite.function_hooks import PrintHook
        >>> out = io.StringIO()
        >>> x = chainer.Variable(np.array([1.0, 3.0], np.float32))
        >>> with PrintHook(file=out):
        ...     y = F.exp(x)
        >>> print(out.getvalue())  # doctest: +NORMALIZE_WHITESPACE
        function	exp
        input data
        <array 0>
        - device: CPU
        - backend: numpy.ndarray
        - shape: (2,)
        - dtype: float32
        - statistics: mean=2, std=1, min=1, max=3
    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=sys.stdout, flush=True):
        if sep is not None:
            warnings.warn(
                'the sep argument of PrintHook is deprecated and ignored',
                DeprecationWarning,
            )
        self.end = end
        self.file = file
        self.flush = flush

    def _print(self, lines):
        self.file.write('\n'.join(lines) + self.end)
        if self.flush:
            self.file.flush()

    def forward_preprocess(self, function, in_data):
        self._print(
            ['function\t%s' % function.label]
            + _section('input data', in_data, '(removed)')
        )

    def backward_preprocess(self, function, in_data, out_grad):
        self._print(
            ['function\t%s' % function.label]
            + _section('input data', in_data, '(removed)')
            + _section('output gradient', out_grad, '(None)')
        )
