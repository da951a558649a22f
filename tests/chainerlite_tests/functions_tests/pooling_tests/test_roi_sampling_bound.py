"""ROI Align with a huge ``sampling_ratio`` answers or raises at once."""

import subprocess
import sys
import textwrap

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.functions.pooling import _roi

HUGE = [1000, 3000, 10**9, 2**62, (2**62, 3), (5, 10**12)]


def _inputs(seed, channels=2, size=(6, 6)):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(1, channels, *size).astype(numpy.float32)
    rois = numpy.array([[0.3, -0.7, 5.9, 6.5], [-1.5, 2.2, 3.1, 3.0]], numpy.float32)
    return x, rois, numpy.zeros(2, numpy.int32)


def test_huge_ratio_is_fast_in_a_subprocess():
    # No address-space cap: a path that allocated every sample would hang.
    program = textwrap.dedent(
        '''
        import time
        import numpy as np
        import chainerlite.functions as F
        x = np.random.RandomState(0).randn(1, 2, 6, 6).astype(np.float32)
        rois = np.array([[0.3, -0.7, 5.9, 6.5]], np.float32)
        idx = np.array([0], np.int32)
        for s in {huge!r}:
            start = time.perf_counter()
            y = F.roi_max_align_2d(x, rois, idx, 2, 1.0, s)
            assert np.isfinite(y.array).all()
            try:
                F.roi_average_align_2d(x, rois, idx, 2, 1.0, s)
            except ValueError:
                pass
            else:
                raise AssertionError(s)
            assert time.perf_counter() - start < 0.5, s
        '''
    ).format(huge=HUGE)
    subprocess.run([sys.executable, '-c', program], check=True, timeout=60)


def test_average_error_names_function_parameter_and_bound():
    x, rois, idx = _inputs(0)
    with pytest.raises(ValueError) as info:
        F.roi_average_align_2d(x, rois, idx, 2, 1.0, 10**9)
    message = str(info.value)
    assert 'roi_average_align_2d' in message
    assert 'sampling_ratio' in message
    assert str(_roi.WORK_LIMIT) in message


def test_average_within_bound_still_answers():
    x, rois, idx = _inputs(0)
    ratio = int((_roi.WORK_LIMIT // (2 * 2 * 2 * 2)) ** 0.5)
    y = F.roi_average_align_2d(x, rois, idx, 2, 1.0, ratio)
    assert numpy.isfinite(y.array).all()


@pytest.mark.parametrize('seed', range(40))
def test_extreme_samples_match_every_sample(seed, monkeypatch):
    rng = numpy.random.RandomState(seed)
    height, width = rng.randint(1, 7, 2)
    x, _, idx = _inputs(seed, size=(height, width))
    if seed % 2:
        x = numpy.round(x)  # many ties
    rois = (rng.rand(2, 4) * (height + 4) - 2).astype(numpy.float32)
    ratio = (int(rng.randint(1, 30)), int(rng.randint(1, 30)))
    outsize = int(rng.randint(1, 4))
    every = F.roi_max_align_2d(x, rois, idx, outsize, 1.0, ratio).array
    monkeypatch.setattr(_roi, 'WORK_LIMIT', 0)
    extreme = F.roi_max_align_2d(x, rois, idx, outsize, 1.0, ratio).array
    # The same samples, up to the rounding of interior ones.
    numpy.testing.assert_allclose(extreme, every, rtol=1e-6, atol=1e-6)


def test_extreme_samples_of_one_axis():
    # Bin 0 spans [0.3, 2.0), bin 1 [2.0, 3.7); cells of a map of size 4.
    start, size = numpy.array([0.3]), numpy.array([1.7])
    index, used = _roi.extreme_samples(start, size, numpy.array([9]), 2, 4)
    first_last = [list(i[u]) for i, u in zip(index[0], used[0])]
    assert first_last == [[0, 3, 4, 8], [0, 4, 5, 8]]


def test_extreme_samples_skip_outside_and_clamped_cell():
    # Samples at -1.35, -1.01 are outside; -0.68 is in the clamped cell 0.
    index, used = _roi.extreme_samples(
        numpy.array([-1.513903]), numpy.array([1.0]), numpy.array([3]), 1, 3
    )
    assert list(index[0, 0][used[0, 0]]) == [2]


def test_extreme_path_gradient(monkeypatch):
    monkeypatch.setattr(_roi, 'WORK_LIMIT', 0)
    rng = numpy.random.RandomState(3)
    x = rng.permutation(36).reshape(1, 1, 6, 6).astype(numpy.float64)
    rois = numpy.array([[0.3, -0.7, 5.9, 6.5]], numpy.float64)
    idx = numpy.array([0], numpy.int32)
    gy = rng.randn(1, 1, 2, 2)

    def f(x):
        return F.roi_max_align_2d(x, rois, idx, 2, 1.0, 10**9)

    gradient_check.check_backward(f, x, gy, eps=1e-4, atol=1e-4, rtol=1e-4)
    gradient_check.check_double_backward(
        f, x, gy, numpy.ones_like(x), eps=1e-4, atol=1e-4, rtol=1e-4
    )
