"""TextDataset: the lines of text files as examples."""

import io
import os
import threading

from chainerlite.dataset import dataset_mixin


def _per_file(value, n, name):
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise ValueError(
                'TextDataset: {} has {} entries for {} files'.format(
                    name, len(value), n
                )
            )
        return list(value)
    return [value] * n


class TextDataset(dataset_mixin.DatasetMixin):
    """Dataset of the lines of one text file, or of parallel text files.

    With one path the ``i``-th example is the ``i``-th line (a ``str``,
    with its line ending); with several paths (files of the same number of
    lines) it is the tuple of their ``i``-th lines. The files are scanned
    once for where lines start, and stay open (a child process opens its
    own); :meth:`close` closes them.

    Args:
        paths (str or list of str): The file(s).
        encoding (str or list of str): Encoding of each file (the
            platform's default when ``None``).
        errors (str or list of str): How decoding errors are handled (as
            in :func:`open`).
        newline (str or list of str): Newline mode (as in :func:`open`);
            ``None`` turns every line ending into ``'\\n'``.
        filter_func (callable): Keeps only the lines (or parallel lines,
            passed as separate arguments) for which it returns true.

    Raises:
        ValueError: If the files have different numbers of lines, or no
            file is given.

    """

    def __init__(
        self, paths, encoding=None, errors=None, newline=None, filter_func=None
    ):
        self._single = isinstance(paths, str)
        if self._single:
            paths = [paths]
        elif len(paths) == 1:
            self._single = True
        n = len(paths)
        if n == 0:
            raise ValueError('TextDataset: at least one text file must be given')
        self._paths = list(paths)
        self._options = list(
            zip(
                _per_file(encoding, n, 'encoding'),
                _per_file(errors, n, 'errors'),
                _per_file(newline, n, 'newline'),
            )
        )
        self._open()
        self._starts = self._scan(filter_func)

    def _open(self):
        # Each process reads through its own file objects: a forked worker
        # would otherwise move the parent's file positions.
        self._pid = os.getpid()
        # a read is a seek then a readline on a shared file object: threads
        # (MultithreadIterator's) take turns, or one reads from where
        # another has just seeked
        self._lock = threading.Lock()
        self._fps = [
            io.open(path, 'r', encoding=enc, errors=err, newline=nl)
            for path, (enc, err, nl) in zip(self._paths, self._options)
        ]

    def _scan(self, filter_func):
        starts = []
        while True:
            where = [fp.tell() for fp in self._fps]
            lines = [fp.readline() for fp in self._fps]
            ended = [line == '' for line in lines]
            if all(ended):
                return starts
            if any(ended):
                raise ValueError(
                    'TextDataset: the files have different numbers of lines: {}'.format(
                        self._paths
                    )
                )
            if filter_func is None or filter_func(*lines):
                starts.append(where)

    def __len__(self):
        return len(self._starts)

    def get_example(self, idx):
        if idx < 0:  # (as Chainer: no index from the end)
            raise IndexError(
                'TextDataset: index {} out of range for {} examples'.format(
                    idx, len(self)
                )
            )
        if self._pid != os.getpid():
            self._open()
        lines = []
        with self._lock:
            for fp, start in zip(self._fps, self._starts[idx]):
                fp.seek(start)
                lines.append(fp.readline())
        return lines[0] if self._single else tuple(lines)

    def close(self):
        """Closes the files (every one, even if closing one fails)."""
        errors = []
        for fp in self._fps:
            try:
                fp.close()
            except Exception as e:
                errors.append(e)
        if errors:
            raise errors[0]

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_fps'], state['_pid'], state['_lock']
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._open()
