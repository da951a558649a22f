"""ConcatenatedDataset: several datasets one after another."""

import bisect
import itertools

from chainerlite.dataset import dataset_mixin


class ConcatenatedDataset(dataset_mixin.DatasetMixin):
    """Dataset made of the examples of each dataset in turn.

    Args:
        datasets: The datasets; the first one's examples come first.

    .. admonition:: Example

        >>> from chainerlite.datasets import ConcatenatedDataset
        >>> ds = ConcatenatedDataset([1, 2], [], [3])
        >>> len(ds), ds[2], ds[:]
        (3, 3, [1, 2, 3])

    """

    def __init__(self, *datasets):
        self._datasets = datasets
        # _ends[k]: number of examples in datasets[:k + 1]
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self):
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        # a negative index is out of range, as in Chainer 7.8.1 (slices
        # counting from the end still work: they reach here as positions)
        n = len(self)
        if not 0 <= i < n:
            raise IndexError(
                'ConcatenatedDataset: index {} out of range for {} examples'.format(
                    i, n
                )
            )
        k = bisect.bisect_right(self._ends, i)
        start = self._ends[k - 1] if k > 0 else 0
        return self._datasets[k][i - start]
