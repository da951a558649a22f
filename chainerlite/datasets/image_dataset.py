"""Datasets of image files, read with Pillow when an example is accessed."""
import os

import numpy

from chainerlite import configuration
from chainerlite.dataset import dataset_mixin

try:
    from PIL import Image
    available = True
    _import_error = None
except ImportError as e:
    available = False
    _import_error = e


def _check_pillow():
    if not available:
        raise RuntimeError(
            'image datasets need Pillow (pip install Pillow): {}'.format(
                _import_error))


def _read_image(path, dtype):
    with Image.open(path) as f:
        image = numpy.asarray(f, dtype=dtype)
    if image.ndim == 2:  # grey: one channel
        return image[numpy.newaxis]
    return image.transpose(2, 0, 1)


def _dtype(dtype):
    return numpy.dtype(configuration.config.dtype if dtype is None else dtype)


def _read_list(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


class ImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of image files; each example is a ``(C, H, W)`` array.

    Args:
        paths (str or list of str): A text file with one image path per
            line, or the list of paths.
        root (str): Folder the paths are relative to.
        dtype: Array dtype (``chainerlite.config.dtype`` when ``None``).

    Raises:
        RuntimeError: If Pillow is not installed.

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

    def get_example(self, i):
        path = os.path.join(self._root, self._paths[i])
        return _read_image(path, self._dtype)


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
        RuntimeError: If Pillow is not installed.

    """

    def __init__(self, pairs, root='.', dtype=None, label_dtype=numpy.int32):
        _check_pillow()
        if isinstance(pairs, str):
            path = pairs
            pairs = []
            for number, line in enumerate(_read_list(path), 1):
                columns = line.split()
                if len(columns) != 2:
                    raise ValueError(
                        'LabeledImageDataset: line {} of {} has {} columns, '
                        'not 2 (path label)'.format(
                            number, path, len(columns)))
                pairs.append((columns[0], int(columns[1])))
        self._pairs = pairs
        self._root = root
        self._dtype = _dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image(os.path.join(self._root, path), self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)
