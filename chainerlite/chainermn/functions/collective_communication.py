"""Differentiable collective communication (each backward is the dual collective)."""

import chainerlite
from chainerlite import backend
from chainerlite import function_node
from chainerlite.chainermn.functions import _util


def _variables(arrays, device):
    return tuple(chainerlite.Variable(device.send(a)) for a in arrays)


def _sum(arrays):
    total = arrays[0].copy()
    for array in arrays[1:]:
        total += array
    return total


class _Rooted(function_node.FunctionNode):
    """A collective with a root rank."""

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def _gathered_grads(self, grad_outputs):
        """Every rank's gradient of the one output, on the root (else None)."""
        (gy,) = _util.grads_or_zeros(grad_outputs, (self._output_like,))
        return self.comm.gather(gy, self.root)


class AllGather(function_node.FunctionNode):
    """Every rank's input, on every rank; backward sums the gradients sent back."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        (x,) = inputs
        self._device = backend.get_device_from_array(x)
        self._outputs_like = tuple(self._device.send(y) for y in self.comm.allgather(x))
        return self._outputs_like

    def backward(self, indexes, grad_outputs):
        grads = _util.grads_or_zeros(grad_outputs, self._outputs_like)
        return _variables((_sum(self.comm.alltoall(grads)),), self._device)


class AllToAll(function_node.FunctionNode):
    """Input ``i`` goes to rank ``i``; backward sends the gradients back."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        if len(inputs) != self.comm.size:
            raise ValueError(
                'chainermn.functions.alltoall: {} inputs for {} processes'.format(
                    len(inputs), self.comm.size
                )
            )
        self._device = backend.get_device_from_array(inputs[0])
        self._outputs_like = tuple(
            self._device.send(y) for y in self.comm.alltoall(inputs)
        )
        return self._outputs_like

    def backward(self, indexes, grad_outputs):
        grads = _util.grads_or_zeros(grad_outputs, self._outputs_like)
        returned = _variables(self.comm.alltoall(grads), self._device)
        return tuple(returned[i] for i in indexes)


class Bcast(_Rooted):
    """Root's input on every rank; backward sums all gradients on the root."""

    def forward(self, inputs):
        (x,) = inputs
        self._device = backend.get_device_from_array(x)
        self._input_grad = _util.zero_grad_of(x)
        y = self.comm.bcast(x if self.comm.rank == self.root else None, self.root)
        self._output_like = self._device.send(y)
        return (self._output_like,)

    def backward(self, indexes, grad_outputs):
        gathered = self._gathered_grads(grad_outputs)
        if self.comm.rank != self.root:
            return (self._input_grad(),)
        return _variables((_sum(gathered),), self._device)


class Gather(_Rooted):
    """Every rank's input on the root; backward scatters the gradients back."""

    def forward(self, inputs):
        (x,) = inputs
        self._device = backend.get_device_from_array(x)
        ys = self.comm.gather(x, self.root)
        if self.comm.rank != self.root:
            return (_util.delegate_array(backend.get_array_module(x)),)
        self._outputs_like = tuple(self._device.send(y) for y in ys)
        return self._outputs_like

    def backward(self, indexes, grad_outputs):
        if self.comm.rank == self.root:
            grads = _util.grads_or_zeros(grad_outputs, self._outputs_like)
            g = self.comm.scatter(grads, self.root)
        else:
            g = self.comm.scatter(None, self.root)
        return _variables((g,), self._device)


class Scatter(_Rooted):
    """Root's input ``i`` on rank ``i``; backward gathers the gradients to root."""

    def forward(self, inputs):
        is_root = self.comm.rank == self.root
        self._input_grad = _util.zero_grad_of(inputs[0])
        self._device = backend.get_device_from_array(inputs[0])
        y = self.comm.scatter(inputs if is_root else None, self.root)
        self._output_like = self._device.send(y)
        return (self._output_like,)

    def backward(self, indexes, grad_outputs):
        gathered = self._gathered_grads(grad_outputs)
        if self.comm.rank != self.root:
            return (self._input_grad(),)
        returned = _variables(gathered, self._device)
        return tuple(returned[i] for i in indexes)


def allgather(comm, x):
    """A tuple of every rank's ``x``, on every rank (differentiable).

    The gradient of ``x`` is the sum of the gradients that all ranks
    computed for their copy of it.
    """
    return AllGather(comm).apply((_util.as_input(x),))


def alltoall(comm, xs):
    """Sends ``xs[i]`` to rank ``i``; returns what each rank sent here.

    ``xs`` has one variable per process; the gradients travel back the same
    way.
    """
    if len(xs) != comm.size:
        raise ValueError(
            'chainermn.functions.alltoall: {} inputs for {} processes'.format(
                len(xs), comm.size
            )
        )
    return AllToAll(comm).apply(tuple(_util.as_input(x) for x in xs))


def bcast(comm, x, root=0):
    """Rank ``root``'s ``x`` on every rank (others pass None).

    In backward the root receives the sum of every rank's gradient.
    """
    if comm.rank != root:
        x = _util.dummy_input()
    (y,) = Bcast(comm, root).apply((_util.as_input(x),))
    return y


def gather(comm, x, root=0):
    """Every rank's ``x`` on rank ``root`` (a tuple of variables there).

    Other ranks get a delegate variable; calling ``backward()`` on it
    receives the gradient of ``x`` from the root.
    """
    ys = Gather(comm, root).apply((_util.as_input(x),))
    return ys if comm.rank == root else ys[0]


def scatter(comm, xs, root=0):
    """``xs[i]`` of rank ``root`` on rank ``i`` (others pass None).

    In backward the root receives every rank's gradient for its part.
    """
    if comm.rank == root:
        if len(xs) != comm.size:
            raise ValueError(
                'chainermn.functions.scatter: {} inputs for {} processes'.format(
                    len(xs), comm.size
                )
            )
        inputs = tuple(_util.as_input(x) for x in xs)
    else:
        inputs = (_util.dummy_input(),)
    (y,) = Scatter(comm, root).apply(inputs)
    return y
