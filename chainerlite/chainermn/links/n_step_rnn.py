"""An NStep RNN whose hidden state comes from and goes to other processes."""

from chainerlite import link
from chainerlite.chainermn import functions
from chainerlite.links.rnn import n_step_lstm


class _MultiNodeNStepRNN(link.Chain):
    """See :func:`create_multi_node_n_step_rnn`."""

    def __init__(self, actual_rnn, communicator, rank_in, rank_out):
        super(_MultiNodeNStepRNN, self).__init__()
        with self.init_scope():
            self.actual_rnn = actual_rnn
        self.communicator = communicator
        self.rank_in = rank_in
        self.rank_out = rank_out
        self._has_cell = isinstance(actual_rnn, n_step_lstm.NStepLSTMBase)

    def forward(self, xs):
        states = (None, None) if self._has_cell else (None,)
        if self.rank_in is not None:
            states = functions.recv(self.communicator, self.rank_in, force_tuple=True)
        outputs = self.actual_rnn(*(tuple(states) + (xs,)))
        delegate = None
        if self.rank_out is not None:
            delegate = functions.send(outputs[:-1], self.communicator, self.rank_out)
        return tuple(outputs) + (delegate,)


def create_multi_node_n_step_rnn(actual_rnn, communicator, rank_in=None, rank_out=None):
    """Chains an NStep RNN link over processes by its hidden state.

    The initial hidden state (and cell state, for LSTMs) is received from
    ``rank_in`` (zeros when None); the final ones are sent to ``rank_out``.
    Calling the link with ``xs`` returns the outputs of ``actual_rnn``
    followed by the delegate variable of the send (None without
    ``rank_out``), to be joined into the loss with
    :func:`chainermn.functions.pseudo_connect`.
    """
    return _MultiNodeNStepRNN(actual_rnn, communicator, rank_in, rank_out)
