"""Region of interest max pooling with the ROI's image in the ROI."""

from __future__ import annotations

import numbers
import typing

import numpy

from chainerlite import backend
from chainerlite.functions import _axis_names
from chainerlite.functions.pooling import _roi
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ROIPooling2D(_roi.ROIPooling):
    """Region of interest max pooling (Fast R-CNN)."""

    reduce = 'max'
    empty = 0.0
    function_name = 'roi_pooling_2d'

    # Chainer's attributes of the node
    outh, outw = _axis_names.per_axis(lambda node: node.outsize, 'outh', 'outw')

    def __init__(self, outh, outw, spatial_scale):
        self.outsize = (_out_length(outh, 'outh'), _out_length(outw, 'outw'))
        # any real scale, as Chainer's (0 puts every box on pixel 0)
        self.spatial_scale = _roi.check_scale(
            spatial_scale, self.function_name, positive=False
        )

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'rois'))
        x_type, rois_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.dtype == rois_type.dtype,  # as Chainer's check wants
            rois_type.ndim == 2,
            rois_type.shape[1] == 5,
        )

    def geometry(self, rois, x_shape):
        rois = rois.astype(numpy.float64)
        # The ROI holds (x_min, y_min, x_max, y_max), its corners included;
        # the image index is truncated toward zero as Python's int does.
        _roi.finite_coordinates(rois[:, [1, 3, 2, 4, 0]], self.function_name)
        batch = rois[:, 0].astype(numpy.int64)
        corners = [rois[:, i] for i in (2, 1, 4, 3)]
        return _roi.pixel_bins(
            batch,
            corners,
            self.outsize,
            x_shape,
            self.spatial_scale,
            True,
            self.function_name,
        )


class ROIPooling2DGrad(_roi.ROIScatter):
    """Chainer's gradient node of :class:`ROIPooling2D`, applied to
    ``(rois, gy)``: each element of ``gy`` is added to the pixel of the
    feature map (of shape ``bottom_data_shape``) that ``argmax_data``
    names, the flat index ``y * width + x`` within the ROI's image and the
    element's channel (-1: none). It is :class:`ROIScatter` over the
    samples ``argmax_data`` gives, so its backward gathers again (where
    Chainer's raises). Its one output is the feature map's gradient
    (Chainer's node has a second, for the ROIs, that holds no array)."""

    def __init__(self, outh, outw, spatial_scale, bottom_data_shape, argmax_data):
        self.outh, self.outw = outh, outw
        self.spatial_scale = spatial_scale
        self._bottom_data_shape = bottom_data_shape
        self.argmax_data = argmax_data

    def forward(self, inputs):
        rois, gy = inputs
        xp = backend.get_array_module(gy)
        # one sample per channel, sample c being channel c's chosen pixel
        chosen = xp.asarray(self.argmax_data).transpose(0, 2, 3, 1)[..., None]
        found = chosen >= 0
        batch = rois[:, 0].astype(numpy.int64)
        index, weight = xp.maximum(chosen, 0), found * 1.0
        self.geometry = _roi.Geometry(batch, index, weight, found[..., 0], None)
        n_channels = gy.shape[1]
        channel = xp.arange(n_channels).reshape(1, n_channels, 1, 1)
        self.choice = xp.where(found[..., 0].transpose(0, 3, 1, 2), channel, -1)
        self.x_shape = tuple(self._bottom_data_shape)
        return super().forward((gy,))

    forward_cpu = forward_gpu = forward

    def backward(self, indexes, grad_outputs):
        (ggy,) = super().backward(indexes, grad_outputs)
        return tuple(ggy if i == 1 else None for i in indexes)


def _roi_pooling_slice(size, stride, max_size, roi_offset):
    """Chainer's helper: the slice of the pixels of bin ``size`` of stride
    ``stride`` (from its floor to its ceiling) shifted by ``roi_offset``
    and clipped to ``[0, max_size]``, and the slice's length."""
    start = min(max(int(numpy.floor(size * stride)) + roi_offset, 0), max_size)
    end = min(max(int(numpy.ceil((size + 1) * stride)) + roi_offset, 0), max_size)
    return slice(start, end), end - start


def _out_length(n, name):
    # Chainer leaves these unchecked: it fails dividing by a zero
    # (ZeroDivisionError) or looping over a float (TypeError)
    if not isinstance(n, numbers.Integral):
        raise TypeError('roi_pooling_2d: {} must be an int, not {!r}'.format(name, n))
    if n <= 0:
        error = _chainer_errors.ZeroError if n == 0 else ValueError
        raise error('roi_pooling_2d: {} must be positive, not {}'.format(name, n))
    return int(n)


def roi_pooling_2d(x: Variable | NdArray, rois, outh, outw, spatial_scale) -> Variable:
    """Spatial region of interest (ROI) pooling function.

    Each ROI, scaled by ``spatial_scale`` to feature map coordinates and
    rounded to whole pixels, is divided into ``outh x outw`` bins, and each
    bin gives the largest value of the feature map in it (the first NaN if
    it holds one; 0 for an empty bin).
    See `Fast R-CNN <https://arxiv.org/abs/1504.08083>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Feature maps of shape
            ``(n, c, h, w)``.
        rois (Variable or numpy.ndarray or cupy.ndarray): ROIs of shape
            ``(R, 5)``, each ``(batch_index, x_min, y_min, x_max, y_max)``
            in image coordinates with both corners inside the ROI, of a
            floating point dtype.
        outh (int): Height of the output.
        outw (int): Width of the output.
        spatial_scale (float): Scale from image to feature map coordinates.

    Returns:
        Variable: Output of shape ``(R, c, outh, outw)`` and ``x``'s dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape((1, 1, 4, 4))
        >>> rois = np.array([[0, 0, 0, 3, 3]], np.float32)
        >>> F.roi_pooling_2d(x, rois, 2, 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)

    """
    return ROIPooling2D(outh, outw, spatial_scale).apply((x, rois))[0]
