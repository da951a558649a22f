"""Turning an image into the input array of a pre-trained vision model.

Pillow is optional. With it, images are resized by Pillow exactly as
Chainer does (``Image.resize`` with Pillow's default filter), and PIL images
are accepted. Without it, NumPy arrays are still accepted and resized by
bilinear interpolation here; a PIL image then raises ImportError.
"""

import numpy

import chainerlite

try:
    from PIL import Image
except ImportError:
    Image = None  # type: ignore[assignment, unused-ignore]

#: Whether Pillow can be imported (Chainer's ``available`` flag).
available = Image is not None


def prepare_for(mean, models, module):
    """Returns the ``prepare(image, size=(224, 224))`` of a family of models.

    Args:
        mean (tuple of 3 floats): The BGR mean the models were trained with.
        models (str): The models' name, for the docstring.
        module (str): The module the function belongs to.

    """

    def prepare(image, size=(224, 224)):
        return convert(image, size, mean, 'prepare')

    prepare.__module__ = module
    prepare.__qualname__ = 'prepare'
    prepare.__doc__ = """Converts an image into an input array of the {} models.

    The image is resized, turned from RGB to BGR, the mean the models were
    trained with ({} in BGR order) is subtracted, and the axes become
    ``(channels, height, width)``, as the models expect.

    Args:
        image (PIL.Image or numpy.ndarray): An RGB or grayscale image; an
            array has shape ``(height, width)``, ``(height, width,
            channels)`` or ``(channels, height, width)``.
        size (pair of ints): ``(width, height)`` after resizing (Pillow's
            order); ``None`` keeps the size.

    Returns:
        numpy.ndarray: Shape ``(3, height, width)``, of the default dtype.

    """.format(models, ', '.join(map(str, mean)))
    return prepare


def convert(image, size, mean, caller):
    """Returns ``image`` as a BGR, mean-subtracted ``(3, h, w)`` array.

    Args:
        image (PIL.Image or numpy.ndarray): An RGB or grayscale image; an
            array of shape ``(h, w)``, ``(h, w, channels)`` or
            ``(channels, h, w)`` (channels first when the first axis has 1
            or 3 entries). Its values are cast to uint8, as Pillow takes
            them.
        size (pair of ints or None): ``(width, height)`` after resizing,
            the order Pillow's ``resize`` takes; ``None`` keeps the size.
        mean (sequence of 3 floats): The per-channel mean, in BGR order.
        caller (str): Name used in error messages.

    Returns:
        numpy.ndarray: Shape ``(3, height, width)``, of the default dtype
        (``chainerlite.get_dtype()``).

    """
    rgb = _rgb_uint8(image, caller)
    if size is not None:
        rgb = _resize(rgb, tuple(size))
    dtype = chainerlite.get_dtype()
    bgr = rgb[:, :, ::-1].astype(dtype)
    bgr -= numpy.asarray(mean, dtype=dtype)
    return numpy.ascontiguousarray(bgr.transpose(2, 0, 1))


def _rgb_uint8(image, caller):
    # An (h, w, 3) uint8 RGB array from any accepted image.
    if not isinstance(image, numpy.ndarray):
        if Image is None:
            raise ImportError(
                '{}: the image is a {}, not a numpy.ndarray; images other '
                'than arrays need Pillow, which cannot be imported (pip '
                'install Pillow)'.format(caller, type(image).__name__)
            )
        if not isinstance(image, Image.Image):
            raise TypeError(
                '{}: an image must be a PIL.Image or a numpy.ndarray, not {}'.format(
                    caller, type(image).__name__
                )
            )
        return numpy.asarray(image.convert('RGB'))
    if image.ndim == 3 and image.shape[0] in (1, 3):
        image = image.transpose(1, 2, 0)
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 2:
        image = numpy.stack((image,) * 3, axis=2)
    elif image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ValueError(
            '{}: an image array must have shape (h, w), (h, w, channels) or '
            '(channels, h, w) with 1, 3 (or 4 last) channels, not {}'.format(
                caller, image.shape
            )
        )
    return image[:, :, :3].astype(numpy.uint8)


def _resize(rgb, size):
    width, height = size
    if Image is not None:
        return numpy.asarray(Image.fromarray(rgb).resize((width, height)))
    rows = _bilinear_weights(rgb.shape[0], height)
    cols = _bilinear_weights(rgb.shape[1], width)
    out = numpy.einsum('ih,hwc,jw->ijc', rows, rgb.astype(float), cols, optimize=True)
    return numpy.clip(numpy.rint(out), 0, 255).astype(numpy.uint8)


def _bilinear_weights(n_in, n_out):
    # (n_out, n_in) matrix of linear interpolation between pixel centres.
    centres = (numpy.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    centres = numpy.clip(centres, 0, n_in - 1)
    low = numpy.floor(centres).astype(int)
    high = numpy.minimum(low + 1, n_in - 1)
    frac = centres - low
    weights = numpy.zeros((n_out, n_in))
    rows = numpy.arange(n_out)
    numpy.add.at(weights, (rows, low), 1 - frac)
    numpy.add.at(weights, (rows, high), frac)
    return weights
