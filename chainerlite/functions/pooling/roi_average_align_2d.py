"""Region of interest average align."""

from __future__ import annotations

import typing

import numpy

from chainerlite.functions.pooling import _roi

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ROIAverageAlign2D(_roi.AlignPooling):
    """Region of interest average align."""

    reduce = 'average'
    function_name = 'roi_average_align_2d'


def _get_bounds(p, limit):
    """Chainer's helper: for a sample coordinate ``p`` on an axis of
    ``limit`` pixels, ``(p, low, high)``, the coordinate clamped to the
    pixels and its two neighbouring pixels, or ``(None, None, None)`` for
    one outside ``[-1, limit]``."""
    if p < -1 or p > limit:
        return None, None, None
    low = min(int(numpy.floor(p)), limit - 1)
    if low <= -1:
        p = 0
    elif low + 1 >= limit:
        p = limit - 1
    return p, low, low + 1


def roi_average_align_2d(
    x: Variable | NdArray,
    rois,
    roi_indices,
    outsize,
    spatial_scale,
    sampling_ratio=None,
) -> Variable:
    """Spatial region of interest (ROI) average align function.

    Each ROI, scaled by ``spatial_scale`` to feature map coordinates
    without rounding, is divided into ``outh x outw`` bins; each bin samples
    the feature map by bilinear interpolation on a regular grid and gives
    the mean of the samples, a sample more than one pixel outside the map
    counting as 0. See `Mask R-CNN <https://arxiv.org/abs/1703.06870>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Feature maps of shape
            ``(n, c, h, w)``.
        rois (Variable or numpy.ndarray or cupy.ndarray): ROIs of shape
            ``(R, 4)``, each ``(y_min, x_min, y_max, x_max)`` in image
            coordinates, of a floating point dtype.
        roi_indices (Variable or numpy.ndarray or cupy.ndarray): Integer
            image index of each ROI, shape ``(R,)``.
        outsize (int or tuple of int): ``(outh, outw)``; an int for both.
        spatial_scale (float): Scale from image to feature map coordinates.
        sampling_ratio (int or tuple): Samples per bin along ``(y, x)``; an
            int for both; ``None`` (also per axis) uses ``ceil`` of the bin
            size.

    Returns:
        Variable: Output of shape ``(R, c, outh, outw)`` and ``x``'s dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape((1, 1, 4, 4))
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> F.roi_average_align_2d(
        ...     x, rois, np.array([0], np.int32), 2, 1.0, 2).array
        array([[[[ 5.  ,  6.75],
                 [12.  , 13.75]]]], dtype=float32)

    """
    return ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio).apply(
        (x, rois, roi_indices)
    )[0]
