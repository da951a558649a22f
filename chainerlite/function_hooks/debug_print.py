"""Function hook that prints what each function receives."""

import sys
import warnings

from chainerlite import backend, function_hook, variable


def _summary(array):
    # Variable.debug_print of the array (None: removed)
    return '(removed)' if array is None else variable.Variable(array).debug_print()


def _grad_summary(grad):
    # Variable.debug_print of a variable whose gradient is ``grad`` (data
    # zeros like it); an empty variable for a missing gradient
    if grad is None:
        return variable.Variable().debug_print()
    v = variable.Variable(backend.get_array_module(grad).zeros_like(grad))
    v.grad = grad
    return v.debug_print()


class PrintHook(function_hook.FunctionHook):
    """Function hook that prints debug information about function calls.

    Before each forward call it prints the function's label and, for each
    input array, what :meth:`Variable.debug_print` shows of a variable
    holding it (``(removed)`` for an input the function did not keep for
    backward); before each backward call it prints the inputs again and,
    for each output gradient, the summary of a variable whose ``grad`` it
    is (an empty variable when an output got no gradient). Each line is
    written with ``end`` after it, as Chainer's hook writes them.

    Args:
        sep: *(deprecated)* Ignored, as in Chainer; passing it warns.
        end (str): Text written after each line.
        file: Text stream the messages are written to.
        flush (bool): If ``True``, the stream is flushed after each call's
            message.

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
        >>> print(out.getvalue())  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
        function exp
        input data
        <variable at 0x...>
        - device: CPU
        - backend: <class 'numpy.ndarray'>
        - shape: (2,)
        - dtype: float32
        - statistics: mean=2.00000000, std=1.00000000
        - grad: None
        <BLANKLINE>
    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=sys.stdout, flush=True):
        if sep is not None:
            warnings.warn(
                'the sep argument of PrintHook is deprecated and ignored',
                DeprecationWarning,
            )
        self.sep = sep  # kept as an attribute, as Chainer keeps it
        self.end = end
        self.file = file
        self.flush = flush

    def _print(self, lines):
        for line in lines:
            self.file.write(line + self.end)
        if self.flush and hasattr(self.file, 'flush'):
            self.file.flush()

    def forward_preprocess(self, function, in_data):
        self._print(
            ['function\t%s' % function.label, 'input data']
            + [_summary(d) for d in in_data]
        )

    def backward_preprocess(self, function, in_data, out_grad):
        self._print(
            ['function\t%s' % function.label, 'input data']
            + [_summary(d) for d in in_data]
            + ['output gradient']
            + [_grad_summary(g) for g in out_grad]
        )
