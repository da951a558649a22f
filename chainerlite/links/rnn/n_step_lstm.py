"""Stacked LSTM layers over lists of variable-length sequences."""

from chainerlite.functions.rnn import n_step_lstm
from chainerlite.links.rnn import n_step_rnn


class NStepLSTMBase(n_step_rnn.NStepRNNBase):
    """Base of :class:`NStepLSTM` and :class:`NStepBiLSTM`."""

    n_weights = 8
    n_cells = 2

    def _function(self):
        name = 'n_step_bilstm' if self.use_bi_direction else 'n_step_lstm'
        return name, n_step_lstm._LSTMCell()

    def rnn(self, *args):
        return n_step_lstm.n_step_lstm_base(*args, self.use_bi_direction)

    def forward(self, hx, cx, xs, **kwargs):
        """Runs the LSTM over sequences.

        Args:
            hx (Variable or None): Initial hidden states, of shape
                ``(n_layers * D, len(xs), out_size)`` (``D`` is 2 for a
                bidirectional link, else 1), indexed like ``xs``; ``None``
                stands for zeros.
            cx (Variable or None): Initial cell states, likewise.
            xs (list of Variable): The sequences, of shape
                ``(length, in_size)`` each, in any order.

        Returns:
            tuple: ``(hy, cy, ys)``: the final hidden and cell states,
            shaped like ``hx``, and the output sequences of the last layer,
            ``ys[i]`` of shape ``(len(xs[i]), D * out_size)``.

        """
        return self._call([hx, cx], xs, **kwargs)


class NStepLSTM(NStepLSTMBase):
    """Stacked uni-directional LSTM for sequences.

    A link form of :func:`~chainerlite.functions.n_step_lstm`; the
    arguments are those of
    :class:`~chainerlite.links.rnn.n_step_rnn.NStepRNNBase`.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> rnn = L.NStepLSTM(1, 3, 4, 0.0)
        >>> xs = [np.ones((2, 3), np.float32), np.ones((5, 3), np.float32)]
        >>> hy, cy, ys = rnn(None, None, xs)
        >>> hy.shape, cy.shape, [y.shape for y in ys]
        ((1, 2, 4), (1, 2, 4), [(2, 4), (5, 4)])

    """


class NStepBiLSTM(NStepLSTMBase):
    """Stacked bidirectional LSTM for sequences.

    A link form of :func:`~chainerlite.functions.n_step_bilstm`; the
    arguments are those of
    :class:`~chainerlite.links.rnn.n_step_rnn.NStepRNNBase`.
    """

    use_bi_direction = True
