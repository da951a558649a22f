"""Snapshots of the trainer (or of any object) during training."""

import os
import re
import string
import warnings

import numpy

from chainerlite.backends import cuda
from chainerlite.serializers import npz
from chainerlite.training import extension
from chainerlite.training.extensions import snapshot_writers
from chainerlite.utils import argument


_LOAD_ERRORS = {}


def _load_error(cause, message):
    # A ValueError with chainerlite's message that is also of the cause's
    # type, so that code catching what Chainer raises still catches it;
    # ValueError alone where the classes cannot be joined (OSError's
    # layout) or the joined class cannot be made from one message
    cls = type(cause)
    if cls not in _LOAD_ERRORS:
        bases = (cls,) if issubclass(cls, ValueError) else (ValueError, cls)
        try:
            joined = type('SnapshotLoadError', bases, {})
            joined(message)
        except TypeError:
            joined = ValueError
        _LOAD_ERRORS[cls] = joined
    return _LOAD_ERRORS[cls](message)


class _State(dict):
    """The saved state of an object: a dict of arrays by key.

    It also has the ``serialize`` method of an object, so that any saving
    function of objects (``save_npz``, ...) can write it.
    """

    def serialize(self, serializer):
        for key, value in self.items():
            serializer(key, value)


def _capture(target):
    # Copies every array to the host now: a writer in another thread or
    # process saves the state as it was at this iteration.
    s = npz.DictionarySerializer()
    s.save(target)
    return _State(
        (key, numpy.array(cuda.to_cpu(value))) for key, value in s.target.items()
    )


def _pattern(fmt):
    # A regular expression matching the names made by fmt.format(...).
    parts = []
    for literal, field, _, _ in string.Formatter().parse(fmt):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append('.*')
    return re.compile(''.join(parts) + r'\Z')


def _find_snapshot_files(fmt, path):
    """Returns ``(mtime, name)`` pairs of the files in ``path`` that
    ``fmt`` could have named: in its subdirectory where ``fmt`` names one
    without fields ('snapshots/iter_{.updater.iteration}'), the name then
    relative to ``path``."""
    folder, base = os.path.split(fmt)
    if folder and '{' not in folder:
        path = os.path.join(path, folder)
        fmt = base
        if not os.path.isdir(path):
            return []
    else:
        folder = ''
    pattern = _pattern(fmt)
    found = []
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if pattern.match(name) and os.path.isfile(full):
            found.append((os.path.getmtime(full), os.path.join(folder, name)))
    return found


def _find_latest_snapshot(fmt, path):
    """Returns the name of the newest snapshot file in ``path`` (``None``
    if there is none)."""
    files = _find_snapshot_files(fmt, path)
    if not files:
        return None
    return max(files)[1]


def _find_stale_snapshots(fmt, path, n_retains):
    """Yields the names of the snapshot files beyond the ``n_retains``
    newest ones, oldest first."""
    files = sorted(_find_snapshot_files(fmt, path))
    for _, name in files[: max(len(files) - n_retains, 0)]:
        yield name


def _always_true():
    return True


class _Snapshot(extension.Extension):
    """The extension returned by :func:`snapshot` and
    :func:`snapshot_object`."""

    trigger = 1, 'epoch'
    # After the built-in extensions (as in Chainer): a snapshot holds what
    # a LogReport or an Evaluator recorded at its iteration.
    priority = -100

    def __init__(
        self,
        target=None,
        condition=None,
        writer=None,
        filename='snapshot_iter_{.updater.iteration}',
        snapshot_on_error=False,
        n_retains=-1,
        autoload=False,
    ):
        self._target = target
        self.filename = filename
        self.condition = _always_true if condition is None else condition
        self.writer = snapshot_writers.SimpleWriter() if writer is None else writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload

    def initialize(self, trainer):
        """Loads the newest snapshot in ``trainer.out`` if ``autoload``.

        Raises:
            ValueError: If the newest snapshot cannot be loaded (a truncated
                or corrupt file, or one of another model); the target is
                left as it was. The error is also of the type of the load's
                own error, which Chainer 7.8.1 raises (``BadZipFile``,
                ``EOFError``, ``UnpicklingError``, ``KeyError``...), where
                Python can join that class with ``ValueError``.

        """
        if (
            not self.autoload
            or not isinstance(self.filename, str)
            or not os.path.isdir(trainer.out)
        ):
            return
        name = _find_latest_snapshot(self.filename, trainer.out)
        if name is None:
            return
        path = os.path.join(trainer.out, name)
        target = trainer if self._target is None else self._target
        try:
            npz.load_npz(path, target)
        except Exception as e:
            raise _load_error(
                e,
                'snapshot: cannot load the snapshot {!r} ({}: {}); nothing '
                'was loaded. Remove or replace the file to start '
                'anew.'.format(path, type(e).__name__, e),
            ) from e

    def on_error(self, trainer, exc, tb):
        """Takes a snapshot if ``snapshot_on_error``."""
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        """Takes a snapshot if the condition holds."""
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        state = _capture(target)
        filename = self.filename
        if callable(filename):
            filename = filename(trainer)
        else:
            filename = filename.format(trainer)
        self.writer(filename, trainer.out, state)
        if (
            self.n_retains > 0
            and isinstance(self.filename, str)
            and os.path.isdir(trainer.out)
        ):
            for name in _find_stale_snapshots(
                self.filename, trainer.out, self.n_retains
            ):
                os.remove(os.path.join(trainer.out, name))

    def finalize(self):
        """Finalizes the writer (waits for pending writes)."""
        if hasattr(self.writer, 'finalize'):
            self.writer.finalize()


def _writer(savefun, writer):
    if savefun is not None and writer is not None:
        raise TypeError('snapshot: give savefun or writer, not both')
    if savefun is not None:
        return snapshot_writers.SimpleWriter(savefun=savefun)
    return writer


def snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}', **kwargs):
    """Returns an extension that takes snapshots of the trainer.

    The whole state of the training (updater with its iterators, optimizers
    and models, stop trigger, extensions and their triggers) is captured
    and written to ``trainer.out/filename``, by default once per epoch
    with priority -100, after the other built-in extensions have run at
    that iteration (their state is in the snapshot). A file is
    written under a temporary name and renamed into place, so that the
    newest snapshot is never a partial file.

    Args:
        savefun (callable): ``savefun(path, state)`` writes a file
            (:func:`~chainerlite.serializers.save_npz` by default). Not
            together with ``writer``.
        filename (str or callable): Name of the file: a format string given
            the trainer (``'snapshot_iter_{.updater.iteration}'``), or a
            function of the trainer.
        target: The object to save instead of the trainer.
        condition (callable): A snapshot is taken only when ``condition()``
            returns True.
        writer: A writer from
            :mod:`~chainerlite.training.extensions.snapshot_writers`
            (:class:`SimpleWriter` by default).
        snapshot_on_error (bool): Also take a snapshot when the training
            loop fails.
        n_retains (int): Keep only the newest ``n_retains`` snapshots
            (all of them when not positive). Only with a string
            ``filename``. ``num_retain`` is its deprecated name.
        autoload (bool): When the training starts, load the newest
            snapshot found in ``trainer.out``. Only with a string
            ``filename``.

    Returns:
        The snapshot extension.

    Raises:
        TypeError: If both ``savefun`` and ``writer`` are given, or an
            unknown keyword argument is.

    """
    return _make(kwargs.pop('target', None), filename, savefun, **kwargs)


def snapshot_object(target, filename, savefun=None, **kwargs):
    """Returns an extension that takes snapshots of ``target``.

    Args:
        target: The object to save (e.g. a model).
        filename (str or callable): Name of the file (see :func:`snapshot`).
        savefun (callable): The saving function. Not together with
            ``writer``.
        **kwargs: ``condition``, ``writer``, ``snapshot_on_error``,
            ``n_retains`` and ``autoload``, as in :func:`snapshot`.

    Returns:
        The snapshot extension.

    """
    return _make(target, filename, savefun, **kwargs)


def _make(target, filename, savefun, **kwargs):
    if 'num_retain' in kwargs:
        warnings.warn(
            'snapshot: the num_retain argument is deprecated; use n_retains',
            DeprecationWarning,
        )
        kwargs['n_retains'] = kwargs.pop('num_retain')
    writer, condition, snapshot_on_error, n_retains, autoload = argument.parse_kwargs(
        kwargs,
        ('writer', None),
        ('condition', None),
        ('snapshot_on_error', False),
        ('n_retains', -1),
        ('autoload', False),
    )
    return _Snapshot(
        target=target,
        writer=_writer(savefun, writer),
        filename=filename,
        condition=condition,
        snapshot_on_error=snapshot_on_error,
        n_retains=n_retains,
        autoload=autoload,
    )
