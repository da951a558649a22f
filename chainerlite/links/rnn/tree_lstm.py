"""Tree-LSTM layers: LSTM cells over the children of a tree node."""

from chainerlite import link
from chainerlite.functions.array import concat
from chainerlite.functions.array import split_axis
from chainerlite.functions.rnn import tree_lstm
from chainerlite.links.connection import linear
from chainerlite.utils import _chainer_errors


def _split_arguments(name, args, n_children=None):
    # (cs, hs, x) from (c_1, ..., c_N, h_1, ..., h_N, x), Nones replaced
    # by zeros.
    if len(args) % 2 != 1 or (
        n_children is not None and len(args) != 2 * n_children + 1
    ):
        expected = (
            '2 * n_ary + 1 = {}'.format(2 * n_children + 1)
            if n_children is not None
            else 'an odd number of'
        )
        # Chainer 7.8.1 asserts the count: both types
        raise _chainer_errors.AssertedValueError(
            '{} takes {} arguments (cs, hs and x), not {}'.format(
                name, expected, len(args)
            )
        )
    given = [a for a in args if a is not None]
    if not given:
        raise ValueError(
            '{}: all the arguments are None; at least one '
            'must give the batch size'.format(name)
        )
    return given[0], args[: len(args) // 2], args[len(args) // 2 : -1]


class _TreeLSTMBase(link.Chain):
    def __init__(self, in_size, out_size):
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size

    def _fill(self, given, cs, hs, x):
        # The arguments with zeros, shaped like ``given``'s batch, for None.
        def zeros(size):
            return self.xp.zeros((given.shape[0], size), given.dtype)

        cs = [zeros(self.state_size) if c is None else c for c in cs]
        hs = [zeros(self.state_size) if h is None else h for h in hs]
        return cs, hs, zeros(self.in_size) if x is None else x


class ChildSumTreeLSTM(_TreeLSTMBase):
    """Child-Sum Tree-LSTM layer.

    A node with any number of children (Tai et al., *Improved Semantic
    Representations From Tree-Structured Long Short-Term Memory Networks*,
    2015): the cell input and the input and output gates see the sum of the
    children's outputs, and each child has its own forget gate, computed
    from its own output.

    Args:
        in_size (int): Dimension of the input.
        out_size (int): Dimension of the output and of the cell state.

    Attributes:
        W_x (~chainerlite.links.Linear): Input to the pre-activations of
            :math:`a, i, o, f` (blocks of ``out_size``).
        W_h_aio (~chainerlite.links.Linear): Sum of the children's outputs
            to :math:`a, i, o` (no bias).
        W_h_f (~chainerlite.links.Linear): A child's output to its forget
            gate (no bias).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> link = L.ChildSumTreeLSTM(3, 4)
        >>> c1 = h1 = c2 = h2 = np.zeros((2, 4), np.float32)
        >>> x = np.ones((2, 3), np.float32)
        >>> c, h = link(c1, c2, h1, h2, x)
        >>> c.shape, h.shape
        ((2, 4), (2, 4))

    """

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        with self.init_scope():
            self.W_x = linear.Linear(in_size, 4 * out_size)
            self.W_h_aio = linear.Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx):
        """Computes the cell state and output of a node.

        Args:
            cshsx: The children's cell states ``c_1, ..., c_N``, their
                outputs ``h_1, ..., h_N`` and the input ``x`` (``N`` may be
                0). Any of them may be ``None``, standing for zeros, but not
                all.

        Returns:
            tuple: The cell state ``c`` and the output ``h``.

        Raises:
            ValueError: If the number of arguments is even or all of them
                are ``None``.

        """
        given, cs, hs = _split_arguments('ChildSumTreeLSTM', cshsx)
        cs, hs, x = self._fill(given, cs, hs, cshsx[-1])
        n = self.state_size
        aio, f_x = split_axis.split_axis(self.W_x(x), [3 * n], axis=1)
        if not hs:
            return tree_lstm.tree_lstm(aio)
        h_sum = hs[0]
        for h in hs[1:]:
            h_sum = h_sum + h
        aio = aio + self.W_h_aio(h_sum)
        f_hs = split_axis.split_axis(
            self.W_h_f(concat.concat(hs, axis=0)), len(hs), axis=0
        )
        gates = concat.concat([aio] + [f_x + f_h for f_h in f_hs], axis=1)
        return tree_lstm.tree_lstm(*(cs + [gates]))


class NaryTreeLSTM(_TreeLSTMBase):
    """N-ary Tree-LSTM layer.

    A node with exactly ``n_ary`` ordered children (Tai et al., 2015):
    every gate, including one forget gate per child, sees the outputs of
    all the children through a layer per child.

    Args:
        in_size (int): Dimension of the input.
        out_size (int): Dimension of the output and of the cell state.
        n_ary (int): Number of children, at least 1.

    Attributes:
        W_x (~chainerlite.links.Linear): Input to the pre-activations of
            :math:`a, i, o, f_1, \\dots, f_N` (blocks of ``out_size``).
        W_h1, ..., W_hN (~chainerlite.links.Linear): Output of child ``k``
            to all the pre-activations (no bias).

    Raises:
        ValueError: If ``n_ary`` is less than 1.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> link = L.NaryTreeLSTM(3, 4, n_ary=2)
        >>> x = np.ones((2, 3), np.float32)
        >>> c, h = link(None, None, None, None, x)
        >>> c.shape, h.shape
        ((2, 4), (2, 4))

    """

    def __init__(self, in_size, out_size, n_ary=2):
        if n_ary < 1:
            # Chainer 7.8.1 asserts it: both types
            raise _chainer_errors.AssertedValueError(
                'NaryTreeLSTM: n_ary must be at least 1, not {}'.format(n_ary)
            )
        super().__init__(in_size, out_size)
        self.n_ary = n_ary
        size = (3 + n_ary) * out_size
        with self.init_scope():
            self.W_x = linear.Linear(in_size, size)
            for k in range(1, n_ary + 1):
                setattr(
                    self, 'W_h{}'.format(k), linear.Linear(out_size, size, nobias=True)
                )

    def forward(self, *cshsx):
        """Computes the cell state and output of a node.

        Args:
            cshsx: The children's cell states ``c_1, ..., c_N``, their
                outputs ``h_1, ..., h_N`` and the input ``x``, where ``N``
                is ``n_ary``. Any of them may be ``None``, standing for
                zeros, but not all.

        Returns:
            tuple: The cell state ``c`` and the output ``h``.

        Raises:
            ValueError: If the number of arguments is not ``2 * n_ary + 1``
                or all of them are ``None``.

        """
        given, cs, hs = _split_arguments('NaryTreeLSTM', cshsx, self.n_ary)
        cs, hs, x = self._fill(given, cs, hs, cshsx[-1])
        gates = self.W_x(x)
        for k, h in enumerate(hs, 1):
            gates = gates + getattr(self, 'W_h{}'.format(k))(h)
        return tree_lstm.tree_lstm(*(cs + [gates]))
