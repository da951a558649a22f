"""LSTM layer with peephole connections."""

from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.links.connection import linear
from chainerlite.links.rnn import _state


class StatefulPeepholeLSTM(_state.StatefulLSTMBase):
    """Fully-connected LSTM layer with peephole connections.

    The gates also see the cell state (Gers and Schmidhuber, *Recurrent
    Nets that Time and Count*, 2000): with the gate pre-activations
    ``upward(x) + lateral(h)`` laid out as for
    :func:`~chainerlite.functions.lstm` (:math:`a, i, f, o`),

    .. math::
        i &= \\sigma(i + P_i c), \\quad f = \\sigma(f + P_f c), \\\\
        c_{\\text{new}} &= \\tanh(a) \\odot i + f \\odot c, \\\\
        h_{\\text{new}} &= \\sigma(o + P_o c_{\\text{new}}) \\odot
            \\tanh(c_{\\text{new}}),

    where :math:`P_i, P_f, P_o` are the peephole layers. The state starts
    at zero.

    Args:
        in_size (int): Dimension of the input.
        out_size (int): Dimension of the output and of the state.

    Attributes:
        upward (~chainerlite.links.Linear): Input-to-gates layer.
        lateral (~chainerlite.links.Linear): Output-to-gates layer (no
            bias).
        peep_i (~chainerlite.links.Linear): Peephole of the input gate.
        peep_f (~chainerlite.links.Linear): Peephole of the forget gate.
        peep_o (~chainerlite.links.Linear): Peephole of the output gate.
        c (Variable): Cell state, or ``None``.
        h (Variable): Last output, or ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> rnn = L.StatefulPeepholeLSTM(3, 4)
        >>> x = np.ones((2, 3), np.float32)
        >>> rnn(x).shape, rnn.c.shape
        ((2, 4), (2, 4))

    """

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        with self.init_scope():
            self.peep_i = linear.Linear(out_size, out_size, nobias=True)
            self.peep_f = linear.Linear(out_size, out_size, nobias=True)
            self.peep_o = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, x):
        """Runs one step and keeps the new state.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(batch, in_size)``.

        Returns:
            Variable: The new output ``h``.

        """
        a, i, f, o = self._gates(x)
        c = self._zeros(x) if self.c is None else self.c
        i = sigmoid.sigmoid(i + self.peep_i(c))
        f = sigmoid.sigmoid(f + self.peep_f(c))
        self.c = tanh.tanh(a) * i + f * c
        o = sigmoid.sigmoid(o + self.peep_o(self.c))
        self.h = o * tanh.tanh(self.c)
        return self.h
