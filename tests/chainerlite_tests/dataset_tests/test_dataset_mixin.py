import numpy
import pytest

from chainerlite import dataset


class Squares(dataset.DatasetMixin):
    def __len__(self):
        return 5

    def get_example(self, i):
        return i * i


def test_int_slice_and_index_list():
    ds = Squares()
    assert ds[3] == 9
    assert ds[1:4] == [1, 4, 9] and ds[::-2] == [16, 4, 0]
    assert ds[[4, 0, 0]] == [16, 0, 0]
    assert ds[numpy.array([1, 2])] == [1, 4]


def test_abstract_methods_say_what_is_missing():
    with pytest.raises(NotImplementedError, match='get_example'):
        dataset.DatasetMixin().get_example(0)
    with pytest.raises(NotImplementedError, match='__len__'):
        len(dataset.DatasetMixin())


def test_iterator_base_finalizes_on_exit():
    class Counting(dataset.Iterator):
        finalized = 0

        def __next__(self):
            return [1]

        def finalize(self):
            self.finalized += 1

    with Counting() as it:
        assert it.next() == [1] and next(iter(it)) == [1]
    assert it.finalized == 1
