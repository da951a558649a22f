import numpy
import pytest

from chainerlite import datasets


def test_transform_runs_on_each_access():
    calls = []

    def double(x):
        calls.append(x)
        return x * 2

    ds = datasets.TransformDataset(numpy.arange(3), double)
    assert len(ds) == 3 and ds[2] == 4 and ds[:2] == [0, 2]
    assert len(calls) == 3
    with pytest.raises(IndexError):
        ds[3]


def test_concatenated_dataset():
    ds = datasets.ConcatenatedDataset([1, 2], [], (3, 4, 5))
    assert len(ds) == 5 and ds[:] == [1, 2, 3, 4, 5]
    assert ds[-2:] == [4, 5] and ds[1:4:2] == [2, 4]
    # a negative index is out of range, as in Chainer 7.8.1
    for i in (5, -1):
        with pytest.raises(IndexError):
            ds[i]
    assert len(datasets.ConcatenatedDataset()) == 0
