"""Minimal gated unit layers."""

from chainerlite import link
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.functions.array import concat
from chainerlite.links.connection import linear
from chainerlite.links.rnn import _state


class MGUBase(link.Chain):
    """The two layers of an MGU (see :class:`StatelessMGU`)."""

    def __init__(self, n_inputs, n_units):
        super().__init__()
        with self.init_scope():
            self.W_f = linear.Linear(n_inputs + n_units, n_units)
            self.W_h = linear.Linear(n_inputs + n_units, n_units)

    def _step(self, h, x):
        f = sigmoid.sigmoid(self.W_f(concat.concat((h, x), axis=1)))
        h_bar = tanh.tanh(self.W_h(concat.concat((f * h, x), axis=1)))
        return f * h_bar + (1 - f) * h


class StatelessMGU(MGUBase):
    """Stateless minimal gated unit layer.

    Given the previous state :math:`h` and the input :math:`x`, it computes
    (Zhou et al., *Minimal Gated Unit for Recurrent Neural Networks*, 2016)

    .. math::
        f &= \\sigma(W_f [h; x]), \\\\
        \\bar{h} &= \\tanh(W_h [f \\odot h; x]), \\\\
        h_{\\text{new}} &= f \\odot \\bar{h} + (1 - f) \\odot h,

    where :math:`[\\cdot; \\cdot]` is concatenation and :math:`W_f, W_h`
    are :class:`~chainerlite.links.Linear` layers with a bias.

    Args:
        n_inputs (int): Dimension of the input.
        n_units (int): Dimension of the state.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> mgu = L.StatelessMGU(3, 4)
        >>> h = np.zeros((2, 4), np.float32)
        >>> mgu(h, np.ones((2, 3), np.float32)).shape
        (2, 4)

    """

    def forward(self, h, x):
        """Computes the new state from ``h`` and ``x``.

        Args:
            h (Variable or numpy.ndarray or cupy.ndarray): Previous state,
                of shape ``(batch, n_units)``.
            x (Variable or numpy.ndarray or cupy.ndarray): Input, of shape
                ``(batch, n_inputs)``.

        Returns:
            Variable: The new state.

        """
        return self._step(h, x)


class StatefulMGU(_state.StateMixin, MGUBase):
    """Minimal gated unit layer that keeps its state between calls.

    It computes the step of :class:`StatelessMGU` from the state ``h`` it
    keeps, zero at the first step. A batch smaller than the state updates
    its first rows only (as with sequences sorted by decreasing length).

    Args:
        in_size (int): Dimension of the input.
        out_size (int): Dimension of the state.

    Attributes:
        h (Variable): The state, or ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> mgu = L.StatefulMGU(3, 4)
        >>> x = np.ones((2, 3), np.float32)
        >>> mgu(x).shape, mgu(x[:1]).shape, mgu.h.shape
        ((2, 4), (1, 4), (2, 4))

    """

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self.out_size = out_size
        self.reset_state()

    def forward(self, x):
        """Runs one step and keeps the new state.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(batch, in_size)``; ``batch`` must not exceed the batch of
                the state.

        Returns:
            Variable: The new state of the ``batch`` rows.

        Raises:
            TypeError: If ``x`` has more rows than the state.

        """
        if self.h is None:
            h = self.xp.zeros((x.shape[0], self.out_size), x.dtype)
            rest = None
        else:
            h, rest = _state.split(self.h, x.shape[0])
        y = self._step(h, x)
        self.h = _state.join(y, rest)
        return y
