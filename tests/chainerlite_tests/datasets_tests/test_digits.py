import gzip
import os

import numpy
import pytest

from chainerlite import datasets
from chainerlite.datasets import digits


def test_sizes_shapes_and_dtypes():
    (x, t), (x_test, t_test) = datasets.get_digits()
    assert x.shape == (1438, 64) and x_test.shape == (359, 64)
    assert t.shape == (1438,) and t_test.shape == (359,)
    assert x.dtype == numpy.float32 and x_test.dtype == numpy.float32
    assert t.dtype == numpy.int32 and t_test.dtype == numpy.int32


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_dtype_option(dtype):
    (x, _), (x_test, _) = datasets.get_digits(dtype=dtype)
    assert x.dtype == dtype and x_test.dtype == dtype


@pytest.mark.parametrize('dtype', [numpy.int32, 'bool'])
def test_non_float_dtype_is_rejected(dtype):
    with pytest.raises(ValueError, match='floating-point'):
        datasets.get_digits(dtype=dtype)


@pytest.mark.parametrize('split', [0, 1, -0.5, 1.5])
def test_split_out_of_range_is_rejected(split):
    with pytest.raises(ValueError, match='split'):
        datasets.get_digits(split=split)


def test_pixels_are_sixteenths_in_unit_range():
    (x, t), (x_test, t_test) = datasets.get_digits()
    for part in (x, x_test):
        assert part.min() == 0 and part.max() == 1
        numpy.testing.assert_array_equal(part * 16, numpy.round(part * 16))
    assert set(numpy.unique(numpy.concatenate([t, t_test]))) == set(range(10))


def test_split_covers_every_sample_once():
    path = os.path.join(os.path.dirname(digits.__file__), 'data', 'digits.csv.gz')
    with gzip.open(path, 'rt') as f:
        rows = sorted(line.strip() for line in f)
    assert len(rows) == digits.N_SAMPLES
    (x, t), (x_test, t_test) = datasets.get_digits()
    x_all = numpy.concatenate([x, x_test]) * 16
    t_all = numpy.concatenate([t, t_test])
    rebuilt = sorted(
        ','.join(str(int(v)) for v in numpy.append(row, label))
        for row, label in zip(x_all, t_all)
    )
    assert rebuilt == rows


def test_same_seed_gives_same_split_and_order():
    first, second = datasets.get_digits(seed=3), datasets.get_digits(seed=3)
    for part_a, part_b in zip(first, second):
        for a, b in zip(part_a, part_b):
            numpy.testing.assert_array_equal(a, b)


def test_other_seed_gives_other_split():
    (_, t0), _ = datasets.get_digits(seed=0)
    (_, t1), _ = datasets.get_digits(seed=1)
    assert (t0 != t1).any()


def test_returned_arrays_do_not_share_memory_between_calls():
    (x, t), _ = datasets.get_digits()
    x[:] = -1
    t[:] = -1
    (x2, t2), _ = datasets.get_digits()
    assert x2.min() == 0 and t2.min() == 0


@pytest.mark.parametrize('split', [0.5, 0.8, 0.9])
def test_every_digit_keeps_its_share_in_both_parts(split):
    (_, t), (_, t_test) = datasets.get_digits(split=split)
    counts = numpy.bincount(numpy.concatenate([t, t_test]), minlength=10)
    numpy.testing.assert_allclose(
        numpy.bincount(t, minlength=10), split * counts, atol=0.5
    )
    numpy.testing.assert_allclose(
        numpy.bincount(t_test, minlength=10), (1 - split) * counts, atol=0.5
    )


def test_training_order_is_shuffled():
    (_, t), _ = datasets.get_digits()
    # Sorted or class-grouped labels would make minibatches one-sided.
    assert (numpy.diff(t) != 0).mean() > 0.8
