"""Shared machinery of the region-of-interest pooling functions.

Every ROI function reduces, for each ROI ``r`` and output cell ``(i, j)``, a
set of samples of the feature map of image ``batch[r]``. A sample is a
weighted sum of up to four pixels (one pixel with weight 1 for the integer
bins of ROI pooling, the four bilinear neighbours for ROI Align), so the
geometry is held as arrays over ``(r, i, j, k, corner)``: ``index`` (the flat
pixel index ``y * W + x``) and ``weight`` (0 for a missing sample or
corner; a corner of weight 0 is skipped, so a NaN or infinite pixel it
names does not reach the result). Samples are reduced either by their
maximum or by a weighted sum, computed in float64 and cast to ``x``'s dtype.

Once the maximal sample of each output element is chosen, the output is a
fixed linear function of ``x``; :class:`ROIGather` applies it and
:class:`ROIScatter` (its adjoint) gives the gradient, each being the
other's backward, so the functions are differentiable twice.
"""

import numbers

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.backends import cuda
from chainerlite.functions.array import get_item
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check


def pair(value, name):
    """Returns ``value`` as a pair of positive ints (an int gives ``(v, v)``);
    :class:`TypeError` otherwise, as Chainer's ROI functions raise."""
    if isinstance(value, numbers.Integral):
        value = (value, value)
    try:
        first, second = value
    except (TypeError, ValueError):
        first = second = None
    if not all(isinstance(v, numbers.Integral) and v > 0 for v in (first, second)):
        raise TypeError(
            '{} must be a positive int or a pair of them, not {!r}'.format(name, value)
        )
    return int(first), int(second)


def check_input_types(in_types, coords):
    """Checks ``(x, rois, roi_indices)`` of the ROI functions: ``rois``
    of the dtype of ``x``, as Chainer's checks want."""
    type_check._argname(in_types, ('x', 'rois', 'roi_indices'))
    x_type, rois_type, indices_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim == 4,
        x_type.dtype == rois_type.dtype,
        rois_type.ndim == 2,
        rois_type.shape[1] == coords,
        indices_type.dtype.kind == 'i',
        indices_type.ndim == 1,
        rois_type.shape[0] == indices_type.shape[0],
    )


class Geometry(object):
    """Samples of every output cell: ``index``, ``weight``, ``batch``.

    Args:
        batch (array): Image of each ROI, shape ``(R,)``.
        index (array): Flat pixel indices, shape ``(R, oh, ow, K, P)``
            (``P``: 4 bilinear corners, or 1 for whole pixels).
        weight (array): Weights, of the same shape (0 where unused).
        valid (array): Which samples exist, shape ``(R, oh, ow, K)``.
        count (array): Divisor of the average of each cell, ``(R, oh, ow)``.

    """

    def __init__(self, batch, index, weight, valid, count):
        self.batch = batch
        self.index = index
        self.weight = weight
        self.valid = valid
        self.count = count

    def to(self, xp):
        return Geometry(
            *[
                xp.asarray(a)
                for a in (self.batch, self.index, self.weight, self.valid, self.count)
            ]
        )


def bin_edges(start, length, n_bins, size):
    """Integer bins ``[lo, hi)`` of ROI pooling, clipped to ``[0, size)``.

    Args:
        start (array): First pixel of each ROI, shape ``(R,)``.
        length (array): Extent of each ROI in pixels, shape ``(R,)``.
        n_bins (int): Number of bins.
        size (int): Size of the feature map along the axis.

    Returns:
        tuple of arrays: ``lo`` and ``hi``, each of shape ``(R, n_bins)``.

    """
    step = length[:, None] / float(n_bins)
    p = numpy.arange(n_bins)[None, :]
    lo = numpy.floor(p * step).astype(numpy.int64) + start[:, None]
    hi = numpy.ceil((p + 1) * step).astype(numpy.int64) + start[:, None]
    return numpy.clip(lo, 0, size), numpy.clip(hi, 0, size)


def integer_bins(batch, y_lo, y_hi, x_lo, x_hi, width):
    """Geometry of bins covering whole pixels (one corner per sample, so
    the corner axis has length 1)."""
    n_rois, outh = y_lo.shape
    outw = x_lo.shape[1]
    bin_h = int(max((y_hi - y_lo).max(initial=0), 1))
    bin_w = int(max((x_hi - x_lo).max(initial=0), 1))
    dy = numpy.arange(bin_h)[:, None]
    dx = numpy.arange(bin_w)[None, :]
    ys = y_lo[:, :, None, None, None] + dy  # (R, oh, 1, bh, 1)
    xs = x_lo[:, None, :, None, None] + dx  # (R, 1, ow, 1, bw)
    valid = (ys < y_hi[:, :, None, None, None]) & (xs < x_hi[:, None, :, None, None])
    shape = (n_rois, outh, outw, bin_h * bin_w)
    valid = valid.reshape(shape)
    flat = numpy.broadcast_to(ys * width + xs, valid.shape[:3] + (bin_h, bin_w))
    index = (flat.reshape(shape) * valid)[..., None]
    weight = valid[..., None].astype(numpy.float64)
    return Geometry(batch, index, weight, valid, valid.sum(axis=3))


def bilinear_samples(
    batch, y_start, x_start, bin_h, bin_w, outsize, grid, size, picks=None
):
    """Geometry of ROI Align: a grid of bilinear samples per bin.

    Args:
        batch (array): Image of each ROI, shape ``(R,)``.
        y_start, x_start (array): Top left corner of each ROI, in feature
            map coordinates.
        bin_h, bin_w (array): Bin size of each ROI.
        outsize (tuple of int): ``(outh, outw)``.
        grid (tuple of array): Samples per bin along each axis, per ROI.
        size (tuple of int): ``(H, W)`` of the feature map.
        picks (tuple): ``None`` for every sample, or ``((iy, y_used), (ix,
            x_used))``: the sample numbers to take along each axis, of shape
            ``(R, outh, m)`` and ``(R, outw, n)``, in increasing order.

    """
    n_rois = len(batch)
    outh, outw = outsize
    height, width = size
    grid_h, grid_w = grid
    if picks is None:
        iy = numpy.arange(int(grid_h.max(initial=1)))[None, None, :]
        ix = numpy.arange(int(grid_w.max(initial=1)))[None, None, :]
        picks = (iy, iy < grid_h[:, None, None]), (ix, ix < grid_w[:, None, None])
    (iy, y_used), (ix, x_used) = picks
    ys = _coordinate(y_start, bin_h, grid_h, numpy.arange(outh)[None, :, None], iy)
    xs = _coordinate(x_start, bin_w, grid_w, numpy.arange(outw)[None, :, None], ix)
    gh, gw = ys.shape[2], xs.shape[2]
    y0, y1, wy0, wy1, y_in = _linear_neighbours(ys, height)
    x0, x1, wx0, wx1, x_in = _linear_neighbours(xs, width)

    def grid_of(a, b):  # (R, oh, gh), (R, ow, gw) -> (R, oh, ow, gh * gw)
        out = a[:, :, None, :, None] * b[:, None, :, None, :]
        return out.reshape((n_rois, outh, outw, gh * gw))

    valid = grid_of(y_in & y_used, x_in & x_used).astype(bool)
    corners = [
        (y0, wy0, x0, wx0),
        (y0, wy0, x1, wx1),
        (y1, wy1, x0, wx0),
        (y1, wy1, x1, wx1),
    ]
    index = numpy.stack(
        [
            grid_of(yc * width, numpy.ones_like(xc)) + grid_of(numpy.ones_like(yc), xc)
            for yc, _, xc, _ in corners
        ],
        axis=-1,
    )
    weight = numpy.stack([grid_of(wy, wx) for _, wy, _, wx in corners], axis=-1)
    weight *= valid[..., None]
    index *= valid[..., None]
    # Samples outside the map count as zeros in the average.
    count = numpy.broadcast_to((grid_h * grid_w)[:, None, None], (n_rois, outh, outw))
    return Geometry(batch, index.astype(numpy.int64), weight, valid, count)


def _coordinate(start, bin_size, grid, p, i):
    # Coordinate of sample i of bin p, shape (R, bins, samples).
    return (
        start[:, None, None]
        + p * bin_size[:, None, None]
        + (i + 0.5) * bin_size[:, None, None] / grid[:, None, None]
    )


def _first_sample(start, bin_size, grid, p, bound, strict=False):
    # Smallest sample number whose coordinate is >= bound (> if strict), or
    # grid where none is, by bisection: coordinates grow with the number.
    lo = numpy.zeros(numpy.broadcast(start[:, None, None], p, bound).shape, numpy.int64)
    hi = numpy.broadcast_to(grid[:, None, None], lo.shape).copy()
    while (lo < hi).any():
        mid = lo + (hi - lo) // 2
        c = _coordinate(start, bin_size, grid, p, mid)
        above = c > bound if strict else c >= bound
        open_ = lo < hi
        hi = numpy.where(open_ & above, mid, hi)
        lo = numpy.where(open_ & ~above, mid + 1, lo)
    return lo


def extreme_samples(start, bin_size, grid, n_bins, size):
    """First and last sample of each pixel cell along one axis.

    The bilinear sample is linear (or constant where clamped) along each
    axis inside one cell of pixels, so the largest sample of a bin, and the
    first one among equals, is among the first and last samples of each
    cell it meets. They are found in time independent of ``grid``.

    Returns:
        tuple: ``(i, used)`` of shape ``(R, n_bins, 2 * cells)``, for
        :func:`bilinear_samples`'s ``picks``.

    """
    p = numpy.arange(n_bins)[None, :, None]
    full = numpy.zeros((len(start), n_bins, 1))
    first = _first_sample(start, bin_size, grid, p, full - 1.0)
    end = _first_sample(start, bin_size, grid, p, full + size, strict=True)
    nonempty = first < end

    def cell(i):
        i = numpy.minimum(i, grid[:, None, None] - 1)
        c = numpy.floor(numpy.maximum(_coordinate(start, bin_size, grid, p, i), 0.0))
        return numpy.minimum(c, size - 1).astype(numpy.int64)

    c_first = cell(first)
    spans = numpy.where(nonempty, cell(end - 1) - c_first + 1, 1)
    k = c_first + numpy.arange(int(spans.max(initial=1)))[None, None, :]
    # Cell 0 also holds the clamped coordinates in [-1, 0).
    bound = numpy.where(k == 0, -1.0, k)
    lo = numpy.maximum(first, _first_sample(start, bin_size, grid, p, bound))
    upper = _first_sample(start, bin_size, grid, p, (k + 1).astype(float))
    hi = numpy.where(k >= size - 1, end, numpy.minimum(end, upper))
    exists = nonempty & (k <= size - 1) & (lo < hi)
    i = numpy.stack([lo, hi - 1], axis=-1).reshape(lo.shape[:2] + (-1,))
    used = numpy.stack([exists, exists & (hi - 1 > lo)], axis=-1)
    i = numpy.where(used.reshape(i.shape), i, 0)
    return i, used.reshape(i.shape)


def _linear_neighbours(p, size):
    # The two pixels around each coordinate and their linear weights. A
    # coordinate more than one pixel outside the map is not sampled; one in
    # [-1, 0) reads row 0, one past size - 1 reads row size - 1. A corner
    # outside the map gets weight 0.
    inside = (p >= -1.0) & (p <= size)
    lo = numpy.floor(p)
    lo = numpy.where(lo == size, size - 1.0, lo)
    hi = lo + 1.0
    p = numpy.where(lo <= -1.0, 0.0, numpy.where(hi >= size, size - 1.0, p))
    w_lo = numpy.where(lo >= 0.0, hi - p, 0.0)
    w_hi = numpy.where(hi <= size - 1.0, p - lo, 0.0)
    lo = numpy.clip(lo, 0, max(size - 1, 0)).astype(numpy.int64)
    hi = numpy.clip(hi, 0, max(size - 1, 0)).astype(numpy.int64)
    return lo, hi, w_lo, w_hi, inside


def _terms(x_flat, batch, index, weight):
    # Corner terms x * weight in float64, 0 where the weight is 0 (so that a
    # NaN or infinite pixel of a skipped corner stays out).
    xp = backend.get_array_module(x_flat)
    gathered = x_flat[batch, :, index].astype(numpy.float64)  # (..., P, C)
    w = weight[..., None]
    return xp.where(w > 0, gathered, 0.0) * w


def sample_values(x_flat, geometry, k):
    """Values of sample ``k`` of every output element in float64, shape
    ``(R, C, oh, ow)``: the corner terms added in corner order."""
    b = geometry.batch[:, None, None, None]
    terms = _terms(x_flat, b, geometry.index[:, :, :, k], geometry.weight[:, :, :, k])
    values = terms[:, :, :, 0]
    for corner in range(1, terms.shape[3]):
        values = values + terms[:, :, :, corner]
    return values.transpose(0, 3, 1, 2)


def choose_max(x_flat, geometry, strict):
    """Index of the largest valid sample of each output element.

    Args:
        x_flat (array): Feature map of shape ``(N, C, H * W)``.
        geometry (Geometry): Samples of every output cell.
        strict (bool): ``False``: as NumPy's ``argmax`` over the valid
            samples (the first NaN, else the first of the largest).
            ``True``: the first sample larger than every one before it and
            than ``-inf``, so that NaN and ``-inf`` samples are never chosen.

    Returns:
        array: Shape ``(R, C, oh, ow)``; -1 where none is chosen.

    """
    xp = backend.get_array_module(x_flat)
    n_rois, outh, outw, n_samples = geometry.valid.shape
    shape = (n_rois, x_flat.shape[1], outh, outw)
    best = xp.full(shape, -numpy.inf)
    choice = xp.full(shape, -1, numpy.int64)
    for k in range(n_samples):
        values = sample_values(x_flat, geometry, k)
        better = values > best
        if not strict:
            better |= (choice < 0) | (xp.isnan(values) & ~xp.isnan(best))
        better &= geometry.valid[:, None, :, :, k]
        best = xp.where(better, values, best)
        choice = xp.where(better, k, choice)
    return choice


def _coefficients(geometry, choice, n_channels):
    # Pixel indices, weights (float64) and divisor of the linear map, shape
    # (R, C, oh, ow, K', P) and (R, C, oh, ow): for max pooling the chosen
    # sample only (K' = 1, divisor 1), for averaging every sample and the
    # count of the cell.
    xp = backend.get_array_module(geometry.index)
    shape = (geometry.index.shape[0], n_channels) + geometry.index.shape[1:]
    if choice is None:
        index = xp.broadcast_to(geometry.index[:, None], shape)
        weight = xp.broadcast_to(geometry.weight[:, None], shape)
        divisor = xp.maximum(geometry.count, 1)[:, None].astype(numpy.float64)
        return index, weight, divisor
    found = choice >= 0
    k = xp.maximum(choice, 0)[..., None, None]
    index = xp.take_along_axis(geometry.index[:, None], k, axis=4)
    weight = xp.take_along_axis(geometry.weight[:, None], k, axis=4)
    weight = weight * found[..., None, None]
    return index, weight, 1.0


class ROIGather(function_node.FunctionNode):
    """Applies the linear map from a feature map to the pooled output."""

    def __init__(self, geometry, choice, x_shape):
        self.geometry = geometry
        self.choice = choice
        self.x_shape = x_shape

    def forward(self, inputs):
        (x,) = inputs
        index, weight, divisor = _coefficients(self.geometry, self.choice, x.shape[1])
        xp = backend.get_array_module(x)
        x_flat = x.reshape(x.shape[:2] + (-1,))
        b = self.geometry.batch[:, None, None, None, None, None]
        c = xp.arange(x.shape[1])[None, :, None, None, None, None]
        terms = xp.where(weight > 0, x_flat[b, c, index], 0.0) * weight
        y = terms.sum(axis=(4, 5)) / divisor
        return (y.astype(x.dtype),)

    def backward(self, indexes, grad_outputs):
        return ROIScatter(self.geometry, self.choice, self.x_shape).apply(grad_outputs)


class ROIScatter(function_node.FunctionNode):
    """Adjoint of :class:`ROIGather`: the gradient of the feature map."""

    def __init__(self, geometry, choice, x_shape):
        self.geometry = geometry
        self.choice = choice
        self.x_shape = x_shape

    def forward(self, inputs):
        (gy,) = inputs
        xp = backend.get_array_module(gy)
        n, c, h, w = self.x_shape
        index, weight, divisor = _coefficients(self.geometry, self.choice, c)
        gx = xp.zeros((n, c, h * w))
        b = self.geometry.batch[:, None, None, None, None, None]
        ch = xp.arange(c)[None, :, None, None, None, None]
        scaled = (gy / divisor)[..., None, None]
        values = xp.where(weight > 0, scaled, 0.0) * weight
        b, ch, index, values = xp.broadcast_arrays(b, ch, index, values)
        get_item.add_at(gx, (b.ravel(), ch.ravel(), index.ravel()), values.ravel())
        return (gx.reshape(self.x_shape).astype(gy.dtype),)

    def backward(self, indexes, grad_outputs):
        return ROIGather(self.geometry, self.choice, self.x_shape).apply(grad_outputs)


class ROIPooling(function_node.FunctionNode):
    """Base of the ROI functions: reduces the samples of each output cell.

    Subclasses set ``reduce`` (``'max'`` or ``'average'``), ``strict_max``
    (see :func:`choose_max`), ``empty`` (the value of a max cell without a
    chosen sample) and ``function_name``, and implement
    ``geometry(*rois_arrays, x_shape)``, given the inputs after ``x`` as
    NumPy arrays, returning a :class:`Geometry` of NumPy arrays.
    """

    reduce = None
    strict_max = False
    empty = -numpy.inf

    def _geometry(self, rois_arrays, x_shape, xp):
        host = [cuda.to_cpu(a) for a in rois_arrays]
        geometry = self.geometry(*host, x_shape=x_shape)
        geometry.batch = image_indices(
            geometry.batch, geometry.valid, x_shape[0], self.function_name
        )
        return geometry.to(xp)

    def forward(self, inputs):
        # as Chainer's: the ROI arrays are retained and backward rebuilds the
        # geometry from them; only the choice of the max variants is kept
        self.retain_inputs(tuple(range(1, len(inputs))))
        x = inputs[0]
        xp = backend.get_array_module(x)
        geometry = self._geometry(inputs[1:], x.shape, xp)
        self._choice = None
        if self.reduce == 'max':
            x_flat = x.reshape(x.shape[:2] + (-1,))
            self._choice = choose_max(x_flat, geometry, self.strict_max)
        (y,) = ROIGather(geometry, self._choice, x.shape).forward((x,))
        if self._choice is not None and self.empty != 0:
            y = xp.where(self._choice < 0, y.dtype.type(self.empty), y)
        return (y,)

    def backward(self, indexes, grad_outputs):
        rois = [v.array for v in self.get_retained_inputs()]
        x_shape = self.inputs[0].shape
        xp = backend.get_array_module(grad_outputs[0].array)
        geometry = self._geometry(rois, x_shape, xp)
        (gx,) = ROIScatter(geometry, self._choice, x_shape).apply(grad_outputs)
        return (gx,) + (None,) * len(rois)


def image_indices(batch, valid, n_images, name):
    """The image of each ROI as an index into ``x`` (negative ones count from
    the end, as Python's); :class:`IndexError` for one outside ``x`` that has
    a sample, 0 for one without any."""
    batch = numpy.asarray(batch, numpy.int64)
    outside = (batch >= n_images) | (batch < -n_images)
    used = valid.reshape(len(batch), -1).any(axis=1)
    if (outside & used).any():
        bad = int(batch[outside & used][0])
        raise IndexError(
            '{}: image index {} of a ROI is out of range for {} images'.format(
                name, bad, n_images
            )
        )
    return numpy.where(outside, 0, batch % max(n_images, 1))


def finite_coordinates(values, name):
    """Rejects a NaN or infinite ROI coordinate, as Python's ``int`` does:
    :class:`ValueError` for NaN, one that is also an :class:`OverflowError`
    for infinity (the first in ROI order decides)."""
    bad = ~numpy.isfinite(values)
    if bad.any():
        first = values.ravel()[numpy.flatnonzero(bad.ravel())[0]]
        error = ValueError if numpy.isnan(first) else _chainer_errors.OverflowValueError
        raise error(
            '{}: a ROI coordinate is {} in feature map coordinates'.format(name, first)
        )


def check_scale(spatial_scale, function_name, positive=True):
    """Rejects a spatial scale that is not a real number, or (``positive``)
    not above 0, with :class:`TypeError` as Chainer does."""
    if not isinstance(spatial_scale, numbers.Real) or (
        positive and not spatial_scale > 0
    ):
        raise TypeError(
            '{}: spatial_scale must be a {}real number, not {!r}'.format(
                function_name, 'positive ' if positive else '', spatial_scale
            )
        )
    return float(spatial_scale)


def pixel_bins(batch, corners, outsize, x_shape, scale, inclusive, name):
    """Geometry of ROI max/average pooling over whole pixels.

    Args:
        batch (numpy.ndarray): Image of each ROI.
        corners (tuple of numpy.ndarray): ``(y_min, x_min, y_max, x_max)``
            of each ROI in input image coordinates, float64.
        outsize (tuple of int): ``(outh, outw)``.
        x_shape (tuple of int): Shape of the feature map.
        scale (float): Spatial scale from image to feature map coordinates.
        inclusive (bool): Whether ``y_max`` and ``x_max`` are pixels of the
            ROI (the original ROI pooling) or its end.
        name (str): The public function, for errors.

    Corners are scaled in float64 and rounded half to even, as Chainer does.
    """
    scaled = numpy.stack([c * scale for c in corners], axis=1)
    finite_coordinates(scaled, name)
    y_min, x_min, y_max, x_max = numpy.rint(scaled).astype(numpy.int64).T
    extra = 1 if inclusive else 0
    height = numpy.maximum(y_max - y_min + extra, 1)
    width = numpy.maximum(x_max - x_min + extra, 1)
    y_lo, y_hi = bin_edges(y_min, height, outsize[0], x_shape[2])
    x_lo, x_hi = bin_edges(x_min, width, outsize[1], x_shape[3])
    return integer_bins(batch, y_lo, y_hi, x_lo, x_hi, x_shape[3])


def sampling_grid(sampling_ratio, roi_size, n_bins):
    """Samples per bin along one axis: given, or ``ceil(roi / bins)``."""
    if sampling_ratio is None:
        return numpy.ceil(roi_size / n_bins).astype(numpy.int64)
    return numpy.full(roi_size.shape, sampling_ratio, numpy.int64)


def sampling_pair(sampling_ratio, function_name):
    """Validates ``sampling_ratio`` and returns it as a pair."""
    if isinstance(sampling_ratio, (tuple, list)):
        ratios = tuple(sampling_ratio)
    else:
        ratios = (sampling_ratio, sampling_ratio)
    if len(ratios) != 2 or not all(
        r is None or (isinstance(r, numbers.Integral) and r > 0) for r in ratios
    ):
        raise _chainer_errors.TypedValueError(
            '{}: sampling_ratio must be None, a positive int or a pair of '
            'them, not {!r}'.format(function_name, sampling_ratio)
        )
    return tuple(None if r is None else int(r) for r in ratios)


WORK_LIMIT = 2**22
"""Most samples times channels that ROI Align reduces sample by sample."""


def align_geometry(rois, roi_indices, x_shape, outsize, scale, sampling_ratio, name):
    """Geometry of ROI Align for ``rois`` given as ``(y_min, x_min, y_max,
    x_max)`` in image coordinates.

    A NaN or infinite corner raises as in :func:`finite_coordinates`.
    When the samples of all bins times the channels exceed
    :data:`WORK_LIMIT`, ``name`` (the public function) decides: the max
    keeps only the extreme samples of each pixel cell (see
    :func:`extreme_samples`), the average raises :class:`ValueError`.
    """
    scaled = rois * scale
    finite_coordinates(scaled, name)
    y_min, x_min, y_max, x_max = scaled.T
    roi_h = numpy.maximum(y_max - y_min, 1.0)
    roi_w = numpy.maximum(x_max - x_min, 1.0)
    grid = (
        sampling_grid(sampling_ratio[0], roi_h, outsize[0]),
        sampling_grid(sampling_ratio[1], roi_w, outsize[1]),
    )
    bins = (roi_h / outsize[0], roi_w / outsize[1])
    per_bin = int(grid[0].max(initial=1)) * int(grid[1].max(initial=1))
    work = per_bin * len(rois) * outsize[0] * outsize[1] * x_shape[1]
    picks = None
    if work > WORK_LIMIT:
        if name == 'roi_average_align_2d':
            raise ValueError(
                '{}: sampling_ratio {!r} gives {} samples per bin, {} samples '
                'times channels in all, over the bound of {}'.format(
                    name, sampling_ratio, per_bin, work, WORK_LIMIT
                )
            )
        picks = tuple(
            extreme_samples(start, bin_size, g, n, size)
            for start, bin_size, g, n, size in zip(
                (y_min, x_min), bins, grid, outsize, x_shape[2:]
            )
        )
    return bilinear_samples(
        roi_indices, y_min, x_min, bins[0], bins[1], outsize, grid, x_shape[2:], picks
    )


class PixelPooling(ROIPooling):
    """ROI pooling over whole pixels, ROIs given as ``(y_min, x_min, y_max,
    x_max)`` with a separate image index each."""

    def __init__(self, outsize, spatial_scale):
        self.outsize = pair(outsize, self.function_name + ': outsize')
        self.spatial_scale = check_scale(spatial_scale, self.function_name)

    def check_type_forward(self, in_types):
        check_input_types(in_types, 4)

    def geometry(self, rois, roi_indices, x_shape):
        corners = [rois[:, i].astype(numpy.float64) for i in range(4)]
        return pixel_bins(
            roi_indices,
            corners,
            self.outsize,
            x_shape,
            self.spatial_scale,
            False,
            self.function_name,
        )


class AlignPooling(ROIPooling):
    """ROI Align: bilinear samples of ROIs given as ``(y_min, x_min, y_max,
    x_max)`` with a separate image index each."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        self.outsize = pair(outsize, self.function_name + ': outsize')
        self.spatial_scale = check_scale(spatial_scale, self.function_name)
        self.sampling_ratio = sampling_pair(sampling_ratio, self.function_name)

    def check_type_forward(self, in_types):
        check_input_types(in_types, 4)

    def geometry(self, rois, roi_indices, x_shape):
        return align_geometry(
            rois.astype(float),
            roi_indices,
            x_shape,
            self.outsize,
            self.spatial_scale,
            self.sampling_ratio,
            self.function_name,
        )
