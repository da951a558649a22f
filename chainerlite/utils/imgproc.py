"""Image preprocessing helpers (``chainer.utils.imgproc``)."""

from chainerlite import backend


def oversample(images, crop_dims):
    """Ten crops of each image: the centre, the four corners and the
    mirror images of these five.

    Args:
        images (iterable of numpy.ndarray or cupy.ndarray): Images of
            shape ``(C, H, W)``, all of the same shape.
        crop_dims (tuple of int): ``(height, width)`` of a crop; at most the
            image size.

    Returns:
        numpy.ndarray or cupy.ndarray: Crops of shape ``(10 * len(images), C, height,
        width)``: for each image, the four corners (top-left, top-right,
        bottom-left, bottom-right), the centre, then their horizontal mirrors.

    """
    images = list(images)
    if not images:
        raise ValueError('oversample: no images given')
    channels, height, width = images[0].shape
    ch, cw = crop_dims
    if ch > height or cw > width:
        raise ValueError(
            'oversample: crop {} is larger than the images {}'.format(
                tuple(crop_dims), (height, width)
            )
        )
    offsets = [
        (0, 0),
        (0, width - cw),
        (height - ch, 0),
        (height - ch, width - cw),
        ((height - ch) // 2, (width - cw) // 2),
    ]
    xp = backend.get_array_module(images[0])
    crops = xp.empty((10 * len(images), channels, ch, cw), dtype=images[0].dtype)
    for n, image in enumerate(images):
        for k, (top, left) in enumerate(offsets):
            crop = image[:, top : top + ch, left : left + cw]
            crops[10 * n + k] = crop
            crops[10 * n + k + 5] = crop[:, :, ::-1]
    return crops
