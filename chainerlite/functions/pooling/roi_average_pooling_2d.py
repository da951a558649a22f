"""Region of interest average pooling."""

from __future__ import annotations

import typing

from chainerlite.functions.pooling import _roi

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ROIAveragePooling2D(_roi.PixelPooling):
    """Region of interest average pooling."""

    reduce = 'average'
    function_name = 'roi_average_pooling_2d'


def roi_average_pooling_2d(
    x: Variable | NdArray, rois, roi_indices, outsize, spatial_scale
) -> Variable:
    """Spatial region of interest (ROI) average pooling function.

    Each ROI, scaled by ``spatial_scale`` to feature map coordinates and
    rounded to whole pixels, is divided into ``outh x outw`` bins, and each
    bin gives the mean of the feature map over it (0 for an empty bin).

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

    Returns:
        Variable: Output of shape ``(R, c, outh, outw)`` and ``x``'s dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape((1, 1, 4, 4))
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> F.roi_average_pooling_2d(
        ...     x, rois, np.array([0], np.int32), 2, 1.0).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)

    """
    return ROIAveragePooling2D(outsize, spatial_scale).apply((x, rois, roi_indices))[0]
