"""Writing an output file so that readers never see it half-written.

A file is written under a temporary name in its directory
(``tmp<name>.chainerlite-<random>.part``) and renamed into place. The
writer holds an exclusive ``flock`` on its temporary file until the rename,
so that a process killed while writing (SIGKILL, power loss of a
container) leaves a temporary file that nobody holds: the next writer in
that directory removes such stale files of earlier writes, and never the
file of a writer still running (in this process or another). Where
``fcntl`` is missing (Windows), nothing is locked and stale files are
left.
"""

import os
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
    """Removes the temporary files in ``directory`` of writes that were
    interrupted (no writer holds their lock any more).

    Returns:
        list of str: The names of the removed files.

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
                os.remove(path)
                removed.append(name)
        except OSError:  # locked: a live writer's
            pass
        finally:
            os.close(fd)
    return removed


def _create_locked(directory, basename):
    # A temporary file that this writer holds locked; retried when a
    # cleaner took a just-created file for a stale one before we locked it.
    while True:
        fd, tmp_path = tempfile.mkstemp(
            prefix='tmp' + basename + _MARK, suffix=_SUFFIX, dir=directory
        )
        if fcntl is None:
            return fd, tmp_path
        fcntl.flock(fd, fcntl.LOCK_EX)
        if _same_file(fd, tmp_path):
            return fd, tmp_path
        os.close(fd)


def write_file(path, write, sync=False):
    """Calls ``write(tmp_path)`` then renames the file to ``path``.

    The temporary file is in the same directory (so the rename is atomic),
    is removed if ``write`` fails, and stays locked until the rename; stale
    temporary files of interrupted writes in that directory are removed
    first. ``write`` must write the file at ``tmp_path`` in place (open it
    for writing), not replace it.

    Args:
        path (str): The file to write.
        write (callable): Writes the content to the path it is given.
        sync (bool): Flush the file to the disk before the rename.

    """
    directory = os.path.dirname(path) or '.'
    os.makedirs(directory, exist_ok=True)
    remove_stale(directory)
    fd, tmp_path = _create_locked(directory, os.path.basename(path))
    try:
        write(tmp_path)
        if sync:
            with open(tmp_path, 'rb') as f:
                os.fsync(f.fileno())
        os.replace(tmp_path, path)
    except BaseException:
        if os.path.exists(tmp_path):
            os.remove(tmp_path)
        raise
    finally:
        os.close(fd)
