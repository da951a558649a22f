"""Differentiable send and receive between two ranks."""

import chainerlite
from chainerlite import backend
from chainerlite import function_node
from chainerlite.chainermn.functions import _util


class Send(function_node.FunctionNode):
    """Sends its inputs forward; receives their gradients in backward."""

    def __init__(self, comm, peer_rank, peer_tag):
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag

    def forward(self, inputs):
        self._like = tuple((backend.get_device_from_array(x), x.dtype) for x in inputs)
        self.comm.send(
            inputs if len(inputs) > 1 else inputs[0], self.peer_rank, self.peer_tag
        )
        return (_util.delegate_array(backend.get_array_module(inputs[0])),)

    def backward(self, indexes, grad_outputs):
        received = self.comm.recv(self.peer_rank, self.peer_tag)
        if not isinstance(received, tuple):
            received = (received,)
        grads = [
            chainerlite.Variable(device.send(g.astype(dtype, copy=False)))
            for g, (device, dtype) in zip(received, self._like)
        ]
        return tuple(grads[i] for i in indexes)


class Recv(function_node.FunctionNode):
    """Receives arrays forward; sends their gradients back in backward."""

    def __init__(self, comm, peer_rank, peer_tag, device):
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag
        self.device = device

    def forward(self, inputs):
        self._delegate_grad = _util.zero_grad_of(inputs[0])
        received = self.comm.recv(self.peer_rank, self.peer_tag)
        if not isinstance(received, tuple):
            received = (received,)
        device = (
            backend.get_device(self.device)
            if self.device is not None
            else backend.get_device_from_array(inputs[0])
        )
        self._outputs_like = tuple(device.send(r) for r in received)
        return self._outputs_like

    def backward(self, indexes, grad_outputs):
        grads = _util.grads_or_zeros(grad_outputs, self._outputs_like)
        self.comm.send(
            grads if len(grads) > 1 else grads[0], self.peer_rank, self.peer_tag
        )
        return (self._delegate_grad(),)


def send(x, communicator, rank, tag=0):
    """Sends ``x`` (a variable or a list/tuple of them) to process ``rank``.

    Returns a *delegate variable*: calling ``backward()`` on it (or on a
    loss connected to it through :func:`pseudo_connect` or the
    ``delegate_variable`` of :func:`recv`) receives the gradients of ``x``
    from ``rank`` and back-propagates them on this process. Arrays are sent
    too (they are made variables that require grad, so that backward still
    reaches the peer).

    Args:
        x: Variable, array, or list/tuple of them.
        communicator: ChainerMN communicator.
        rank (int): Destination rank (not this process's own).
        tag (int): MPI tag.

    Returns:
        chainer.Variable: The delegate variable (a 0-d float32 zero).
    """
    if rank == communicator.rank:
        raise ValueError(
            'chainermn.functions.send: rank {} cannot send to itself'.format(rank)
        )
    xs = tuple(x) if isinstance(x, (list, tuple)) else (x,)
    (delegate,) = Send(communicator, rank, tag).apply(
        tuple(_util.as_input(v) for v in xs)
    )
    return delegate


def recv(
    communicator, rank, delegate_variable=None, tag=0, device=None, force_tuple=False
):
    """Receives what :func:`send` on process ``rank`` sent.

    In backward, the gradients of the received variables are sent back to
    ``rank``. Passing the delegate variable of an earlier :func:`send` of
    this process as ``delegate_variable`` links that send into this graph,
    so one ``backward()`` runs both.

    Args:
        communicator: ChainerMN communicator.
        rank (int): Source rank (not this process's own).
        delegate_variable (chainer.Variable): Delegate of a previous send.
        tag (int): MPI tag.
        device: Device of the received arrays (that of the delegate, or the
            CPU, by default).
        force_tuple (bool): Return a tuple even for one variable.

    Returns:
        chainer.Variable or tuple of them.
    """
    if rank == communicator.rank:
        raise ValueError(
            'chainermn.functions.recv: rank {} cannot receive from itself'.format(rank)
        )
    if delegate_variable is None:
        delegate_variable = _util.dummy_input()
    ys = Recv(communicator, rank, tag, device).apply((delegate_variable,))
    if len(ys) == 1 and not force_tuple:
        return ys[0]
    return ys
