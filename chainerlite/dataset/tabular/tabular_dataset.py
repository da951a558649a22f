"""``TabularDataset``: a dataset of equal-length columns, read in batches.

A tabular dataset answers ``get_examples(indices, key_indices)`` with a tuple
of columns, one per requested key. ``indices`` is None (every row), a slice
or a list of ints; ``key_indices`` is None (every key) or a tuple of ints.
Columns come back as the dataset produced them (lists, arrays, ...); the
views (``slice``, ``concat``, ``join``, ``transform``, ...) pass such
requests down lazily and read only what was asked for.
"""

import operator

import numpy

from chainerlite.backends import cuda
from chainerlite.dataset import dataset_mixin


def format_example(mode, keys, values):
    """Packs one example (or one batch of columns) in the form ``mode`` says.

    ``tuple`` gives a tuple, ``dict`` a dict keyed by ``keys``, ``None`` the
    only value.
    """
    if mode is tuple:
        return tuple(values)
    if mode is dict:
        return dict(zip(keys, values))
    if mode is None:
        (value,) = values
        return value
    raise ValueError('unknown mode of a tabular dataset: {!r}'.format(mode))


def call_with_example(func, mode, data):
    """Calls ``func`` with ``data`` (in ``mode``'s form) spread as arguments.

    A tuple gives positional arguments, a dict keyword arguments, and a
    single value (mode ``None``) one argument.
    """
    if mode is tuple:
        return func(*data)
    if mode is dict:
        return func(**data)
    return func(data)


class TabularDataset(dataset_mixin.DatasetMixin):
    """An abstract dataset whose examples all have the same keys.

    Each example is a row of a table whose columns are named by ``keys``.
    ``mode`` says how an example is represented: ``tuple`` (values in key
    order), ``dict`` (key to value) or ``None`` (one column; the value
    itself). A subclass implements ``__len__``, ``keys``, ``mode`` and
    ``get_examples``; slicing, concatenation, joining, transforms and
    conversion are then built on ``get_examples``.

    >>> from chainerlite.dataset import TabularDataset
    >>> class Powers(TabularDataset):
    ...     keys = ('n', 'square', 'cube')
    ...     mode = dict
    ...     def __len__(self):
    ...         return 5
    ...     def get_examples(self, indices, key_indices):
    ...         rows = range(5)[indices] if isinstance(indices, slice) else (
    ...             range(5) if indices is None else indices)
    ...         columns = [[i ** p for i in rows] for p in (1, 2, 3)]
    ...         if key_indices is None:
    ...             return tuple(columns)
    ...         return tuple(columns[k] for k in key_indices)
    >>> powers = Powers()
    >>> powers[2]
    {'n': 2, 'square': 4, 'cube': 8}
    >>> view = powers.slice[::2, ('cube', 'n')]
    >>> view.keys, len(view), view.mode
    (('cube', 'n'), 3, <class 'dict'>)
    >>> view.astuple().fetch()
    ([0, 8, 64], [0, 2, 4])
    >>> powers.transform('odd', lambda n, square, cube: n % 2 == 1)[:3]
    [False, True, False]
    """

    @property
    def keys(self):
        """tuple of str: Names of the columns."""
        raise NotImplementedError(
            '{}.keys is not implemented'.format(type(self).__name__)
        )

    @property
    def mode(self):
        """``tuple``, ``dict`` or ``None``: The form of an example."""
        raise NotImplementedError(
            '{}.mode is not implemented'.format(type(self).__name__)
        )

    def get_examples(self, indices, key_indices):
        """Returns a part of the table, one column per requested key.

        Args:
            indices (None, slice or list of ints): Rows to read; None for
                all of them.
            key_indices (None or tuple of ints): Columns to read, by
                position in ``keys``; None for all of them.

        Returns:
            tuple: The columns (each a list, an array or another sequence).
        """
        raise NotImplementedError(
            '{}.get_examples is not implemented'.format(type(self).__name__)
        )

    @property
    def slice(self):
        """A helper that makes views: ``dataset.slice[indices, keys]``.

        ``indices`` is a slice, a list of ints or a list of bools (a mask
        as long as the dataset); ``keys`` (optional) is a key, a key index,
        or a tuple of them. A single key gives a view in mode ``None``, a
        tuple gives mode ``tuple`` unless the dataset's mode is ``dict``.
        """
        from chainerlite.dataset.tabular import _slice

        return _slice.SliceHelper(self)

    def fetch(self):
        """Returns the whole table: a tuple, dict or single column (mode)."""
        # the columns first: a transform learns its mode by reading them
        columns = self.get_examples(None, None)
        return format_example(self.mode, self.keys, columns)

    def convert(self, data):
        """Turns what ``fetch`` returned into arrays, keeping its form.

        Array columns are kept as they are; other columns go through
        ``numpy.asarray``.
        """
        if isinstance(data, tuple):
            return tuple(_as_array(column) for column in data)
        if isinstance(data, dict):
            return {key: _as_array(column) for key, column in data.items()}
        return _as_array(data)

    def astuple(self):
        """Returns a view of this dataset in mode ``tuple``."""
        from chainerlite.dataset.tabular import _asmode

        return _asmode.AsMode(self, tuple)

    def asdict(self):
        """Returns a view of this dataset in mode ``dict``."""
        from chainerlite.dataset.tabular import _asmode

        return _asmode.AsMode(self, dict)

    def concat(self, *datasets):
        """Stacks datasets with the same keys below this one (rows added).

        Raises:
            ValueError: If the keys of a dataset differ from this one's.
        """
        from chainerlite.dataset.tabular import _concat

        return _concat.Concat(self, *datasets)

    def join(self, *datasets):
        """Puts datasets of the same length beside this one (columns added).

        The mode is the first non-None mode among the datasets, or
        ``tuple``.

        Raises:
            ValueError: If a length differs or a key appears twice.
        """
        from chainerlite.dataset.tabular import _join

        return _join.Join(self, *datasets)

    def transform(self, keys, transform):
        """Returns a view that applies ``transform`` to each example.

        ``transform`` is called with an example spread as arguments (its
        values for mode ``tuple``, keyword arguments for ``dict``, the value
        for ``None``). It returns a tuple, a dict or (for one key) a value,
        and must keep returning the same form. ``keys`` names the outputs: a
        tuple of keys, or one key for a single-valued output.
        """
        from chainerlite.dataset.tabular import _transform

        return _transform.Transform(self, keys, transform)

    def transform_batch(self, keys, transform_batch):
        """Like ``transform``, but called once with whole columns.

        Each returned column must have as many rows as the input.
        """
        from chainerlite.dataset.tabular import _transform

        return _transform.TransformBatch(self, keys, transform_batch)

    def with_converter(self, converter):
        """Returns a view whose ``convert`` calls ``converter``.

        ``converter`` gets the data spread by its form: a tuple as
        arguments, a dict as keyword arguments, anything else as the one
        argument.
        """
        from chainerlite.dataset.tabular import _with_converter

        return _with_converter.WithConverter(self, converter)

    def get_example(self, i):
        """Returns the ``i``-th example in the form ``mode`` says."""
        columns = self.get_examples([i], None)
        return format_example(self.mode, self.keys, [column[0] for column in columns])

    def __getitem__(self, index):
        """Returns an example (int) or a list of them (slice, list, array).

        A list of examples is read with one ``get_examples`` call.
        """
        if isinstance(index, slice):
            indices = list(range(*index.indices(len(self))))
        elif isinstance(index, (list, numpy.ndarray)):
            indices = [operator.index(i) for i in index]
        else:
            return self.get_example(index)
        columns = self.get_examples(indices, None)
        if not columns:
            return [format_example(self.mode, self.keys, ())] * len(indices)
        return [
            format_example(self.mode, self.keys, values) for values in zip(*columns)
        ]

    def __iter__(self):
        for i in range(len(self)):
            yield self.get_example(i)


def _as_array(column):
    return cuda.get_array_module(column).asarray(column)
