"""Stacked GRU layers over lists of variable-length sequences."""

from chainerlite.functions.rnn import n_step_gru
from chainerlite.links.rnn import n_step_rnn


class NStepGRUBase(n_step_rnn.NStepRNNBase):
    """Base of :class:`NStepGRU` and :class:`NStepBiGRU`."""

    n_weights = 6

    def _function(self):
        name = 'n_step_bigru' if self.use_bi_direction else 'n_step_gru'
        return name, n_step_gru._GRUCell()

    def rnn(self, *args):
        return n_step_gru.n_step_gru_base(*args, self.use_bi_direction)


class NStepGRU(NStepGRUBase):
    """Stacked uni-directional GRU for sequences.

    A link form of :func:`~chainerlite.functions.n_step_gru`; the arguments
    and the call are those of
    :class:`~chainerlite.links.rnn.n_step_rnn.NStepRNNBase`.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> rnn = L.NStepGRU(1, 3, 4, 0.0)
        >>> xs = [np.ones((2, 3), np.float32), np.ones((5, 3), np.float32)]
        >>> hy, ys = rnn(None, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((1, 2, 4), [(2, 4), (5, 4)])

    """


class NStepBiGRU(NStepGRUBase):
    """Stacked bidirectional GRU for sequences.

    A link form of :func:`~chainerlite.functions.n_step_bigru`; the
    arguments and the call are those of
    :class:`~chainerlite.links.rnn.n_step_rnn.NStepRNNBase`.
    """

    use_bi_direction = True
