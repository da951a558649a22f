"""Writing an output file so that readers never see it half-written.

A file is written under its own name inside a temporary directory of its
directory (``tmp<name>.chainerlite-<random>.part/<name>``, so that the
function that writes it sees the name it was given, extension included, as
in Chainer) and moved into place. The writer holds an exclusive ``flock``
on the temporary directory until the move, so that a process killed while
writing (SIGKILL, power loss of a container) leaves a temporary directory
that nobody holds: the next writer in that directory removes such stale
directories (and stale files of this form, which earlier versions wrote)
of earlier writes, and never the one of a writer still running (in this
process or another). Where ``fcntl`` is missing (Windows), nothing is
locked and stale directories are left.
"""

import os
import shutil
import tempfile
import types

fcntl: types.ModuleType | None
try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

_MARK = '.chainerlite-'
_SUFFIX = '.part'


def _is_temporary(name):
    return name.startswith('tmp') and _MARK in name and name.endswith(_SUFFIX)


def _same_file(fd, path):
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


def remove_stale(directory):
    """Removes the temporary directories (and files) in ``directory`` of
    writes that were interrupted (no writer holds their lock any more).

    Returns:
        list of str: The names of the removed entries.

    """
    if fcntl is None:
        return []
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        if not _is_temporary(name):
            continue
        path = os.path.join(directory, name)
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:  # gone already, or not ours to read
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # held now: its writer is dead; the name may have been reused
            # between our open and our lock
            if _same_file(fd, path):
                _remove(path)
                removed.append(name)
        except OSError:  # locked: a live writer's
            pass
        finally:
            os.close(fd)
    return removed


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        os.remove(path)


def _create_locked(directory, basename):
    # A temporary directory that this writer holds locked; retried when a
    # cleaner took a just-made one for a stale one before we locked it.
    while True:
        tmp_dir = tempfile.mkdtemp(
            prefix='tmp' + basename + _MARK, suffix=_SUFFIX, dir=directory
        )
        fd = os.open(tmp_dir, os.O_RDONLY)
        if fcntl is None:
            return fd, tmp_dir
        fcntl.flock(fd, fcntl.LOCK_EX)
        if _same_file(fd, tmp_dir):
            return fd, tmp_dir
        os.close(fd)


def write_file(path, write, sync=False):
    """Calls ``write(tmp_path)`` then moves the file to ``path``.

    ``tmp_path`` has the base name of ``path`` and lies in a temporary
    directory beside it (so the move is an atomic rename), which is
    removed afterwards, with anything else ``write`` left there, and
    stays locked until the move; stale temporary directories of
    interrupted writes in that directory are removed first. ``write`` must
    write the file at ``tmp_path``.

    Args:
        path (str): The file to write.
        write (callable): Writes the content to the path it is given.
        sync (bool): Flush the file to the disk before the rename.

    """
    directory = os.path.dirname(path) or '.'
    os.makedirs(directory, exist_ok=True)
    remove_stale(directory)
    fd, tmp_dir = _create_locked(directory, os.path.basename(path))
    try:
        tmp_path = os.path.join(tmp_dir, os.path.basename(path))
        write(tmp_path)
        if sync:
            with open(tmp_path, 'rb') as f:
                os.fsync(f.fileno())
        os.replace(tmp_path, path)
    finally:
        shutil.rmtree(tmp_dir, ignore_errors=True)
        os.close(fd)
