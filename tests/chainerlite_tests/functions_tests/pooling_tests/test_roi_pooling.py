"""ROI pooling and ROI Align, against loops over bins and samples."""

import math

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


def _round(v):
    return round(v)  # half to even, as Chainer rounds box corners


def _pixel_pool(fmap, y0, x0, h, w, outsize, reduce):
    # fmap: (C, H, W); ROI starting at pixel (y0, x0) spanning h x w pixels.
    c, height, width = fmap.shape
    out = numpy.zeros((c,) + outsize)
    for i in range(outsize[0]):
        lo_y = min(max(int(math.floor(i * h / outsize[0])) + y0, 0), height)
        hi_y = min(max(int(math.ceil((i + 1) * h / outsize[0])) + y0, 0), height)
        for j in range(outsize[1]):
            lo_x = min(max(int(math.floor(j * w / outsize[1])) + x0, 0), width)
            hi_x = min(max(int(math.ceil((j + 1) * w / outsize[1])) + x0, 0), width)
            patch = fmap[:, lo_y:hi_y, lo_x:hi_x].reshape(c, -1)
            if patch.shape[1]:
                out[:, i, j] = getattr(patch, reduce)(axis=1)
    return out


def _bilinear(fmap, y, x):
    height, width = fmap.shape[1:]
    if y < -1 or y > height or x < -1 or x > width:
        return None
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= height - 1:
        y0 = y1 = height - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= width - 1:
        x0 = x1 = width - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return (
        (1 - ly) * (1 - lx) * fmap[:, y0, x0]
        + (1 - ly) * lx * fmap[:, y0, x1]
        + ly * (1 - lx) * fmap[:, y1, x0]
        + ly * lx * fmap[:, y1, x1]
    )


def _align(fmap, roi, outsize, scale, ratio, reduce):
    y_min, x_min, y_max, x_max = [float(v) * scale for v in roi]
    roi_h, roi_w = max(y_max - y_min, 1.0), max(x_max - x_min, 1.0)
    bin_h, bin_w = roi_h / outsize[0], roi_w / outsize[1]
    gh = ratio[0] or int(math.ceil(roi_h / outsize[0]))
    gw = ratio[1] or int(math.ceil(roi_w / outsize[1]))
    out = numpy.zeros((fmap.shape[0],) + outsize)
    for i in range(outsize[0]):
        for j in range(outsize[1]):
            samples = [
                _bilinear(
                    fmap,
                    y_min + i * bin_h + (a + 0.5) * bin_h / gh,
                    x_min + j * bin_w + (b + 0.5) * bin_w / gw,
                )
                for a in range(gh)
                for b in range(gw)
            ]
            found = [s for s in samples if s is not None]
            if reduce == 'max':
                out[:, i, j] = numpy.max(found, axis=0) if found else 0
            else:
                out[:, i, j] = numpy.sum(found, axis=0) / (gh * gw) if found else 0
    return out


def _distinct_values(shape, dtype):
    # Values far enough apart for the numerical gradient of a max.
    x = numpy.linspace(-1, 1, numpy.prod(shape))
    numpy.random.shuffle(x)
    return x.reshape(shape).astype(dtype)


ROIS = numpy.array(
    [[1, 1, 6, 6], [2, 6, 11, 7], [1, 3, 10, 5], [3, 3, 3, 3], [1.1, 2.2, 3.3, 4.4]]
)
INDICES = numpy.array([0, 2, 1, 0, 2], numpy.int32)


@testing.parameterize(
    *testing.product(
        {
            'function': [
                'roi_max_pooling_2d',
                'roi_average_pooling_2d',
                'roi_max_align_2d',
                'roi_average_align_2d',
            ],
            'outsize': [(3, 2), 4],
            'spatial_scale': [0.6, 1.0],
            'dtype': [numpy.float32, numpy.float64],
        }
    )
)
class TestROIFunctions:
    def setup_method(self):
        self.x = _distinct_values((3, 2, 12, 8), self.dtype)
        self.rois = ROIS.astype(self.dtype)
        self.outsize_pair = (
            self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        )
        self.align = 'align' in self.function
        self.reduce = 'max' if '_max_' in self.function else 'mean'

    def _call(self, x):
        kwargs = {'sampling_ratio': (None, 2)} if self.align else {}
        outsize = self.outsize_pair if self.align else self.outsize
        # the ROIs in the dtype of x, as the type check wants
        rois = self.rois.astype(x.dtype)
        return getattr(F, self.function)(
            x, rois, INDICES, outsize, self.spatial_scale, **kwargs
        )

    def test_forward(self):
        y = self._call(self.x)
        expected = []
        for roi, b in zip(ROIS, INDICES):
            fmap = self.x[b].astype(numpy.float64)
            if self.align:
                expected.append(
                    _align(
                        fmap,
                        roi,
                        self.outsize_pair,
                        self.spatial_scale,
                        (None, 2),
                        self.reduce,
                    )
                )
            else:
                y0, x0, y1, x1 = [_round(v * self.spatial_scale) for v in roi]
                expected.append(
                    _pixel_pool(
                        fmap,
                        y0,
                        x0,
                        max(y1 - y0, 1),
                        max(x1 - x0, 1),
                        self.outsize_pair,
                        self.reduce,
                    )
                )
        assert y.dtype == self.dtype
        testing.assert_allclose(y.array, numpy.stack(expected), atol=1e-5, rtol=1e-5)

    def test_backward(self):
        gy = numpy.random.uniform(-1, 1, (5, 2) + self.outsize_pair)
        ggx = numpy.random.uniform(-1, 1, self.x.shape)
        # In float64 (the ROIs too: the same values).
        f = lambda x: self._call(x)  # NOQA
        x = self.x.astype(numpy.float64)
        opts = {'atol': 1e-4, 'rtol': 1e-3, 'eps': 1e-4}
        gradient_check.check_backward(f, x, gy, **opts)
        gradient_check.check_double_backward(f, x, gy, ggx, **opts)

    def test_gradient_is_checked_to_the_third_order(self):
        # x fixed, the gradient is linear in gy: check its own first and
        # second derivatives (the gather and scatter nodes each way)
        x = chainerlite.Variable(self.x.astype(numpy.float64))
        y = self._call(x)

        def gx_of(gy):
            (gx,) = chainerlite.grad(
                [y], [x], grad_outputs=[gy], enable_double_backprop=True
            )
            return gx

        rng = numpy.random.RandomState(0)
        gy = rng.uniform(-1, 1, y.shape)
        ggx = rng.uniform(-1, 1, x.shape)
        gggy = rng.uniform(-1, 1, y.shape)
        gradient_check.check_double_backward(gx_of, gy, ggx, gggy, atol=1e-6, rtol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_rois_of_another_dtype_than_x_are_refused(dtype):
    # as Chainer's type checks: x and rois share one float dtype
    x = _distinct_values((3, 2, 12, 8), numpy.float32)
    rois = ROIS.astype(numpy.float64 if dtype == numpy.float32 else numpy.float16)
    with pytest.raises(type_check.InvalidType, match='x.dtype == rois.dtype'):
        F.roi_max_pooling_2d(x, rois, INDICES, 2, 1.0)
    with pytest.raises(type_check.InvalidType, match='x.dtype == rois.dtype'):
        F.roi_average_align_2d(x, rois, INDICES, 2, 1.0)
    rois5 = numpy.concatenate([INDICES[:, None].astype(rois.dtype), rois], axis=1)
    with pytest.raises(type_check.InvalidType, match='x.dtype == rois.dtype'):
        F.roi_pooling_2d(x, rois5, 2, 2, 1.0)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_roi_pooling_2d_includes_the_far_corner(dtype):
    x = _distinct_values((2, 3, 12, 8), dtype)
    rois = numpy.array([[0, 1, 1, 6, 6], [1, 6, 2, 7, 11], [0, 3, 3, 3, 3]], dtype)
    y = F.roi_pooling_2d(x, rois, 5, 7, 0.6)
    expected = []
    for b, x_min, y_min, x_max, y_max in rois:
        y0, x0, y1, x1 = [_round(v * 0.6) for v in (y_min, x_min, y_max, x_max)]
        expected.append(
            _pixel_pool(
                x[int(b)].astype(numpy.float64),
                y0,
                x0,
                max(y1 - y0 + 1, 1),
                max(x1 - x0 + 1, 1),
                (5, 7),
                'max',
            )
        )
    testing.assert_allclose(y.array, numpy.stack(expected))
    gy = numpy.random.uniform(-1, 1, y.shape).astype(dtype)
    gradient_check.check_backward(
        lambda x: F.roi_pooling_2d(x, rois.astype(x.dtype), 5, 7, 0.6),
        x.astype(numpy.float64),
        gy.astype(numpy.float64),
        eps=1e-4,
    )


def test_integer_rois_are_invalid():
    with pytest.raises(type_check.InvalidType, match='ROIMaxPooling2D'):
        F.roi_max_pooling_2d(
            numpy.zeros((1, 1, 4, 4), numpy.float32),
            numpy.zeros((1, 4), numpy.int32),
            numpy.zeros(1, numpy.int32),
            2,
            1.0,
        )


def test_rois_need_four_coordinates():
    with pytest.raises(type_check.InvalidType, match='ROIAverageAlign2D'):
        F.roi_average_align_2d(
            numpy.zeros((1, 1, 4, 4), numpy.float32),
            numpy.zeros((1, 5), numpy.float32),
            numpy.zeros(1, numpy.int32),
            2,
            1.0,
        )


@pytest.mark.parametrize('ratio', [0, (1, 2, 3), 1.5])
def test_bad_sampling_ratio_is_rejected(ratio):
    with pytest.raises(ValueError, match='sampling_ratio'):
        F.roi_max_align_2d(
            numpy.zeros((1, 1, 4, 4), numpy.float32),
            numpy.zeros((1, 4), numpy.float32),
            numpy.zeros(1, numpy.int32),
            2,
            1.0,
            ratio,
        )
