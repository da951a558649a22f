"""A model split over processes, with communication between its parts."""

from chainerlite import link
from chainerlite.chainermn import functions


def _rank_list(ranks):
    if ranks is None:
        return None
    return list(ranks) if isinstance(ranks, (list, tuple)) else [ranks]


def _as_tuple(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


class MultiNodeChainList(link.ChainList):
    """A chain of components, each fed by other processes or by the input.

    Each component added by :meth:`add_link` says where its inputs come from
    (``rank_in``: ``None`` for the arguments of the call, a rank, or a list
    of ranks, one argument each; this process's own rank takes the output
    of an earlier component of this chain sent to itself) and where its
    output goes (``rank_out``: ``None`` when it is the output of the chain,
    or a rank or list of ranks). Calling the chain runs the components in
    the order they were added; every send is linked into the graph, so one
    ``backward()`` from the result exchanges all gradients in the reverse
    order. A process whose chain has no output returns a delegate variable
    to call ``backward()`` on.
    """

    def __init__(self, comm):
        super(MultiNodeChainList, self).__init__()
        self._comm = comm
        self._routes = []

    def add_link(self, link, rank_in=None, rank_out=None):
        """Appends a component with its input and output ranks."""
        super(MultiNodeChainList, self).add_link(link)
        self._routes.append((_rank_list(rank_in), _rank_list(rank_out)))

    def __call__(self, *inputs):
        comm = self._comm
        delegate = None
        local = []
        output = None
        for component, (rank_in, rank_out) in zip(self, self._routes):
            if rank_in is None:
                args = inputs
            else:
                args = []
                for rank in rank_in:
                    if rank == comm.rank:
                        args.append(local.pop(0))
                    else:
                        args.append(
                            functions.recv(comm, rank, delegate_variable=delegate)
                        )
                        delegate = None
            y = component(*args)
            if rank_out is None:
                output = y
                continue
            for rank in rank_out:
                if rank == comm.rank:
                    local.append(y)
                    continue
                if delegate is not None:
                    y = self._connect(delegate, y)
                delegate = functions.send(y, comm, rank)
        if output is None:
            return delegate
        if delegate is not None:
            output = self._connect(delegate, output)
        return output

    @staticmethod
    def _connect(delegate, y):
        ys = functions.pseudo_connect(delegate, *_as_tuple(y))
        return ys if isinstance(y, (list, tuple)) else ys[0]
