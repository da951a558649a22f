"""Fully-connected LSTM layers, with the state kept or passed along."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.rnn import lstm
from chainerlite.links.connection import linear
from chainerlite.links.rnn import _state


class LSTMBase(link.Chain):
    """The layers and initialization shared by :class:`LSTM` and
    :class:`StatelessLSTM` (see :class:`LSTM` for the arguments)."""

    def __init__(
        self,
        in_size,
        out_size=None,
        lateral_init=None,
        upward_init=None,
        bias_init=None,
        forget_bias_init=None,
    ):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = 1 if forget_bias_init is None else forget_bias_init
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = linear.Linear(
                out_size, 4 * out_size, initialW=0, nobias=True
            )
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self):
        # Chainer's order of draws, so that a seed gives Chainer's weights:
        # gate by gate, the lateral block then the upward one; then the
        # biases of the gates a, i, f, o. With a lazy input size this runs
        # at the first call (the lateral weights are zeros until then).
        lateral_init = initializers._get_initializer(self.lateral_init)
        upward_init = initializers._get_initializer(self.upward_init)
        n = self.state_size
        for i in range(0, 4 * n, n):
            lateral_init(self.lateral.W.array[i : i + n])
            upward_init(self.upward.W.array[i : i + n])
        # each gate's biases as a view of shape (1, n, 1), as Chainer gives
        # them to the initializers (the arrays and fans they take)
        gates = self.upward.b.array.reshape(1, n, 4, 1)
        bias_init = initializers._get_initializer(self.bias_init)
        forget_bias_init = initializers._get_initializer(self.forget_bias_init)
        for k in range(4):
            (forget_bias_init if k == 2 else bias_init)(gates[:, :, k])

    def _gates(self, x):
        # upward(x), initializing the weights from x's size on first use.
        if self.upward.W.array is None:
            self.upward._initialize_params(utils.size_of_shape(x.shape[1:]))
            self._initialize_params()
        return self.upward(x)


class LSTM(_state.StateMixin, LSTMBase):
    """Fully-connected LSTM layer with a state kept between calls.

    Each call feeds ``x`` and the previous output ``h`` to the gates:
    ``upward(x) + lateral(h)`` goes to :func:`~chainerlite.functions.lstm`
    with the previous cell state ``c``, and the new ``c`` and ``h`` are
    kept for the next call. A batch smaller than the state updates only the
    first rows of the state (as with sequences sorted by decreasing
    length). :meth:`reset_state` starts a new sequence.

    Args:
        in_size (int or None): Dimension of the inputs; ``None`` infers it
            from the first input. When only one size is given, it is taken
            as ``out_size``.
        out_size (int): Dimension of the outputs and of the state.
        lateral_init: Initializer of ``lateral.W`` (per gate block);
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        upward_init: Initializer of ``upward.W`` (per gate block), likewise.
        bias_init: Initializer of the biases of the input, input-gate and
            output-gate pre-activations; zeros when ``None``.
        forget_bias_init: Initializer of the forget-gate bias; ones when
            ``None``.

    Attributes:
        upward (~chainerlite.links.Linear): Input-to-gates layer, with a
            bias of size ``4 * out_size`` laid out as
            :func:`~chainerlite.functions.lstm` expects.
        lateral (~chainerlite.links.Linear): State-to-gates layer (no bias).
        state_size (int): ``out_size``.
        c (Variable): Cell state, or ``None``.
        h (Variable): Last output, or ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> rnn = L.LSTM(3, 4)
        >>> x = np.ones((2, 3), np.float32)
        >>> rnn(x).shape, rnn(x[:1]).shape, rnn.h.shape
        ((2, 4), (1, 4), (2, 4))
        >>> rnn.reset_state()
        >>> rnn.h is None
        True

    """

    state_names = ('c', 'h')

    def __init__(
        self,
        in_size,
        out_size=None,
        lateral_init=None,
        upward_init=None,
        bias_init=None,
        forget_bias_init=None,
    ):
        super().__init__(
            in_size, out_size, lateral_init, upward_init, bias_init, forget_bias_init
        )
        self.reset_state()

    def forward(self, x):
        """Runs one step of the LSTM.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(batch, in_size)``; ``batch`` must not exceed the batch
                of the state.

        Returns:
            Variable: The new output ``h`` of the ``batch`` rows.

        Raises:
            TypeError: If ``x`` has more rows than the state.

        """
        batch = x.shape[0]
        gates = self._gates(x)
        h_rest = None
        if self.h is not None:
            h, h_rest = _state.split(self.h, batch)
            gates = gates + self.lateral(h)
        if self.c is None:
            self.c = variable.Variable(
                self.xp.zeros((batch, self.state_size), gates.dtype)
            )
        self.c, y = lstm.lstm(self.c, gates)
        self.h = _state.join(y, h_rest)
        return y


class StatelessLSTM(LSTMBase):
    """Fully-connected LSTM layer that takes its state as arguments.

    The layers and arguments are those of :class:`LSTM`; the state is
    passed to each call and returned instead of kept.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> rnn = L.StatelessLSTM(3, 4)
        >>> x = np.ones((2, 3), np.float32)
        >>> c, h = rnn(None, None, x)
        >>> c, h = rnn(c, h, x)
        >>> c.shape, h.shape
        ((2, 4), (2, 4))

    """

    def forward(self, c, h, x):
        """Runs one step of the LSTM.

        Args:
            c (Variable or None): Cell state of shape ``(batch, out_size)``;
                ``None`` stands for zeros.
            h (Variable or None): Previous output of shape
                ``(batch, out_size)``; ``None`` at the first step.
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(batch, in_size)``.

        Returns:
            tuple: The new cell state ``c`` and output ``h``.

        """
        gates = self._gates(x)
        if h is not None:
            gates = gates + self.lateral(h)
        if c is None:
            c = self.xp.zeros((x.shape[0], self.state_size), gates.dtype)
        return lstm.lstm(c, gates)
