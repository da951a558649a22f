"""Datasets of image files, read with Pillow when an example is accessed."""

import importlib.util
import io
import os
import threading
import zipfile

import numpy

from chainerlite import configuration
from chainerlite.dataset import dataset_mixin
from chainerlite.datasets import concatenated_dataset

# Pillow is imported when the first image is read (it is slow to import).
available = importlib.util.find_spec('PIL') is not None


def _check_pillow():
    if not available:
        raise ImportError(
            'image datasets need Pillow, which is not installed (pip install Pillow)'
        )


def _read_image(source, dtype):
    # source: a path or a binary file object
    _check_pillow()
    from PIL import Image

    with Image.open(source) as f:
        image = numpy.asarray(f, dtype=dtype)
    if image.ndim == 2:  # grey: one channel
        return image[numpy.newaxis]
    return image.transpose(2, 0, 1)


def _dtype(dtype):
    return numpy.dtype(configuration.config.dtype if dtype is None else dtype)


def _read_list(path):
    # every line, a blank one too, as Chainer reads these files: a blank
    # line is an empty path (the root folder, which cannot be read as an
    # image) or a pair of the wrong format
    with open(path) as f:
        return [line.strip() for line in f]


class ImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of image files; each example is a ``(C, H, W)`` array.

    Args:
        paths (str or list of str): A text file with one image path per
            line, or the list of paths.
        root (str): Folder the paths are relative to.
        dtype: Array dtype (``chainerlite.config.dtype`` when ``None``).

    Raises:
        ImportError: If Pillow is not installed.

    """

    def __init__(self, paths, root='.', dtype=None):
        _check_pillow()
        if isinstance(paths, str):
            paths = _read_list(paths)
        self._paths = paths
        self._root = root
        self._dtype = _dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def _source(self, path):
        return os.path.join(self._root, path)

    def get_example(self, i):
        return _read_image(self._source(self._paths[i]), self._dtype)


def _read_pairs(path):
    pairs = []
    for number, line in enumerate(_read_list(path), 1):
        columns = line.split()
        if len(columns) != 2:
            raise ValueError(
                'line {} of {} has {} columns, not 2 (path label)'.format(
                    number, path, len(columns)
                )
            )
        pairs.append((columns[0], int(columns[1])))
    return pairs


class LabeledImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of ``(image, label)`` pairs read from image files.

    Args:
        pairs (str or list of tuples): A text file whose lines are
            ``path label``, or a list of ``(path, label)``.
        root (str): Folder the paths are relative to.
        dtype: Image dtype (``chainerlite.config.dtype`` when ``None``).
        label_dtype: Label dtype.

    Raises:
        ValueError: If a line of the file does not have two columns.
        ImportError: If Pillow is not installed.

    """

    def __init__(self, pairs, root='.', dtype=None, label_dtype=numpy.int32):
        _check_pillow()
        if isinstance(pairs, str):
            pairs = _read_pairs(pairs)
        self._pairs = pairs
        self._root = root
        self._dtype = _dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def _source(self, path):
        return os.path.join(self._root, path)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image(self._source(path), self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class _ZipFile(object):
    # A zip archive opened by path, once per process (a forked worker
    # must not share the parent's file position) and after unpickling.

    def __init__(self, path):
        self.path = path
        self._open()

    def _open(self):
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._zf = zipfile.ZipFile(self.path)

    def names(self):
        return [n for n in self._zf.namelist() if not n.endswith('/')]

    def read(self, name):
        if self._pid != os.getpid():
            self._open()
        with self._lock:
            return self._zf.read(name)

    def __getstate__(self):
        return {'path': self.path}

    def __setstate__(self, state):
        self.path = state['path']
        self._open()


class ZippedImageDataset(ImageDataset):
    """Dataset of the image files in a zip archive (in archive order).

    Each example is a ``(C, H, W)`` array, as in :class:`ImageDataset`;
    reading one needs Pillow (an ``ImportError`` without it).

    Args:
        zipfilename (str): The archive.
        dtype: Array dtype (``chainerlite.config.dtype`` when ``None``).

    """

    def __init__(self, zipfilename, dtype=None):
        # (Pillow is needed when an image is read, not here: as in Chainer)
        self._zip = _ZipFile(zipfilename)
        self._paths = self._zip.names()
        self._root = '.'
        self._dtype = _dtype(dtype)

    def _source(self, name):
        return io.BytesIO(self._zip.read(name))

    def get_example(self, i_or_filename):
        """Reads an image by its index or by its name in the archive."""
        if isinstance(i_or_filename, str):
            return _read_image(self._source(i_or_filename), self._dtype)
        return super().get_example(i_or_filename)


class MultiZippedImageDataset(concatenated_dataset.ConcatenatedDataset):
    """The images of several zip archives, one archive after another.

    Args:
        zipfilenames (list of str): The archives.
        dtype: Array dtype (``chainerlite.config.dtype`` when ``None``).

    """

    def __init__(self, zipfilenames, dtype=None):
        super().__init__(*[ZippedImageDataset(name, dtype) for name in zipfilenames])


class LabeledZippedImageDataset(LabeledImageDataset):
    """Dataset of ``(image, label)`` pairs with the images in a zip archive.

    Args:
        zipfilename (str): The archive.
        labelfilename (str): A text file whose lines are ``path label``,
            the paths inside the archive.
        dtype: Image dtype (``chainerlite.config.dtype`` when ``None``).
        label_dtype: Label dtype.

    Raises:
        ValueError: If a line of the label file does not have two columns.

    """

    def __init__(self, zipfilename, labelfilename, dtype=None, label_dtype=numpy.int32):
        super().__init__(labelfilename, dtype=dtype, label_dtype=label_dtype)
        self._zip = _ZipFile(zipfilename)

    def _source(self, name):
        return io.BytesIO(self._zip.read(name))
