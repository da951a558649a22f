"""Region of interest max align."""

from __future__ import annotations

import typing

from chainerlite.functions.pooling import _roi

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ROIMaxAlign2D(_roi.AlignPooling):
    """Region of interest max align."""

    reduce = 'max'
    strict_max = True
    function_name = 'roi_max_align_2d'


def roi_max_align_2d(
    x: Variable | NdArray,
    rois,
    roi_indices,
    outsize,
    spatial_scale,
    sampling_ratio=None,
) -> Variable:
    """Spatial region of interest (ROI) max align function.

    Each ROI, scaled by ``spatial_scale`` to feature map coordinates
    without rounding, is divided into ``outh x outw`` bins; each bin samples
    the feature map by bilinear interpolation on a regular grid and gives
    the largest sample. A sample more than one pixel outside the map is
    skipped (a bin with no sample gives 0). See `Mask R-CNN
    <https://arxiv.org/abs/1703.06870>`_.

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
        >>> F.roi_max_align_2d(
        ...     x, rois, np.array([0], np.int32), 2, 1.0, 2).array
        array([[[[ 7.5,  9. ],
                 [13.5, 15. ]]]], dtype=float32)

    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio).apply(
        (x, rois, roi_indices)
    )[0]
