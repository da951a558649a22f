"""LSTM layer regularized with zoneout."""

from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.functions.noise import zoneout
from chainerlite.links.rnn import _state
from chainerlite.utils import argument


class StatefulZoneoutLSTM(_state.StatefulLSTMBase):
    """Fully-connected LSTM layer with zoneout.

    Each step computes the LSTM step of :class:`~chainerlite.links.LSTM`
    (gates ``upward(x) + lateral(h)``), then, in training mode, keeps each
    element of the previous cell state with probability ``c_ratio`` and of
    the previous output with probability ``h_ratio`` instead of the new
    one (:func:`~chainerlite.functions.zoneout`). The state starts at zero.

    Args:
        in_size (int): Dimension of the input.
        out_size (int): Dimension of the output and of the state.
        c_ratio (float): Zoneout ratio of the cell state.
        h_ratio (float): Zoneout ratio of the output.
        **kwargs: Chainer's removed ``train`` argument raises
            :class:`ValueError` (use ``chainerlite.using_config``); any other
            unknown one :class:`TypeError`.

    Attributes:
        upward (~chainerlite.links.Linear): Input-to-gates layer.
        lateral (~chainerlite.links.Linear): Output-to-gates layer (no
            bias).
        c (Variable): Cell state, or ``None``.
        h (Variable): Last output, or ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> rnn = L.StatefulZoneoutLSTM(3, 4, c_ratio=0.2, h_ratio=0.1)
        >>> x = np.ones((2, 3), np.float32)
        >>> rnn(x).shape, rnn.c.shape
        ((2, 4), (2, 4))

    """

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5, **kwargs):
        if kwargs:
            argument.parse_kwargs(kwargs, train=argument.TRAIN_REMOVED)
        super().__init__(in_size, out_size)
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio

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
        h = self._zeros(x) if self.h is None else self.h
        c_new = tanh.tanh(a) * sigmoid.sigmoid(i) + sigmoid.sigmoid(f) * c
        h_new = sigmoid.sigmoid(o) * tanh.tanh(c_new)
        self.c = zoneout.zoneout(c, c_new, self.c_ratio)
        self.h = zoneout.zoneout(h, h_new, self.h_ratio)
        return self.h
