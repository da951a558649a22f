"""Iterator: the base class of dataset iterators."""


class Iterator(object):
    """Base class of iterators that yield minibatches of a dataset.

    ``next()`` (or ``__next__``) returns the next minibatch, a list of
    examples; an iterator that does not repeat raises ``StopIteration`` at
    the end of an epoch. Iterators hold resources (threads, processes) that
    ``finalize()`` releases; using one as a context manager finalizes it on
    exit. ``serialize`` saves and restores the position, so that training
    resumes from a snapshot where it stopped.
    """

    def __iter__(self):
        return self

    def __next__(self):
        """Returns the next minibatch (implemented by subclasses)."""
        raise NotImplementedError(
            '{}.__next__ is not implemented'.format(type(self).__name__)
        )

    def next(self):
        """Returns the next minibatch."""
        return self.__next__()

    def finalize(self):
        """Releases what the iterator holds (nothing by default)."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()

    def serialize(self, serializer):
        """Saves or loads the iterator's position (nothing by default)."""
