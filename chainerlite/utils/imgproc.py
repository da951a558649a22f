"""Image array helpers used by the pre-trained vision models."""

from chainerlite import backend


def oversample(images, crop_dims):
    """Takes ten crops of every image: four corners, centre, and mirrors.

    For each image of ``images`` it takes the crops at the top-left,
    top-right, bottom-left and bottom-right corners and at the centre,
    then the same five crops flipped left to right. The ten crops of one
    image are consecutive in the result.

    Args:
        images (numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, channels, height, width)``.
        crop_dims (pair of ints): ``(height, width)`` of the crops; neither
            may exceed the images' own.

    Returns:
        numpy.ndarray or cupy.ndarray: The crops, of shape
        ``(10 * n, channels) + crop_dims``, the dtype of ``images``.

    Raises:
        ValueError: If ``images`` is not 4-dimensional or a crop is larger
            than the images.

    """
    if images.ndim != 4:
        raise ValueError(
            'oversample: images must have shape (n, channels, height, '
            'width), not {}'.format(images.shape)
        )
    height, width = images.shape[2:]
    crop_h, crop_w = crop_dims
    if crop_h > height or crop_w > width:
        raise ValueError(
            'oversample: crop {} is larger than the images ({}, {})'.format(
                tuple(crop_dims), height, width
            )
        )
    tops = (0, 0, height - crop_h, height - crop_h, (height - crop_h) // 2)
    lefts = (0, width - crop_w, 0, width - crop_w, (width - crop_w) // 2)
    crops = [
        images[:, :, top : top + crop_h, left : left + crop_w]
        for top, left in zip(tops, lefts)
    ]
    crops += [crop[:, :, :, ::-1] for crop in crops]
    # stacked as (n, 10, ...): the crops of one image side by side
    stacked = backend.get_array_module(images).stack(crops, axis=1)
    return stacked.reshape((-1,) + stacked.shape[2:])
