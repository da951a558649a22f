"""DatasetMixin: indexing (ints, slices, index lists) from ``get_example``."""

import numpy


class DatasetMixin(object):
    """Base of datasets that compute one example at a time.

    A subclass implements ``__len__`` and ``get_example(i)``; this class
    gives ``dataset[i]``, ``dataset[slice]`` and ``dataset[list or array of
    indices]`` (the last two return lists of examples).
    """

    def __getitem__(self, index):
        """Returns the example(s) at ``index``.

        Args:
            index (int, slice, list or numpy.ndarray): Which examples.

        Returns:
            One example for an int, else a list of examples.

        """
        if isinstance(index, slice):
            return [self.get_example(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, (list, numpy.ndarray)):
            return [self.get_example(i) for i in index]
        return self.get_example(index)

    def __len__(self):
        """Returns the number of examples."""
        raise NotImplementedError(
            '{}.__len__ is not implemented'.format(type(self).__name__)
        )

    def get_example(self, i):
        """Returns the ``i``-th example (implemented by subclasses)."""
        raise NotImplementedError(
            '{}.get_example is not implemented'.format(type(self).__name__)
        )
