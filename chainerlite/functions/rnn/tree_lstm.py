"""Tree-LSTM cell activation: an LSTM cell with any number of children."""

from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.functions.array import get_item
from chainerlite.functions.array import reshape
from chainerlite.functions.rnn import _formula
from chainerlite.utils import type_check


class TreeLSTM(_formula.FormulaNode):
    """Tree-LSTM cell activation."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() >= 1)
        n_ary = len(in_types) - 1
        type_check._argname(
            in_types, tuple('c{}'.format(i) for i in range(n_ary)) + ('x',)
        )
        x_type = in_types[-1]
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)
        for c_type in in_types[:-1]:
            type_check.expect(
                c_type.dtype == x_type.dtype,
                c_type.ndim == x_type.ndim,
                c_type.shape[0] == x_type.shape[0],
                x_type.shape[1] == (3 + n_ary) * c_type.shape[1],
            )
            for i in range(2, type_check.eval(x_type.ndim)):
                type_check.expect(c_type.shape[i] == x_type.shape[i])
        if n_ary == 0:
            type_check.expect(x_type.shape[1] % 3 == 0)

    def formula(self, *inputs):
        cs, x = inputs[:-1], inputs[-1]
        n_split = 3 + len(cs)
        gates = reshape.reshape(
            x, (x.shape[0], n_split, x.shape[1] // n_split) + x.shape[2:]
        )
        a, i, o, *fs = [
            get_item.get_item(gates, (slice(None), k)) for k in range(n_split)
        ]
        c = tanh.tanh(a) * sigmoid.sigmoid(i)
        for f, c_child in zip(fs, cs):
            c = c + sigmoid.sigmoid(f) * c_child
        h = sigmoid.sigmoid(o) * tanh.tanh(c)
        return c, h


def tree_lstm(*inputs):
    """Tree-LSTM units as an activation function.

    This is the cell of a Tree-LSTM (Tai et al., *Improved Semantic
    Representations From Tree-Structured Long Short-Term Memory Networks*,
    2015) with ``N`` children. The last argument ``x`` holds the gate
    pre-activations of all units, in ``3 + N`` consecutive blocks of ``n``
    channels each: :math:`a` (cell input), :math:`i` (input gate),
    :math:`o` (output gate), then one forget gate :math:`f_k` per child;
    that is, ``x.reshape(B, 3 + N, n, ...)[:, k]`` is block ``k``. With the
    children's cell states :math:`c_k` it computes

    .. math::
        c &= \\tanh(a) \\sigma(i) + \\sum_k \\sigma(f_k) c_k, \\\\
        h &= \\sigma(o) \\tanh(c),

    where :math:`\\sigma` is the sigmoid function.

    Args:
        inputs: The children's cell states ``c_1, ..., c_N`` (Variables or
            arrays of a floating point dtype and shape :math:`(B, n, ...)`)
            followed by ``x``, of shape :math:`(B, (3 + N) n, ...)`.

    Returns:
        tuple: Two variables ``(c, h)`` of shape :math:`(B, n, ...)`: the
        new cell state and the output.

    Raises:
        chainerlite.utils.type_check.InvalidType: If the dtypes or shapes
            do not match.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> c1 = np.ones((1, 2), np.float32)
        >>> c2 = np.full((1, 2), 2, np.float32)
        >>> x = np.zeros((1, 10), np.float32)
        >>> x[:, 6:] = 100       # both forget gates open
        >>> c, h = F.tree_lstm(c1, c2, x)
        >>> c.array
        array([[3., 3.]], dtype=float32)

    """
    return TreeLSTM().apply(inputs)
