"""load_hdf5 on hostile files: links and datasets whose bytes live outside
the group being loaded are refused, naming the key, before anything is
read or assigned."""

import numpy
import pytest

import chainerlite
from chainerlite import serializers

h5py = pytest.importorskip('h5py')

SECRET = numpy.arange(6, dtype=numpy.float32) + 100


def _model():
    model = chainerlite.Chain()
    with model.init_scope():
        model.l = chainerlite.links.Linear(3, 2)
    return model


def _write_honest(group, model):
    serializers.HDF5Serializer(group).save(model)


@pytest.fixture
def secret(tmp_path):
    """A local file the attacker wants to read (raw float32 bytes), and
    the same bytes as an HDF5 dataset in another file."""
    raw = tmp_path / 'secret.bin'
    raw.write_bytes(SECRET.tobytes())
    other = tmp_path / 'other.h5'
    with h5py.File(str(other), 'w') as f:
        f.create_dataset('W', data=SECRET.reshape(2, 3))
    return raw, other


def _hostile(tmp_path, secret, kind):
    raw, other = secret
    path = str(tmp_path / 'model.h5')
    with h5py.File(path, 'w') as f:
        _write_honest(f, _model())
        del f['l/W']
        if kind == 'external storage':
            f['l'].create_dataset(
                'W', shape=(2, 3), dtype='f4', external=[(str(raw), 0, SECRET.nbytes)]
            )
        elif kind == 'external link':
            f['l/W'] = h5py.ExternalLink(str(other), '/W')
        elif kind == 'virtual dataset':
            layout = h5py.VirtualLayout(shape=(2, 3), dtype='f4')
            layout[:] = h5py.VirtualSource(str(other), 'W', shape=(2, 3))
            f['l'].create_virtual_dataset('W', layout)
    return path


@pytest.mark.parametrize(
    'kind, message',
    [
        ('external storage', 'external storage'),
        ('external link', 'external link'),
        ('virtual dataset', 'virtual dataset'),
    ],
)
def test_data_from_other_files_is_refused_and_nothing_assigned(
    tmp_path, secret, kind, message
):
    path = _hostile(tmp_path, secret, kind)
    # the file really would read the secret (h5py follows these)
    with h5py.File(path, 'r') as f:
        numpy.testing.assert_array_equal(f['l/W'][()].ravel(), SECRET)
    target = _model()
    before = {name: p.array.copy() for name, p in target.namedparams()}
    with pytest.raises(ValueError, match="HDF5Deserializer: key 'l/W' .*" + message):
        serializers.load_hdf5(path, target)
    for name, p in target.namedparams():  # not even l/b, which is honest
        numpy.testing.assert_array_equal(p.array, before[name], err_msg=name)


def test_the_deserializer_refuses_too_given_an_open_group(tmp_path, secret):
    path = _hostile(tmp_path, secret, 'external link')
    with h5py.File(path, 'r') as f:
        with pytest.raises(ValueError, match="key 'l/W' is an external link"):
            serializers.HDF5Deserializer(f)


def _with_soft_link(tmp_path, link_path):
    path = str(tmp_path / 'soft.h5')
    with h5py.File(path, 'w') as f:
        _write_honest(f.create_group('model'), _model())
        f.create_dataset('elsewhere/W', data=SECRET.reshape(2, 3))
        f['model/l/spare'] = f['model/l/W'][()] + 1
        del f['model/l/W']
        f['model/l/W'] = h5py.SoftLink(link_path)
    return path


@pytest.mark.parametrize('link_path', ['/elsewhere/W', '/', '/model_other'])
def test_a_soft_link_leaving_the_loaded_group_is_refused(tmp_path, link_path):
    path = _with_soft_link(tmp_path, link_path)
    target = _model()
    before = target.l.W.array.copy()
    with pytest.raises(ValueError, match="key 'l/W' is a soft link to"):
        serializers.load_hdf5(path, target, path='model')
    numpy.testing.assert_array_equal(target.l.W.array, before)


@pytest.mark.parametrize('link_path', ['/model/l/spare', 'spare'])
def test_a_soft_link_inside_the_loaded_group_is_followed(tmp_path, link_path):
    path = _with_soft_link(tmp_path, link_path)
    with h5py.File(path, 'r') as f:
        expected = f['model/l/spare'][()]
    target = _model()
    serializers.load_hdf5(path, target, path='model')
    numpy.testing.assert_array_equal(target.l.W.array, expected)


def test_the_path_to_the_loaded_group_follows_no_link(tmp_path, secret):
    _, other = secret
    path = str(tmp_path / 'links.h5')
    with h5py.File(path, 'w') as f:
        _write_honest(f.create_group('real'), _model())
        f['soft'] = h5py.SoftLink('/real')
        f['ext'] = h5py.ExternalLink(str(other), '/')
    for group in ('soft', 'ext', 'ext/W'):
        with pytest.raises(KeyError, match='not a group'):
            serializers.load_hdf5(path, _model(), path=group)
    serializers.load_hdf5(path, _model(), path='real')
