"""serializers.hdf5: HDF5 files through h5py (checked as npz files are),
and a clear error naming what to install without it."""

import numpy
import pytest

import chainerlite
from chainerlite import serializers
from chainerlite import testing
from chainerlite.serializers import hdf5

try:
    import h5py
except ImportError:  # the tests of the error without h5py still run
    h5py = None

needs_h5py = pytest.mark.skipif(h5py is None, reason='needs h5py')


def _model():
    model = chainerlite.Chain()
    with model.init_scope():
        model.child = chainerlite.links.Linear(3, 2)
        model.bn = chainerlite.links.BatchNormalization(2)
    model.add_persistent('count', 7)
    model.add_persistent('nothing', None)
    return model


def _trained(model):
    optimizer = chainerlite.optimizers.Adam()
    optimizer.setup(model)
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    optimizer.update(lambda: chainerlite.functions.sum(model.bn(model.child(x))))
    return optimizer


def _arrays(model):
    return {name: p.array.copy() for name, p in model.namedparams()}


@needs_h5py
def test_a_model_and_its_optimizer_round_trip(tmp_path):
    source = _model()
    source_optimizer = _trained(source)
    target = _model()
    target.count = 0
    target_optimizer = chainerlite.optimizers.Adam()
    target_optimizer.setup(target)
    serializers.save_hdf5(str(tmp_path / 'model.h5'), source)
    serializers.save_hdf5(str(tmp_path / 'state.h5'), source_optimizer)
    serializers.load_hdf5(str(tmp_path / 'model.h5'), target)
    serializers.load_hdf5(str(tmp_path / 'state.h5'), target_optimizer)
    for (name, a), (_, b) in zip(source.namedparams(), target.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)
        for key, state in a.update_rule.state.items():
            numpy.testing.assert_array_equal(state, b.update_rule.state[key])
    numpy.testing.assert_array_equal(source.bn.avg_mean, target.bn.avg_mean)
    assert target.count == 7 and type(target.count) is int
    assert target.nothing is None
    assert target_optimizer.t == source_optimizer.t == 1


@needs_h5py
def test_groups_datasets_and_compression(tmp_path):
    model = _model()
    optimizer = _trained(model)
    path = str(tmp_path / 'f.h5')
    with h5py.File(path, 'w') as f:
        # the optimizer's keys start with '/': they stay in their group
        hdf5.HDF5Serializer(f.create_group('opt'), compression=3).save(optimizer)
        hdf5.HDF5Serializer(f.create_group('model'), compression=3).save(model)
    with h5py.File(path, 'r') as f:
        assert set(f.keys()) == {'opt', 'model'}
        assert set(f['opt/child'].keys()) == {'W', 'b'}
        assert f['model/child/W'].compression_opts == 3
        assert f['model/count'].compression is None  # a scalar
        assert f['model/nothing'].shape is None  # None: an empty dataset
        numpy.testing.assert_array_equal(f['model/child/W'][()], model.child.W.array)
    # one object of the file, by its group
    target = _model()
    serializers.load_hdf5(path, target, path='model')
    numpy.testing.assert_array_equal(target.child.W.array, model.child.W.array)
    with pytest.raises(KeyError, match="'absent' is not a group"):
        serializers.load_hdf5(path, target, path='absent')


def _file_with(tmp_path, **datasets):
    path = str(tmp_path / 'bad.h5')
    source = _model()
    serializers.save_hdf5(path, source)
    with h5py.File(path, 'a') as f:
        for key, data in datasets.items():
            del f[key.replace('__', '/')]
            f.create_dataset(key.replace('__', '/'), data=data)
    return path


@needs_h5py
@pytest.mark.parametrize(
    'datasets, error, message',
    [
        ({'child__W': numpy.zeros((3, 3), numpy.float32)}, ValueError, 'shape'),
        ({'child__b': numpy.array(['a', 'b'], object)}, ValueError, 'dtype'),
        ({'child__b': numpy.array([1e300, 0.0])}, ValueError, 'out of the range'),
        ({'count': numpy.array([1.5, 2.5])}, ValueError, 'shape'),
    ],
)
def test_a_bad_file_is_an_error_that_leaves_the_model_as_it_was(
    tmp_path, datasets, error, message
):
    path = _file_with(tmp_path, **datasets)
    target = _model()
    before = _arrays(target)
    with pytest.raises(error, match='HDF5Deserializer.*' + message):
        serializers.load_hdf5(path, target)
    for name, array in _arrays(target).items():
        numpy.testing.assert_array_equal(array, before[name], err_msg=name)
    assert target.count == 7


@needs_h5py
def test_deserializer_takes_strict_second_as_chainer(tmp_path):
    # Chainer 7.8.1: HDF5Deserializer(group, strict=True)
    path = str(tmp_path / 'f.h5')
    with h5py.File(path, 'w') as f:
        hdf5.HDF5Serializer(f).save(chainerlite.links.Linear(3, 2))
    target = _model()
    with h5py.File(path, 'r') as f:
        with pytest.raises(KeyError, match='HDF5Deserializer'):
            serializers.HDF5Deserializer(f, True).load(target)
        serializers.HDF5Deserializer(f, False).load(target)
        with pytest.raises(TypeError):
            serializers.HDF5Deserializer(f, False, '/')


@needs_h5py
def test_missing_values_strict_and_not(tmp_path):
    path = str(tmp_path / 'f.h5')
    with h5py.File(path, 'w') as f:
        hdf5.HDF5Serializer(f.create_group('child')).save(
            chainerlite.links.Linear(3, 2)
        )
    target = _model()
    before = _arrays(target)
    with pytest.raises(KeyError, match='HDF5Deserializer') as info:
        serializers.load_hdf5(path, target)
    # also the ValueError Chainer 7.8.1 raises for a link missing from the
    # file (a missing group; a missing dataset is h5py's KeyError)
    assert isinstance(info.value, ValueError)
    for name, array in _arrays(target).items():
        numpy.testing.assert_array_equal(array, before[name])
    serializers.load_hdf5(path, target, strict=False)
    with h5py.File(path, 'r') as f:
        numpy.testing.assert_array_equal(target.child.W.array, f['child/W'][()])
    numpy.testing.assert_array_equal(target.bn.gamma.array, before['/bn/gamma'])


@needs_h5py
def test_testing_save_and_load_hdf5():
    source, target = _model(), _model()
    testing.save_and_load_hdf5(source, target)
    numpy.testing.assert_array_equal(source.child.W.array, target.child.W.array)


def test_without_h5py_every_entry_point_says_what_to_install(monkeypatch):
    monkeypatch.setattr(hdf5, '_available', False)
    link = chainerlite.links.Linear(2, 3)
    with pytest.raises(RuntimeError, match=r'save_hdf5 needs h5py \(pip install h5py'):
        serializers.save_hdf5('model.h5', link)
    with pytest.raises(RuntimeError, match='load_hdf5 needs h5py'):
        serializers.load_hdf5('model.h5', link)
    with pytest.raises(RuntimeError, match='HDF5Serializer needs h5py'):
        serializers.HDF5Serializer(None)
    with pytest.raises(RuntimeError, match='HDF5Deserializer needs h5py'):
        serializers.HDF5Deserializer(None)


@needs_h5py
def test_a_child_deserializer_has_its_group(tmp_path):
    path = str(tmp_path / 'groups.h5')
    with h5py.File(path, 'w') as f:
        f.create_dataset('x/y/W', data=numpy.arange(3.0))
    with h5py.File(path, 'r') as f:
        root = hdf5.HDF5Deserializer(f)
        child = root['x']['y']
        assert child.group.name == '/x/y' and child.group_path == '/x/y'
        numpy.testing.assert_array_equal(child('W', numpy.zeros(3)), [0, 1, 2])
        assert root['none'].group is None


@needs_h5py
def test_none_needs_an_h5py_with_empty_datasets(tmp_path, monkeypatch):
    with h5py.File(str(tmp_path / 'none.h5'), 'w') as f:
        serializer = hdf5.HDF5Serializer(f)
        monkeypatch.setattr(h5py.version, 'version_tuple', (2, 6, 0))
        with pytest.raises(RuntimeError, match='h5py>=2.7.0'):
            serializer('x', None)
        assert 'x' not in f


@needs_h5py
def test_save_hdf5_writes_a_dict_item_by_item(tmp_path):
    path = str(tmp_path / 'dict.h5')
    state = {'avg_mean': numpy.arange(3.0), '/nested/N': numpy.array(4)}
    serializers.save_hdf5(path, state)
    with h5py.File(path, 'r') as f:
        numpy.testing.assert_array_equal(f['avg_mean'][()], [0, 1, 2])
        assert f['nested/N'][()] == 4
    with pytest.raises(TypeError, match="'bad'"):
        serializers.save_hdf5(path, {'bad': numpy.array([object()])})
