"""Gated recurrent unit layers."""

from chainerlite import link
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.links.connection import linear
from chainerlite.links.rnn import _state


class GRUBase(link.Chain):
    """The six layers of a GRU (see :class:`StatelessGRU`)."""

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=None):
        super().__init__()
        self.in_size = in_size
        self.out_size = out_size
        with self.init_scope():
            for name, size, initW in (
                ('W_r', in_size, init),
                ('U_r', out_size, inner_init),
                ('W_z', in_size, init),
                ('U_z', out_size, inner_init),
                ('W', in_size, init),
                ('U', out_size, inner_init),
            ):
                setattr(
                    self,
                    name,
                    linear.Linear(
                        size, out_size, initialW=initW, initial_bias=bias_init
                    ),
                )


class StatelessGRU(GRUBase):
    """Stateless gated recurrent unit layer.

    Given the previous state :math:`h` and the input :math:`x`, it computes

    .. math::
        r &= \\sigma(W_r x + U_r h), \\\\
        z &= \\sigma(W_z x + U_z h), \\\\
        \\bar{h} &= \\tanh(W x + U (r \\odot h)), \\\\
        h_{\\text{new}} &= (1 - z) \\odot h + z \\odot \\bar{h},

    where each of :math:`W_r, U_r, W_z, U_z, W, U` is a
    :class:`~chainerlite.links.Linear` layer with a bias.

    Args:
        in_size (int or None): Dimension of the input; ``None`` infers it
            from the first input.
        out_size (int): Dimension of the state.
        init: Initializer of the weights of ``W_r``, ``W_z`` and ``W``.
        inner_init: Initializer of the weights of ``U_r``, ``U_z`` and
            ``U``.
        bias_init: Initializer of all the biases; zeros when ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> gru = L.StatelessGRU(3, 4)
        >>> h = np.zeros((2, 4), np.float32)
        >>> gru(h, np.ones((2, 3), np.float32)).shape
        (2, 4)

    """

    def forward(self, h, x):
        """Computes the new state from ``h`` and ``x``.

        Args:
            h (Variable or numpy.ndarray or cupy.ndarray): Previous state,
                of shape ``(batch, out_size)``.
            x (Variable or numpy.ndarray or cupy.ndarray): Input, of shape
                ``(batch, in_size)``.

        Returns:
            Variable: The new state.

        """
        r = sigmoid.sigmoid(self.W_r(x) + self.U_r(h))
        z = sigmoid.sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = tanh.tanh(self.W(x) + self.U(r * h))
        return (1 - z) * h + z * h_bar


class StatefulGRU(_state.StateMixin, GRUBase):
    """Gated recurrent unit layer that keeps its state between calls.

    It computes the step of :class:`StatelessGRU` from the state ``h`` it
    keeps; at the first step (``h`` is ``None``) the state is zero, so the
    new state is :math:`\\sigma(W_z x) \\odot \\tanh(W x)`. A batch smaller
    than the state updates its first rows only (as with sequences sorted
    by decreasing length).

    Args:
        in_size (int): Dimension of the input.
        out_size (int): Dimension of the state.
        init: Initializer of the weights of ``W_r``, ``W_z`` and ``W``.
        inner_init: Initializer of the weights of ``U_r``, ``U_z`` and
            ``U``.
        bias_init: Initializer of all the biases; zeros by default.

    Attributes:
        h (Variable): The state, or ``None``.
        state_size (int): ``out_size``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> gru = L.StatefulGRU(3, 4)
        >>> x = np.ones((2, 3), np.float32)
        >>> gru(x).shape, gru(x[:1]).shape, gru.h.shape
        ((2, 4), (1, 4), (2, 4))

    """

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
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
        z = self.W_z(x)
        h_bar = self.W(x)
        rest = None
        if self.h is not None:
            h, rest = _state.split(self.h, x.shape[0])
            r = sigmoid.sigmoid(self.W_r(x) + self.U_r(h))
            z = z + self.U_z(h)
            h_bar = h_bar + self.U(r * h)
        z = sigmoid.sigmoid(z)
        h_new = z * tanh.tanh(h_bar)
        if self.h is not None:
            h_new = h_new + (1 - z) * h
        self.h = _state.join(h_new, rest)
        return h_new


class GRU(StatefulGRU):
    """Stateful gated recurrent unit layer (:class:`StatefulGRU`).

    It takes exactly one argument, the input; :class:`StatelessGRU` takes
    the state as well.
    """

    def forward(self, *args):
        """Runs one step of :class:`StatefulGRU`.

        Raises:
            ValueError: Unless exactly one argument is given.
        """
        if len(args) != 1:
            raise ValueError(
                'GRU takes one argument, the input, but {} were given; use '
                'StatelessGRU to pass the state as well'.format(len(args))
            )
        return super().forward(args[0])
