"""SubDataset (a view of a range of a dataset) and the splits built on it."""

import numbers
import warnings

import numpy

from chainerlite.dataset import dataset_mixin


class SubDataset(dataset_mixin.DatasetMixin):
    """The examples ``start`` to ``finish - 1`` of a dataset (no copy).

    With ``order``, the view is of the dataset permuted by ``order``: the
    ``i``-th example is ``dataset[order[start + i]]``.

    Args:
        dataset: The underlying dataset.
        start (int): First index of the view.
        finish (int): One past the last index.
        order (sequence of ints): A permutation of the dataset's indices, or
            ``None`` for the dataset's own order.

    Raises:
        ValueError: If ``order`` is not as long as the dataset.

    """

    def __init__(self, dataset, start, finish, order=None):
        if start < 0 or finish > len(dataset):
            raise ValueError(
                'SubDataset: [{}, {}) is not inside the dataset of {} examples'.format(
                    start, finish, len(dataset)
                )
            )
        if order is not None and len(order) != len(dataset):
            raise ValueError(
                'SubDataset: order has {} entries but the dataset has {} '
                'examples'.format(len(order), len(dataset))
            )
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order

    def __len__(self):
        return self._size

    def get_example(self, i):
        if not -self._size <= i < self._size:
            raise IndexError(
                'SubDataset: index {} out of range for {} examples'.format(
                    i, self._size
                )
            )
        index = (self._start if i >= 0 else self._finish) + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def split_dataset(dataset, split_at, order=None):
    """Splits a dataset in two at an index (views, no copies).

    Args:
        dataset: The dataset.
        split_at (int): Number of examples in the first part.
        order (sequence of ints): A permutation to split instead of the
            dataset's order.

    Returns:
        tuple: Two :class:`SubDataset` objects.

    Raises:
        TypeError: If ``split_at`` is not an integer.
        ValueError: If ``split_at`` is outside ``[0, len(dataset)]``.

    """
    if not isinstance(split_at, numbers.Integral):
        raise TypeError(
            'split_at must be an int, got {}'.format(type(split_at).__name__)
        )
    n = len(dataset)
    if not 0 <= split_at <= n:
        raise ValueError('split_at must be in [0, {}], but is {}'.format(n, split_at))
    return (
        SubDataset(dataset, 0, split_at, order),
        SubDataset(dataset, split_at, n, order),
    )


def split_dataset_random(dataset, first_size, seed=None):
    """Splits a dataset in two at random.

    Args:
        dataset: The dataset.
        first_size (int): Number of examples in the first part.
        seed (int): Seed of the permutation (random when ``None``).

    Returns:
        tuple: Two :class:`SubDataset` objects.

    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset, n, order=None):
    """Splits a dataset into ``n`` parts of ``len(dataset) // n`` examples.

    The examples left over at the end are in no part.

    Args:
        dataset: The dataset.
        n (int): Number of parts.
        order (sequence of ints): A permutation to split instead of the
            dataset's order.

    Returns:
        list: ``n`` :class:`SubDataset` objects.

    """
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order) for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """Splits a dataset into ``n`` random parts of equal size.

    Args:
        dataset: The dataset.
        n (int): Number of parts.
        seed (int): Seed of the permutation (random when ``None``).

    Returns:
        list: ``n`` :class:`SubDataset` objects.

    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def _n_folds(n_folds, kwargs):
    if 'n_fold' in kwargs:
        warnings.warn('n_fold is deprecated; use n_folds', DeprecationWarning)
        n_folds = kwargs.pop('n_fold')
    if kwargs:
        raise TypeError(
            'unexpected keyword arguments: {}'.format(', '.join(sorted(kwargs)))
        )
    if n_folds is None:
        raise TypeError('n_folds is required')
    return n_folds


def get_cross_validation_datasets(dataset, n_folds=None, order=None, **kwargs):
    """Makes the training/validation pairs of ``n_folds``-fold cross
    validation.

    The (ordered) dataset is cut into ``n_folds`` nearly equal segments;
    pair ``i`` validates on segment ``n_folds - 1 - i`` and trains on the
    others, listed from the end of the validation segment onwards
    (wrapping around).

    Args:
        dataset: The dataset.
        n_folds (int): Number of folds.
        order (sequence of ints): A permutation to use instead of the
            dataset's order.

    Returns:
        list: ``n_folds`` pairs ``(train, validation)`` of
        :class:`SubDataset` objects.

    Raises:
        ValueError: If ``n_folds`` exceeds the number of examples (of a
            non-empty dataset).

    """
    n_folds = _n_folds(n_folds, kwargs)
    n = len(dataset)
    if 0 < n < n_folds:
        # Chainer fails here too (ValueError), on an empty validation fold
        raise ValueError(
            'get_cross_validation_datasets: n_folds ({}) exceeds the {} '
            'examples, so a validation fold would be empty'.format(n_folds, n)
        )
    if order is None:
        order = numpy.arange(n)
    order = numpy.asarray(order)
    borders = [n * i // n_folds for i in range(n_folds + 1)]
    pairs = []
    for i in range(n_folds):
        begin, end = borders[n_folds - 1 - i], borders[n_folds - i]
        rotated = numpy.roll(order, -end)
        pairs.append(split_dataset(dataset, n - (end - begin), rotated))
    return pairs


def get_cross_validation_datasets_random(dataset, n_folds=None, seed=None, **kwargs):
    """Like :func:`get_cross_validation_datasets`, on a random permutation.

    Args:
        dataset: The dataset.
        n_folds (int): Number of folds.
        seed (int): Seed of the permutation (random when ``None``).

    Returns:
        list: ``n_folds`` pairs ``(train, validation)``.

    """
    n_folds = _n_folds(n_folds, kwargs)
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order)
