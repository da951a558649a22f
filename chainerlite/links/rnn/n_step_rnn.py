"""Stacked RNN layers over lists of variable-length sequences."""

import numpy

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.array import concat
from chainerlite.functions.array import permutate
from chainerlite.functions.array import split_axis
from chainerlite.functions.rnn import _views
from chainerlite.functions.rnn import n_step_rnn as rnn
from chainerlite.functions.rnn._recurrence import offsets
from chainerlite.utils import _chainer_errors
from chainerlite.utils import argument


def permutate_list(lst, indices, inv):
    """Returns the items of ``lst`` reordered by ``indices``: item ``i`` of
    the result is ``lst[indices[i]]``, or, when ``inv`` is true, the result
    holds ``lst[i]`` at ``indices[i]`` (the inverse reordering)."""
    out = [None] * len(lst)
    for i, j in enumerate(indices):
        if inv:
            out[j] = lst[i]
        else:
            out[i] = lst[j]
    return out


def argsort_list_descent(lst):
    """Returns the int32 indices that order the sequences of ``lst`` from
    the longest to the shortest (sequences of one length keep their
    order)."""
    lengths = [-len(x) for x in lst]
    return numpy.argsort(lengths, kind='stable').astype(numpy.int32)


def _time_major_rows(lengths, order):
    # The rows of the sequences joined (in the order given) taken time-major
    # as the n-step functions read them: step 0 of every sequence, longest
    # first (``order``), then step 1 of those that have one, ...; None where
    # that is the order of the join already. Also the rows of each step.
    lengths = numpy.asarray(lengths, numpy.int64)
    starts = numpy.cumsum(lengths) - lengths
    longest = lengths[order]
    batches = [int((longest > t).sum()) for t in range(longest[0] if len(order) else 0)]
    if len(batches) <= 1 or batches[0] == 1:
        return None, batches
    rows = numpy.concatenate(
        [starts[order[:b]] + t for t, b in enumerate(batches)]
    ).astype(numpy.int32)
    return rows, batches


class NStepRNNBase(link.ChainList):
    """Base of the n-step RNN links.

    The link holds one child link per layer and direction, whose
    parameters are the weights ``w0, w1, ...`` and biases ``b0, b1, ...``
    of the n-step function (see :func:`~chainerlite.functions.n_step_rnn`
    and its relatives). Calling it with a list of sequences of any lengths
    sorts them by length, runs the function and returns the outputs in the
    original order.

    Subclasses set ``n_weights`` (weights per layer and direction),
    ``n_cells`` (states: 1, or 2 for an LSTM), ``use_bi_direction``,
    ``rnn`` (a method running the n-step function on sorted input) and
    ``_function`` (the name of that function and its cell, or None: a
    call joins the sequences and takes their rows time-major in one
    gather, then runs the function's layers on them directly, or calls
    ``rnn`` on them split per step).

    Args:
        n_layers (int): Number of layers.
        in_size (int): Dimension of the input vectors.
        out_size (int): Dimension of the hidden states and outputs (of each
            direction).
        dropout (float): Dropout ratio of the inputs of the layers above
            the first.
        initialW: Initializer of the weights; by default, a normal
            distribution of scale :math:`\\sqrt{1 / \\text{fan-in}}`.
        initial_bias: Initializer of the biases; zeros by default.

    Attributes:
        ws (list of list of ~chainerlite.Parameter): Weights per layer and
            direction.
        bs (list of list of ~chainerlite.Parameter): Biases per layer and
            direction.

    """

    use_bi_direction = False
    n_cells = 1

    def __init__(
        self,
        n_layers,
        in_size,
        out_size,
        dropout,
        *,
        initialW=None,
        initial_bias=None,
        **kwargs,
    ):
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs,
                use_cudnn='use_cudnn argument is not supported anymore. '
                'Use chainer.using_config',
                use_bi_direction='use_bi_direction is not supported anymore',
                activation='activation is not supported anymore',
            )
            argument.assert_kwargs_empty(kwargs)
        super().__init__()
        self.n_layers = n_layers
        self.out_size = out_size
        self.dropout = dropout
        self.direction = 2 if self.use_bi_direction else 1
        if initial_bias is None:
            initial_bias = 0
        half = self.n_weights // 2
        for layer in range(n_layers):
            for _ in range(self.direction):
                weights = link.Link()
                below = in_size if layer == 0 else out_size * self.direction
                with weights.init_scope():
                    for j in range(self.n_weights):
                        w_in = below if j < half else out_size
                        init = initialW
                        if init is None:
                            init = initializers.Normal(numpy.sqrt(1.0 / w_in))
                        setattr(
                            weights,
                            'w{}'.format(j),
                            variable.Parameter(
                                initializers._get_initializer(init), (out_size, w_in)
                            ),
                        )
                        setattr(
                            weights,
                            'b{}'.format(j),
                            variable.Parameter(
                                initializers._get_initializer(initial_bias), out_size
                            ),
                        )
                # the weights (and biases) the cell joins share one array
                function = self._function()
                blocks = getattr(function and function[1], 'row_blocks', ())
                for group in blocks:
                    for kind in 'wb':
                        _views.share_rows(
                            [getattr(weights, '{}{}'.format(kind, j)) for j in group]
                        )
                self.add_link(weights)

    @property
    def ws(self):
        return [
            [getattr(w, 'w{}'.format(j)) for j in range(self.n_weights)] for w in self
        ]

    @property
    def bs(self):
        return [
            [getattr(w, 'b{}'.format(j)) for j in range(self.n_weights)] for w in self
        ]

    def init_hx(self, xs):
        """Returns zero initial states for the sequences ``xs``: a Variable
        of shape ``(n_layers * D, len(xs), out_size)`` of the dtype of
        ``xs[0]``, on the device of the link."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        return variable.Variable(self.xp.zeros(shape, xs[0].dtype))

    def _function(self):
        """The name of the n-step function and its cell, which a call runs
        on the joined rows directly; None (here) to call :meth:`rnn` on
        the sorted, transposed sequences instead."""
        return None

    def rnn(self, *args):
        """Runs the n-step function on sorted input; each subclass
        implements it. It is given the arguments of the function (as
        Chainer's): ``n_layers``, the dropout ratio, the initial states
        (``hx``, and ``cx`` of an LSTM), ``ws``, ``bs`` and the inputs of
        each time step, longest sequences first; it returns the final
        states and the outputs of each time step."""
        raise NotImplementedError(
            '{}.rnn is not implemented'.format(type(self).__name__)
        )

    def _call(self, states, xs, **kwargs):
        rnn._check_kwargs(type(self).__name__, kwargs)
        if not isinstance(xs, (list, tuple)):
            raise _chainer_errors.AssertedTypeError(
                '{}: xs must be a list of sequences, not {}'.format(
                    type(self).__name__, type(xs).__name__
                )
            )
        order = argsort_list_descent(xs)
        states = [
            self.init_hx(xs) if s is None else permutate.permutate(s, order, axis=1)
            for s in states
        ]
        rows, batches = _time_major_rows([len(x) for x in xs], order)
        x = None
        if xs:
            x = concat.concat(xs, axis=0) if len(xs) > 1 else xs[0]
            if rows is not None:
                x = permutate.permutate(x, self.xp.asarray(rows), axis=0)
        function = self._function()
        if function is None:  # a subclass that implements rnn only
            steps = () if x is None else (x,)
            if len(batches) > 1:
                steps = split_axis.split_axis(x, offsets(batches)[1:], axis=0)
            outputs = self.rnn(
                self.n_layers, self.dropout, *states, self.ws, self.bs, list(steps)
            )
            outputs, y = outputs[:-1], concat.concat(outputs[-1], axis=0)
        else:
            outputs, y = rnn.run_rows(
                function[0],
                function[1],
                self.n_layers,
                self.dropout,
                states,
                self.ws,
                self.bs,
                x,
                batches,
                self.use_bi_direction,
            )
        states = [permutate.permutate(s, order, axis=1, inv=True) for s in outputs]
        if rows is not None:
            y = permutate.permutate(y, self.xp.asarray(rows), axis=0, inv=True)
        ends = numpy.cumsum([len(x) for x in xs])[:-1]
        return tuple(states) + (list(split_axis.split_axis(y, ends, axis=0)),)

    def forward(self, hx, xs, **kwargs):
        """Runs the RNN over sequences.

        Args:
            hx (Variable or None): Initial hidden states, of shape
                ``(n_layers * D, len(xs), out_size)`` (``D`` is 2 for a
                bidirectional link, else 1), indexed like ``xs``; ``None``
                stands for zeros.
            xs (list of Variable): The sequences, of shape
                ``(length, in_size)`` each, in any order.

        Returns:
            tuple: ``(hy, ys)``: the final hidden states, shaped like
            ``hx``, and the output sequences of the last layer, ``ys[i]`` of
            shape ``(len(xs[i]), D * out_size)``.

        """
        return self._call([hx], xs, **kwargs)


class _NStepRNNActivation(NStepRNNBase):
    n_weights = 2

    def _function(self):
        name = 'n_step_birnn' if self.use_bi_direction else 'n_step_rnn'
        return name, rnn._RNNCell(self.activation)

    def rnn(self, *args):
        return rnn.n_step_rnn_base(*args, self.activation, self.use_bi_direction)


class NStepRNNTanh(_NStepRNNActivation):
    """Stacked uni-directional RNN with ``tanh`` for sequences.

    A link form of :func:`~chainerlite.functions.n_step_rnn`; the arguments
    are those of :class:`NStepRNNBase`.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> rnn = L.NStepRNNTanh(2, 3, 4, 0.0)
        >>> xs = [np.ones((2, 3), np.float32), np.ones((5, 3), np.float32)]
        >>> hy, ys = rnn(None, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(2, 4), (5, 4)])

    """

    activation = 'tanh'


class NStepRNNReLU(_NStepRNNActivation):
    """Stacked uni-directional RNN with ``relu`` for sequences.

    A link form of :func:`~chainerlite.functions.n_step_rnn`; the arguments
    are those of :class:`NStepRNNBase`.
    """

    activation = 'relu'


class NStepBiRNNTanh(_NStepRNNActivation):
    """Stacked bidirectional RNN with ``tanh`` for sequences.

    A link form of :func:`~chainerlite.functions.n_step_birnn`; the
    arguments are those of :class:`NStepRNNBase`.
    """

    activation = 'tanh'
    use_bi_direction = True


class NStepBiRNNReLU(_NStepRNNActivation):
    """Stacked bidirectional RNN with ``relu`` for sequences.

    A link form of :func:`~chainerlite.functions.n_step_birnn`; the
    arguments are those of :class:`NStepRNNBase`.
    """

    activation = 'relu'
    use_bi_direction = True
