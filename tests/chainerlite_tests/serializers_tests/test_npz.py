import io
import zipfile

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import optimizers
from chainerlite import serializers


class _Block(chainerlite.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l2 = L.Linear(3, 3)
        self.add_persistent('running', numpy.zeros(3, numpy.float32))


class _Model(chainerlite.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, 3)
            self.block = _Block()
            self.layers = chainerlite.ChainList(L.Linear(3, 2), L.Linear(2, 1))
        self.add_persistent('count', 0)
        self.add_persistent('scale', 1.5)
        self.add_persistent('extra', None)

    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.relu(self.block.l2(h))
        return F.sum(self.layers[1](self.layers[0](h)) ** 2)


# Chainer's layout: a link's values at '<child>/<grandchild>/<name>', a
# ChainList's children named by index.
_MODEL_KEYS = {
    'l1/W',
    'l1/b',
    'block/l2/W',
    'block/l2/b',
    'block/running',
    'layers/0/W',
    'layers/0/b',
    'layers/1/W',
    'layers/1/b',
    'count',
    'scale',
    'extra',
}
_PARAM_PATHS = sorted(k for k in _MODEL_KEYS if k.endswith('/W') or k.endswith('/b'))


def _saved(obj, **kwargs):
    buf = io.BytesIO()
    serializers.save_npz(buf, obj, **kwargs)
    buf.seek(0)
    return buf


def _keys(buf):
    with numpy.load(buf, allow_pickle=True) as f:
        keys = set(f.files)
    buf.seek(0)
    return keys


def _train(model, opt, steps, seed):
    rng = numpy.random.RandomState(seed)
    for _ in range(steps):
        x = rng.uniform(-1, 1, (4, 2)).astype(numpy.float32)
        opt.update(model, x)


def test_link_key_layout():
    assert _keys(_saved(_Model())) == _MODEL_KEYS


@pytest.mark.parametrize(
    'cls, states',
    [
        (optimizers.SGD, []),
        (optimizers.MomentumSGD, ['v']),
        (optimizers.Adam, ['m', 'v']),
    ],
)
def test_optimizer_key_layout(cls, states):
    model = _Model()
    opt = cls().setup(model)
    _train(model, opt, 1, seed=0)
    expected = {'t', 'epoch'}
    for path in _PARAM_PATHS:
        expected.add(path + '/t')
        expected.update(path + '/' + s for s in states)
    assert _keys(_saved(opt)) == expected


def test_link_round_trip():
    src = _Model()
    src.count = 7
    src.scale = 0.25
    src.block.running[...] = [1, 2, 3]
    dst = _Model()
    running = dst.block.running
    serializers.load_npz(_saved(src), dst)
    for (name, p), (_, q) in zip(src.namedparams(), dst.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
    assert dst.count == 7 and type(dst.count) is int
    assert dst.scale == 0.25 and type(dst.scale) is float
    assert dst.extra is None
    assert dst.block.running is running  # loaded in place
    numpy.testing.assert_array_equal(running, [1, 2, 3])


@pytest.mark.parametrize('compression', [True, False])
def test_file_path_and_compression(tmp_path, compression):
    path = str(tmp_path / 'model.npz')
    src = _Model()
    serializers.save_npz(path, src, compression=compression)
    with zipfile.ZipFile(path) as z:
        kinds = {info.compress_type for info in z.infolist()}
    assert kinds == {zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED}
    dst = _Model()
    serializers.load_npz(path, dst)
    numpy.testing.assert_array_equal(dst.l1.W.array, src.l1.W.array)


def test_a_dict_of_arrays_is_saved_as_it_is():
    # e.g. a model written by an older version of a link, loaded by the new
    W = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    buf = io.BytesIO()
    serializers.save_npz(buf, {'W': W, 'b': numpy.arange(2.0)})
    buf.seek(0)
    with numpy.load(buf) as f:
        assert sorted(f.files) == ['W', 'b']
    buf.seek(0)
    dst = L.Linear(3, 2)
    serializers.load_npz(buf, dst)
    numpy.testing.assert_array_equal(dst.W.array, W)
    numpy.testing.assert_array_equal(dst.b.array, [0, 1])


def test_uninitialized_param_is_initialized_on_load():
    src = L.Linear(4, 3)
    dst = L.Linear(3)
    assert dst.W.array is None
    serializers.load_npz(_saved(src), dst)
    assert dst.W.shape == (3, 4)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)


@pytest.mark.parametrize('cls', [optimizers.MomentumSGD, optimizers.Adam])
def test_optimizer_round_trip_resumes_training(cls):
    model = _Model()
    opt = cls().setup(model)
    _train(model, opt, 3, seed=0)
    opt.new_epoch()
    model_file, opt_file = _saved(model), _saved(opt)

    model2 = _Model()
    opt2 = cls().setup(model2)
    serializers.load_npz(model_file, model2)
    serializers.load_npz(opt_file, opt2)
    assert (opt2.t, opt2.epoch) == (3, 1)
    for param in model2.params():
        assert param.update_rule.t == 3

    _train(model, opt, 2, seed=1)
    _train(model2, opt2, 2, seed=1)
    for (name, p), (_, q) in zip(model.namedparams(), model2.namedparams()):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-6, err_msg=name)


def test_state_of_never_updated_optimizer():
    fresh_file = _saved(optimizers.Adam().setup(_Model()))
    opt = optimizers.Adam().setup(_Model())
    # Chainer's behaviour: the file lacks the state entries.
    with pytest.raises(KeyError, match='block/l2/W/m'):
        serializers.load_npz(fresh_file, opt)
    fresh_file.seek(0)
    opt = optimizers.Adam().setup(_Model())
    serializers.load_npz(fresh_file, opt, strict=False)
    assert opt.target.l1.W.update_rule.state is None
    fresh_file.seek(0)
    opt = optimizers.Adam().setup(_Model())
    for param in opt.target.params():
        param.update_rule.enabled = False
    serializers.load_npz(fresh_file, opt)
    assert opt.target.l1.W.update_rule.state is None


def test_missing_key_is_a_key_error_naming_it():
    src = L.Linear(2, 3, nobias=True)
    with pytest.raises(KeyError, match="'b'"):
        serializers.load_npz(_saved(src), L.Linear(2, 3))


def test_non_strict_keeps_missing_values():
    src = L.Linear(2, 3, nobias=True)
    dst = L.Linear(2, 3, initial_bias=5.0)
    serializers.load_npz(_saved(src), dst, strict=False)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    numpy.testing.assert_array_equal(dst.b.array, [5.0, 5.0, 5.0])


def test_shape_mismatch_is_a_value_error_naming_key_and_shapes():
    with pytest.raises(ValueError, match=r"'W'.*\(3, 2\).*\(3, 4\)"):
        serializers.load_npz(_saved(L.Linear(2, 3)), L.Linear(4, 3))


@pytest.mark.parametrize(
    'ignore_names, count',
    [
        ('l1/W', 3),
        (['l1/W'], 3),
        (lambda key: key == 'l1/W', 3),
        (['count', lambda key: key.startswith('l1/W')], 0),
    ],
)
def test_ignore_names(ignore_names, count):
    src = _Model()
    src.count = 3
    dst = _Model()
    old_w = dst.l1.W.array.copy()
    serializers.load_npz(_saved(src), dst, ignore_names=ignore_names)
    numpy.testing.assert_array_equal(dst.l1.W.array, old_w)
    numpy.testing.assert_array_equal(dst.l1.b.array, src.l1.b.array)
    assert dst.count == count


def test_ignored_missing_key_is_not_an_error():
    src = L.Linear(2, 3, nobias=True)
    serializers.load_npz(_saved(src), L.Linear(2, 3), ignore_names='b')


def test_invalid_ignore_names():
    with pytest.raises(ValueError, match='ignore_names'):
        serializers.NpzDeserializer({}, ignore_names=['a', 3])
    # a lone value that is neither a string nor callable: ValueError too
    # (Chainer's), not the TypeError of iterating over it
    with pytest.raises(ValueError, match='ignore_names'):
        serializers.load_npz(_saved(L.Linear(2, 3)), L.Linear(2, 3), ignore_names=3)


def test_path_selects_a_sub_tree():
    model = _Model()
    s = serializers.DictionarySerializer()
    s['updater']['model:main'].save(model)
    assert set(s.target) == {'updater/model:main/' + k for k in _MODEL_KEYS}
    buf = io.BytesIO()
    numpy.savez(buf, **s.target)
    buf.seek(0)
    dst = _Model()
    serializers.load_npz(buf, dst, path='updater/model:main/')
    numpy.testing.assert_array_equal(dst.l1.W.array, model.l1.W.array)


def test_dictionary_serializer():
    target = {}
    s = serializers.DictionarySerializer(target)
    assert s('/x', 3) == 3
    child = s['/a/']['b']
    assert child.path == 'a/b/' and child.target is target
    value = numpy.arange(3)
    assert child('y', value) is value
    assert s('none', None) is None
    assert set(target) == {'x', 'a/b/y', 'none'}
    assert target['x'] == 3 and isinstance(target['x'], numpy.ndarray)
    numpy.testing.assert_array_equal(target['a/b/y'], [0, 1, 2])
    assert target['none'][()] is None


def test_npz_deserializer_scalars_and_arrays():
    npz = {
        'i': numpy.asarray(4),
        'f': numpy.asarray(2.5),
        'a/b/arr': numpy.arange(3.0),
        'n': numpy.asarray(None),
    }
    d = serializers.NpzDeserializer(npz)
    assert d('i', 0) == 4 and type(d('i', 0)) is int
    assert d('i', 0.0) == 4.0 and type(d('i', 0.0)) is float
    # an integer loads into an int whatever its width, but into a bool
    # only by a safe cast, which there is not (Chainer's rule)
    with pytest.raises(TypeError, match="'i'"):
        d('i', True)
    assert type(d('f', numpy.float64(0))) is numpy.float64
    with pytest.raises(TypeError, match='float64.*float32'):
        d('f', numpy.float32(0))
    with pytest.raises(TypeError, match="'f'"):
        d('f', 0)
    loaded = d['a']['/b/']('arr', None)
    numpy.testing.assert_array_equal(loaded, [0.0, 1.0, 2.0])
    assert d('n', numpy.zeros(2)) is None
    target = numpy.zeros(3, numpy.float32)
    assert d['a/b']('arr', target) is target
    numpy.testing.assert_array_equal(target, [0.0, 1.0, 2.0])


def test_serialize_returns_the_saved_dict():
    model = _Model()
    target = serializers.npz.serialize(model)
    assert set(target) == _MODEL_KEYS
    assert all(isinstance(v, numpy.ndarray) for v in target.values())


def test_other_objects_are_serialized_once():
    # As in Chainer: only chainerlite's own objects get a checking walk.
    class Counter:
        calls = 0
        value = 0

        def serialize(self, serializer):
            self.calls += 1
            self.value = serializer('value', self.value)

    buf = io.BytesIO()
    numpy.savez(buf, value=numpy.array(7))
    buf.seek(0)
    target = Counter()
    serializers.load_npz(buf, target, strict=False)
    assert (target.calls, target.value) == (1, 7)
