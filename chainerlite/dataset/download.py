"""Where datasets are cached, and downloading into that cache.

The dataset root is ``$CHAINER_DATASET_ROOT`` if set, else
``~/.chainer/dataset`` (Chainer's location, so caches Chainer made are
reused). Downloads are kept under ``ROOT/_dl_cache/<md5 of the URL>``;
loaders keep their processed files under ``ROOT/<dataset name>/``. A file
appears in the cache only when complete: it is written under a temporary
name and renamed into place.
"""

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile

try:
    import fcntl
except ImportError:  # Windows: the atomic rename alone keeps caches whole
    fcntl = None

_dataset_root = os.environ.get(
    'CHAINER_DATASET_ROOT', os.path.join(os.path.expanduser('~'), '.chainer', 'dataset')
)


def get_dataset_root():
    """Returns the root folder of the dataset cache."""
    return _dataset_root


def set_dataset_root(path):
    """Sets the root folder of the dataset cache (for this process).

    Args:
        path (str): The new root.

    """
    global _dataset_root
    _dataset_root = path


def get_dataset_directory(dataset_name, create_directory=True):
    """Returns the folder of a dataset under the root, creating it.

    Args:
        dataset_name (str): Path of the dataset's folder relative to the
            root, e.g. ``'pfnet/chainer/mnist'``.
        create_directory (bool): Create the folder if it does not exist.

    Returns:
        str: The folder's path.

    Raises:
        OSError: If the folder cannot be created.

    """
    path = os.path.join(get_dataset_root(), dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


@contextlib.contextmanager
def _cache_lock():
    # One writer at a time moves files into the cache, across processes.
    root = get_dataset_root()
    try:
        os.makedirs(root, exist_ok=True)
        lock = open(os.path.join(root, '_create_lock'), 'a')
    except OSError as e:
        raise RuntimeError(
            'cannot create the lock file in the dataset root {!r} (is it a '
            'folder?): {}'.format(root, e)
        )
    with lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def cache_or_load_file(path, creator, loader):
    """Loads a cached file, or creates it first.

    If ``path`` exists, returns ``loader(path)``. Otherwise calls
    ``creator(tmp_path)`` (a path of the same file name in a temporary
    folder), which writes the file and returns the loaded data, moves the
    file to ``path`` (creating its folder) and returns what ``creator``
    returned.
    If another process creates ``path`` meanwhile, its file is kept.

    Args:
        path (str): The cache file.
        creator (callable): ``creator(path)`` writes the file and returns
            its contents.
        loader (callable): ``loader(path)`` returns the file's contents.

    Returns:
        The contents.

    Raises:
        RuntimeError: If the dataset root cannot hold the lock file.

    """
    if os.path.exists(path):
        return loader(path)
    with _cache_lock():  # fail before a long creation, not after it
        pass
    return _create(path, creator)


def _create(path, creator):
    # creator(temp_path) writes the file in a private folder; it is then
    # moved into place unless another process got there first.
    temp_root = tempfile.mkdtemp()
    try:
        # the target's own name, as in Chainer: a creator that writes with
        # numpy.savez (which adds .npz to other names) writes this file
        temp_path = os.path.join(temp_root, os.path.basename(path))
        result = creator(temp_path)
        with _cache_lock():
            if not os.path.exists(path):
                _move_into_place(temp_path, path)
    finally:
        shutil.rmtree(temp_root)
    return result


def _move_into_place(source, path):
    # Copy next to the target, then rename: readers never see a part file.
    folder = os.path.dirname(path) or '.'
    os.makedirs(folder, exist_ok=True)
    fd, part = tempfile.mkstemp(dir=folder, prefix='.part-')
    os.close(fd)
    try:
        shutil.move(source, part)
        os.replace(part, path)
    except BaseException:
        if os.path.exists(part):
            os.remove(part)
        raise


def _urlretrieve():
    # Chainer fetched through six.moves; programs that patch that entry to
    # stay offline in their tests keep doing so.
    six = sys.modules.get('six')
    if six is not None:
        return six.moves.urllib.request.urlretrieve
    import urllib.request  # only when downloading (it is slow to import)

    return urllib.request.urlretrieve


def cached_download(url):
    """Downloads a file once and returns the path of the cached copy.

    The file is kept under ``ROOT/_dl_cache`` with the MD5 of the URL as
    its name; later calls return that path without downloading.

    Args:
        url (str): The URL.

    Returns:
        str: Path of the cached file.

    Raises:
        OSError: If the cache folder cannot be created (for instance a file
            has its name).

    """
    cache_root = os.path.join(get_dataset_root(), '_dl_cache')
    os.makedirs(cache_root, exist_ok=True)
    path = os.path.join(cache_root, hashlib.md5(url.encode('utf-8')).hexdigest())
    if os.path.exists(path):
        return path

    def fetch(temp_path):
        sys.stderr.write('Downloading from {}...\n'.format(url))
        _urlretrieve()(url, temp_path)

    _create(path, fetch)
    return path
