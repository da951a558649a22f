"""Linear-chain conditional random field layer."""

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
            transpose (bool): The inputs are batch-major (sequences sorted
                by decreasing length) and are made time-major first.

        Returns:
            Variable: The loss.

        """
        if transpose:
            xs = _time_major(xs)
            ys = _array_time_major([getattr(y, 'array', y) for y in ys], self.xp)
        return crf1d.crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs, transpose=False):
        """Returns the most probable label sequences.

        Args:
            xs (list): Label scores, as in :meth:`forward`.
            transpose (bool): The inputs are batch-major; the paths are then
                returned batch-major too.

        Returns:
            tuple: The scores (a Variable) and the paths (a list of int32
            arrays), as :func:`~chainerlite.functions.argmax_crf1d`.

        """
        if transpose:
            xs = _time_major(xs)
        score, path = crf1d.argmax_crf1d(self.cost, xs)
        if transpose:
            path = _array_time_major(path, self.xp)
        return score, path
