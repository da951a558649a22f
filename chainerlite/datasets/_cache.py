"""Building a dataset's cache files from downloaded raw files, offline-aware.

Each loader keeps Chainer's layout: processed ``.npz`` files under
``ROOT/pfnet/chainer/<name>/`` (made from raw files downloaded once into
``ROOT/_dl_cache/``), so a cache made by Chainer is reused as is. When a
file is missing and cannot be downloaded, the error says which files to
place where.
"""

import hashlib
import os

import numpy

from chainerlite.dataset import download
from chainerlite.dataset._unavailable import DownloadUnavailable


def dataset_directory(name):
    return download.get_dataset_directory(os.path.join('pfnet', 'chainer', name))


def fetch(loader_name, url, cache_files, former=None):
    """Returns the path of the downloaded ``url`` (downloading it once).

    ``former`` is the URL Chainer downloaded the file from, where
    chainerlite downloads from another (a mirror): Chainer's cached copy
    of it is used when there is one.

    Raises:
        DownloadUnavailable: If it is not cached and cannot be downloaded
            (a ``URLError`` as in Chainer, also a ``RuntimeError``); the
            message names the processed cache files and the raw file path.

    """
    if former is not None:
        cached = _cached_path(former)
        if os.path.exists(cached):
            return cached
    try:
        return download.cached_download(url)
    except OSError as e:
        raw = _cached_path(url)
        raise DownloadUnavailable(
            '{}: the data are not cached and {} cannot be downloaded ({}). '
            'To use it offline, place {} (made by Chainer or chainerlite), '
            'or download {} yourself and save it as {}.'.format(
                loader_name, url, e, ' and '.join(cache_files), url, raw
            )
        ) from e


def _cached_path(url):
    # where cached_download keeps the file of url
    return os.path.join(
        download.get_dataset_root(),
        '_dl_cache',
        hashlib.md5(url.encode('utf-8')).hexdigest(),
    )


def _read_npz(path):
    # No pickles: a cache file is data, never code.
    with numpy.load(path, allow_pickle=False) as f:
        return {key: f[key] for key in f.files}


def load_npz(path, build):
    """Loads the npz cache ``path`` as a dict of arrays; builds it with
    ``build()`` (a dict of arrays) if it is missing."""

    def create(temp_path):
        arrays = build()
        with open(temp_path, 'wb') as f:
            numpy.savez_compressed(f, **arrays)
        return arrays

    return download.cache_or_load_file(path, create, _read_npz)


def scale_images(images, dtype, scale):
    """Casts uint8 images to ``dtype`` and maps 0..255 to 0..scale."""
    images = images.astype(dtype)
    images *= scale / 255.0
    return images
