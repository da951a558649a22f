"""Linear-chain conditional random field layer."""

import numpy

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.array import get_item
from chainerlite.functions.array import stack
from chainerlite.functions.loss import crf1d


def _time_major(seqs):
    # Sequences (sorted by decreasing length) to one array per time step.
    out = []
    for t in range(len(seqs[0])):
        out.append(stack.stack([get_item.get_item(s, t) for s in seqs if len(s) > t]))
    return out


def _array_time_major(seqs, xp):
    return [xp.stack([s[t] for s in seqs if len(s) > t]) for t in range(len(seqs[0]))]


def _longest_first(xs, name):
    # The batch-major sequences may come in any order; the time-major layout
    # needs the longest first. NumPy's default argsort, as Chainer calls it,
    # so that sequences of equal length keep Chainer's relative order (the
    # per-sequence losses and scores come out in this order).
    if not isinstance(xs, (list, tuple)) or not xs:
        raise ValueError(
            'CRF1d.{}: with transpose=True, xs must be a non-empty list of '
            'sequences'.format(name)
        )
    return numpy.argsort([-len(x) for x in xs]).astype(numpy.int32)


class CRF1d(link.Link):
    """Linear-chain conditional random field loss layer.

    It holds the transition scores ``cost`` and computes
    :func:`~chainerlite.functions.crf1d`.

    Args:
        n_label (int): Number of labels.
        initial_cost: Initializer of ``cost`` (zeros when ``None``).

    Attributes:
        cost (Parameter): Transition scores of shape ``(n_label,
            n_label)``.

    """

    def __init__(self, n_label, initial_cost=None):
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.constant.Zero()
        with self.init_scope():
            self.cost = variable.Parameter(
                initializers._get_initializer(initial_cost), (n_label, n_label)
            )

    def forward(self, xs, ys, reduce='mean', transpose=False):
        """Computes the loss of label sequences.

        Args:
            xs (list): Label scores, time-major (see
                :func:`~chainerlite.functions.crf1d`), or one array of shape
                ``(length, n_label)`` per sequence when ``transpose``.
            ys (list): Labels, laid out as ``xs``.
            reduce (str): ``'mean'`` or ``'no'``.
            transpose (bool): The inputs are batch-major, in any order: they
                are sorted by decreasing length and made time-major first.

        Returns:
            Variable: The loss. With ``transpose`` and ``reduce='no'``, the
            losses are in the order of decreasing length (as in Chainer).

        Raises:
            ValueError: With ``transpose``, if ``xs`` is empty or ``ys`` has
                another number of sequences.

        """
        if transpose:
            order = _longest_first(xs, 'forward')
            if len(ys) != len(xs):
                raise ValueError(
                    'CRF1d.forward: xs has {} sequences but ys has {}'.format(
                        len(xs), len(ys)
                    )
                )
            xs = _time_major([xs[i] for i in order])
            ys = _array_time_major(
                [getattr(ys[i], 'array', ys[i]) for i in order], self.xp
            )
        return crf1d.crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs, transpose=False):
        """Returns the most probable label sequences.

        Args:
            xs (list): Label scores, as in :meth:`forward`.
            transpose (bool): The inputs are batch-major, in any order; the
                paths are then returned batch-major, one per input sequence
                in the input order.

        Returns:
            tuple: The scores (a Variable) and the paths (a list of int32
            arrays), as :func:`~chainerlite.functions.argmax_crf1d`. With
            ``transpose``, the scores stay in the order of decreasing length
            (as in Chainer), while the paths follow the inputs.

        Raises:
            ValueError: With ``transpose``, if ``xs`` is empty.

        """
        if transpose:
            order = _longest_first(xs, 'argmax')
            xs = _time_major([xs[i] for i in order])
        score, path = crf1d.argmax_crf1d(self.cost, xs)
        if transpose:
            sorted_paths = _array_time_major(path, self.xp)
            path = [None] * len(sorted_paths)
            for position, index in enumerate(order):
                path[index] = sorted_paths[position]
        return score, path
