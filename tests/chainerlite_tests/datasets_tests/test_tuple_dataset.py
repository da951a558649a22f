import numpy
import pytest

from chainerlite import datasets


def test_examples_are_tuples_of_entries():
    x, t = numpy.arange(6).reshape(3, 2), numpy.array([7, 8, 9])
    ds = datasets.TupleDataset(x, t)
    assert len(ds) == 3
    a, b = ds[1]
    numpy.testing.assert_array_equal(a, [2, 3])
    assert b == 8
    assert [e[1] for e in ds[1:]] == [8, 9]
    with pytest.raises(IndexError):
        ds[3]


def test_lengths_must_match():
    with pytest.raises(ValueError, match='dataset 1'):
        datasets.TupleDataset([1, 2], [1])
    with pytest.raises(ValueError):
        datasets.TupleDataset()


def test_dict_dataset():
    ds = datasets.DictDataset(x=[1, 2, 3], y='abc')
    assert ds[2] == {'x': 3, 'y': 'c'} and len(ds) == 3
    assert ds[:2] == [{'x': 1, 'y': 'a'}, {'x': 2, 'y': 'b'}]
    with pytest.raises(IndexError):
        ds[3]
    with pytest.raises(ValueError, match='length'):
        datasets.DictDataset(x=[1], y=[1, 2])
