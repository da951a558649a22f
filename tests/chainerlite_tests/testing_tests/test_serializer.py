import numpy
import pytest

import chainerlite
from chainerlite import testing


class Holder:
    def __init__(self, value):
        self.value = value

    def serialize(self, serializer):
        self.value = serializer('value', self.value)


def test_save_and_load_npz_copies_the_state():
    src = Holder(numpy.arange(3.0))
    dst = Holder(numpy.zeros(3))
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.value, [0.0, 1.0, 2.0])


def test_save_and_load_npz_of_a_link():
    src = chainerlite.links.Linear(3, 2)
    dst = chainerlite.links.Linear(3, 2)
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)


def test_save_and_load_calls_saver_then_loader(tmp_path):
    calls = []
    path = str(tmp_path / 'f')
    testing.save_and_load(
        'src',
        'dst',
        path,
        lambda f, obj: calls.append(('save', f, obj)),
        lambda f, obj: calls.append(('load', f, obj)),
    )
    assert calls == [('save', path, 'src'), ('load', path, 'dst')]


@pytest.mark.skipif(
    hasattr(chainerlite.serializers, 'save_hdf5'),
    reason='checks the error without the HDF5 serializers',
)
def test_save_and_load_hdf5_needs_the_hdf5_serializers():
    with pytest.raises(RuntimeError, match='save_hdf5'):
        testing.save_and_load_hdf5(Holder(1), Holder(2))
