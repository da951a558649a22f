"""PickleDataset: a dataset stored as consecutive pickles in one file.

Only open files you trust: reading a pickle runs code chosen by whoever
wrote the file.
"""

import os
import pickle
import threading
import weakref

from chainerlite.dataset import dataset_mixin


class PickleDatasetWriter(object):
    """Writes examples as consecutive pickles to a binary file object.

    Args:
        writer: A writable binary file object.
        protocol (int): Pickle protocol.

    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._writer = writer
        self._protocol = protocol

    def write(self, x):
        """Appends one example."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self):
        self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()


# Datasets whose readers want to know about fork (their file position
# would be shared with the parent's).
_fork_watchers = weakref.WeakSet()


def _after_fork_in_child():
    for dataset in list(_fork_watchers):
        dataset._after_fork()


if hasattr(os, 'register_at_fork'):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class PickleDataset(dataset_mixin.DatasetMixin):
    """Dataset of the examples pickled one after another in a file.

    **Trusted files only**: reading an example unpickles it, and unpickling
    runs code chosen by whoever wrote the file. Use it for files you wrote
    with :class:`PickleDatasetWriter`.

    The file is scanned once when the dataset is made, to find where each
    example starts; ``dataset[i]`` then reads only example ``i``. Reads are
    serialized by a lock. A reader with an ``after_fork()`` method gets it
    called in a child process after a fork (file readers reopen the file
    so the child does not move the parent's file position).

    Args:
        reader: A readable, seekable binary file object.

    """

    def __init__(self, reader):
        self._reader = reader
        self._lock = threading.RLock()
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            self._positions.append(position)
        if hasattr(reader, 'after_fork'):
            _fork_watchers.add(self)

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        with self._lock:
            self._reader.seek(self._positions[index])
            return pickle.load(self._reader)

    def _after_fork(self):
        self._lock = threading.RLock()
        self._reader.after_fork()

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_lock']
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()
        if hasattr(self._reader, 'after_fork'):
            _fork_watchers.add(self)

    def close(self):
        """Closes the reader."""
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()


class _FileReader(object):
    # A file opened by path, reopened after fork and after unpickling.

    def __init__(self, path):
        self._path = path
        self._fp = open(path, 'rb')

    def __getattr__(self, name):
        try:
            fp = self.__dict__['_fp']
        except KeyError:
            raise AttributeError(name)
        return getattr(fp, name)

    def after_fork(self):
        self._fp.close()
        self._fp = open(self._path, 'rb')

    def __getstate__(self):
        return {'_path': self._path}

    def __setstate__(self, state):
        self._path = state['_path']
        self._fp = open(self._path, 'rb')


def open_pickle_dataset(path):
    """Opens a :class:`PickleDataset` on a file (**trusted files only**).

    Args:
        path (str): The file.

    Returns:
        PickleDataset: Usable in a ``with`` block, which closes the file.

    """
    return PickleDataset(_FileReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Opens a :class:`PickleDatasetWriter` on a new file.

    Args:
        path (str): The file (overwritten).
        protocol (int): Pickle protocol.

    Returns:
        PickleDatasetWriter: Usable in a ``with`` block, which closes it.

    """
    return PickleDatasetWriter(open(path, 'wb'), protocol)
