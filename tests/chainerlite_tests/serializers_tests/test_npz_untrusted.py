"""load_npz on files that were not written by save_npz: crafted, broken or
out of range. A failed load must leave the object exactly as it was."""

import io
import pickle
import tracemalloc
import zipfile

import numpy
import pytest
from numpy.lib import format as npy_format

import chainerlite
import chainerlite.links as L
from chainerlite import optimizers
from chainerlite import serializers
from chainerlite.backends import cuda
from chainerlite.testing import attr


class _OpenOnUnpickle:
    """Unpickling it creates the file at ``path``."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return open, (self.path, 'w')


class _Net(chainerlite.Chain):
    def __init__(self, seed):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, 3)
            self.bn = L.BatchNormalization(3)
            self.l2 = L.Linear(3, 2)
        self.add_persistent('count', 0)
        rng = numpy.random.RandomState(seed)
        for _, param in self.namedparams():
            param.array[...] = rng.uniform(-1, 1, param.shape)
        self.bn.avg_mean[...] = rng.uniform(-1, 1, 3)
        self.bn.avg_var[...] = rng.uniform(1, 2, 3)
        self.count = seed

    def forward(self, x):
        return chainerlite.functions.sum(self.l2(self.bn(self.l1(x))) ** 2)


def _state(obj):
    """Every array and scalar a save would write, as exact bytes."""
    s = serializers.DictionarySerializer()
    s.save(obj)
    return {k: (v.dtype.str, v.shape, v.tobytes()) for k, v in s.target.items()}


def _arrays(obj):
    s = serializers.DictionarySerializer()
    s.save(obj)
    return dict(s.target)


def _npz(arrays):
    buf = io.BytesIO()
    numpy.savez(buf, **arrays)
    buf.seek(0)
    return buf


def _member(name, header, body):
    """An npz whose single member has the given header and raw body."""
    member = io.BytesIO()
    npy_format.write_array_header_1_0(member, header)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr(name + '.npy', member.getvalue() + body)
    buf.seek(0)
    return buf


def test_pickled_object_is_refused_and_not_run(tmp_path):
    marker = tmp_path / 'ran'
    evil = numpy.empty((3, 2), object)
    evil[...] = _OpenOnUnpickle(str(marker))
    path = str(tmp_path / 'evil.npz')
    numpy.savez(path, W=evil, b=numpy.zeros(3, numpy.float32))
    link = L.Linear(2, 3)
    before = _state(link)
    with pytest.raises(ValueError, match="'W'.*object array"):
        serializers.load_npz(path, link)
    assert not marker.exists()
    # Even through a file the caller opened with allow_pickle=True.
    with numpy.load(path, allow_pickle=True) as f:
        with pytest.raises(ValueError, match="'W'.*object array"):
            serializers.NpzDeserializer(f).load(link)
    assert not marker.exists()
    assert _state(link) == before
    # The file does run code when unpickled: the checks above mean something.
    with numpy.load(path, allow_pickle=True) as f:
        f['W']
    assert marker.exists()


def test_zero_dim_object_other_than_none_is_refused(tmp_path):
    marker = tmp_path / 'ran'
    evil = numpy.empty((), object)
    evil[()] = _OpenOnUnpickle(str(marker))
    link = chainerlite.Link()
    link.add_persistent('extra', None)
    with pytest.raises(ValueError, match="'extra'.*object array"):
        serializers.load_npz(_npz({'extra': evil}), link)
    assert not marker.exists() and link.extra is None


def test_saved_none_loads_without_unpickling(monkeypatch):
    src = chainerlite.Link()
    src.add_persistent('extra', None)
    buf = io.BytesIO()
    serializers.save_npz(buf, src)
    buf.seek(0)

    def refuse(*args, **kwargs):
        raise AssertionError('unpickled')

    monkeypatch.setattr(pickle, 'load', refuse)
    monkeypatch.setattr(pickle, 'loads', refuse)
    monkeypatch.setattr(pickle, 'Unpickler', refuse)
    dst = chainerlite.Link()
    dst.add_persistent('extra', 3)
    serializers.load_npz(buf, dst)
    assert dst.extra is None


def _corrupt(arrays, key, how):
    arrays = dict(arrays)
    value = arrays[key]
    if how == 'missing':
        del arrays[key]
    elif how == 'shape':
        arrays[key] = numpy.zeros(value.shape + (2,), value.dtype)
    elif how == 'dtype':
        arrays[key] = value.astype(numpy.complex64)
    elif how == 'overflow':
        arrays[key] = numpy.full(value.shape, 1e300)
    elif how == 'object':
        arrays[key] = numpy.array([[1], 'a'], object)
    return _npz(arrays)


# Each key of the file in turn is the bad one (a Python int has no range).
_NET_CASES = [
    (key, how)
    for key in sorted(_arrays(_Net(0)))
    for how in ('missing', 'shape', 'dtype', 'overflow', 'object')
    if (key, how) != ('count', 'overflow')
]


@pytest.mark.parametrize('key, how', _NET_CASES)
def test_failed_load_leaves_link_unchanged(key, how):
    bad = _corrupt(_arrays(_Net(1)), key, how)
    dst = _Net(2)
    before = _state(dst)
    with pytest.raises((KeyError, ValueError, TypeError), match=repr(key)):
        serializers.load_npz(bad, dst)
    assert _state(dst) == before


def _trained_adam(seed):
    model = _Net(seed)
    opt = optimizers.Adam().setup(model)
    rng = numpy.random.RandomState(seed)
    for _ in range(2):
        opt.update(model, rng.uniform(-1, 1, (4, 2)).astype(numpy.float32))
    return opt


@pytest.mark.parametrize('how', ['missing', 'shape', 'overflow'])
def test_failed_load_leaves_optimizer_unchanged(how):
    arrays = _arrays(_trained_adam(1))
    last = max(k for k in arrays if k.endswith('/v'))
    opt = _trained_adam(2)
    before = _state(opt)
    with pytest.raises((KeyError, ValueError), match=repr(last)):
        serializers.load_npz(_corrupt(arrays, last, how), opt)
    assert _state(opt) == before


@pytest.mark.parametrize(
    'stored, error, match',
    [
        (numpy.array([None, 1], object), ValueError, 'object array'),
        (numpy.zeros(2, 'i4,f4'), ValueError, 'unsupported dtype'),
        (None, KeyError, ''),
    ],
)
def test_failed_load_leaves_fresh_optimizer_without_state(stored, error, match):
    # The rules have no state yet and ask for each of its entries by name:
    # the bad (or missing) entry is the last one.
    arrays = _arrays(_trained_adam(1))
    last = max(k for k in arrays if k.endswith('/v'))
    if stored is None:
        del arrays[last]
    else:
        arrays[last] = stored
    opt = optimizers.Adam().setup(_Net(2))
    with pytest.raises(error, match=repr(last) + '.*' + match):
        serializers.load_npz(_npz(arrays), opt)
    assert all(p.update_rule.state is None for p in opt.target.params())
    assert opt.t == 0


def test_fresh_optimizer_loads_state():
    src = _trained_adam(1)
    opt = optimizers.Adam().setup(_Net(2))
    serializers.load_npz(_npz(_arrays(src)), opt)
    assert _state(opt) == _state(src)


_HUGE = {'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000)}


def _zeros_npz():
    buf = io.BytesIO()
    numpy.savez_compressed(buf, W=numpy.zeros((2000, 2000)))  # 32 MB
    buf.seek(0)
    return buf


@pytest.mark.parametrize(
    'make_file, target, match',
    [
        (_zeros_npz, lambda: L.Linear(2, 3), "shape mismatch for key 'W'"),
        (
            lambda: _member('W', _HUGE, b'\0' * 64),
            lambda: L.Linear(2, 3),
            r"'W' declares shape \(100000, 100000\)",
        ),
        (
            lambda: _member('W', _HUGE, b'\0' * 64),
            lambda: L.Linear(3),
            r"'W' declares shape \(100000, 100000\)",
        ),
    ],
)
def test_large_member_fails_before_its_data_is_inflated(make_file, target, match):
    bad, link = make_file(), target()
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=match):
            serializers.load_npz(bad, link, strict=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20


def test_truncated_member_is_an_error():
    header = {'descr': '<f4', 'fortran_order': False, 'shape': (3, 2)}
    with pytest.raises(ValueError, match="'W'.*holds 8 bytes"):
        serializers.load_npz(
            _member('W', header, b'\0' * 8), L.Linear(2, 3), strict=False
        )


def test_member_that_is_not_npy_is_an_error():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as z:
        z.writestr('W.npy', b'not an array')
    buf.seek(0)
    with pytest.raises(ValueError, match="'W' is not a valid .npy member"):
        serializers.load_npz(buf, L.Linear(2, 3), strict=False)


def test_single_npy_file_is_not_an_archive():
    buf = io.BytesIO()
    numpy.save(buf, numpy.zeros(3))
    buf.seek(0)
    with pytest.raises(ValueError, match='load_npz.*not an npz archive'):
        serializers.load_npz(buf, L.Linear(2, 3))


@pytest.mark.parametrize('content', [b'not an archive', b'\x80\x04K\x01.'])
def test_file_of_other_bytes_is_also_chainers_unpickling_error(content):
    # Chainer tries such a file as a pickle (UnpicklingError for junk);
    # chainerlite's ValueError was not that type
    link = L.Linear(2, 3)
    before = link.W.array.copy()
    with pytest.raises(ValueError, match='neither an npz archive') as info:
        serializers.load_npz(io.BytesIO(content), link)
    assert isinstance(info.value, pickle.UnpicklingError)
    numpy.testing.assert_array_equal(link.W.array, before)


def test_overflow_names_key_and_dtype():
    arrays = _arrays(L.Linear(2, 3))
    arrays['W'] = numpy.full((3, 2), 1e300)
    with pytest.raises(ValueError, match="'W'.*range of float32"):
        serializers.load_npz(_npz(arrays), L.Linear(2, 3))


def test_integer_overflow_names_key():
    link = chainerlite.Link()
    link.add_persistent('ids', numpy.zeros(2, numpy.int32))
    arrays = {'ids': numpy.array([1, 2**40])}
    with pytest.raises(ValueError, match="'ids'.*range of int32"):
        serializers.load_npz(_npz(arrays), link)
    numpy.testing.assert_array_equal(link.ids, [0, 0])
    serializers.load_npz(_npz({'ids': numpy.array([-5, 2**31 - 1])}), link)
    numpy.testing.assert_array_equal(link.ids, [-5, 2**31 - 1])


def test_non_finite_values_of_the_file_are_kept():
    arrays = _arrays(L.Linear(2, 3))
    arrays['W'] = numpy.array([[numpy.inf, -numpy.inf], [numpy.nan, 1e300], [0, 1]])
    arrays['W'][1, 1] = 2.0
    link = L.Linear(2, 3)
    serializers.load_npz(_npz(arrays), link)
    assert link.W.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        link.W.array, [[numpy.inf, -numpy.inf], [numpy.nan, 2], [0, 1]]
    )


def test_incompatible_dtype_is_a_type_error_naming_key():
    arrays = _arrays(L.Linear(2, 3))
    arrays['W'] = arrays['W'].astype(numpy.complex64)
    with pytest.raises(TypeError, match="complex64 data of key 'W'.*float32"):
        serializers.load_npz(_npz(arrays), L.Linear(2, 3))


@pytest.mark.parametrize(
    'stored',
    [
        numpy.asfortranarray(numpy.arange(6.0).reshape(3, 2)),
        numpy.arange(6.0, dtype='>f4').reshape(3, 2),
        numpy.arange(6, dtype=numpy.int16).reshape(3, 2),
    ],
)
def test_layouts_and_byte_orders_load(stored):
    link = L.Linear(2, 3)
    serializers.load_npz(_npz({'W': stored}), link, strict=False)
    assert link.W.dtype == numpy.float32
    numpy.testing.assert_array_equal(link.W.array, stored)


def test_text_persistent_round_trips():
    src = chainerlite.Link()
    src.add_persistent('log', '[{"loss": 1.5}]')
    dst = chainerlite.Link()
    dst.add_persistent('log', '')
    serializers.load_npz(_npz(_arrays(src)), dst)
    assert dst.log == '[{"loss": 1.5}]'


def test_scalar_target_needs_one_value():
    link = chainerlite.Link()
    link.add_persistent('count', 0)
    with pytest.raises(ValueError, match="'count'.*shape \\(2,\\)"):
        serializers.load_npz(_npz({'count': numpy.arange(2)}), link)
    serializers.load_npz(_npz({'count': numpy.array([4])}), link)
    assert link.count == 4 and type(link.count) is int


def test_npz_deserializer_on_a_numpy_npz_file(tmp_path):
    # Chainer's cases, on a file opened by numpy.load as a caller would.
    data = numpy.random.RandomState(0).uniform(-1, 1, (2, 3))
    path = str(tmp_path / 'f.npz')
    numpy.savez_compressed(
        path,
        y=data.astype(numpy.float32),
        z=numpy.asarray(10),
        w=None,
        zf32=numpy.array(-(2**60), numpy.float32),
        zi64=numpy.array(-(2**60), numpy.int64),
    )
    with numpy.load(path) as f:
        d = serializers.NpzDeserializer(f)
        half = numpy.empty((2, 3), numpy.float16)
        assert d('/y', half) is half
        numpy.testing.assert_array_equal(half, data.astype(numpy.float16))
        assert d('z', 5) == 10
        assert d('zi64', 5) == -(2**60)
        with pytest.raises(TypeError):
            d('zi64', numpy.uint32(5))
        with pytest.raises(TypeError):
            d('zf32', 5)
        assert d('w', None) is None
        assert d('w', numpy.empty(1, numpy.float32)) is None
        with pytest.raises(KeyError, match="'x/y'"):
            d['x']('y', None)


@attr.gpu
def test_gpu_link_loads_in_place_and_fails_unchanged():
    arrays = _arrays(L.Linear(2, 3))
    arrays['W'] = numpy.asfortranarray(arrays['W'].astype(numpy.float64))
    link = L.Linear(2, 3).to_device('@cupy:0')
    w = link.W.array
    serializers.load_npz(_npz(arrays), link)
    assert link.W.array is w
    numpy.testing.assert_array_equal(cuda.to_cpu(w), arrays['W'])
    before = _state(link)
    arrays['b'] = numpy.full(3, 1e300)
    arrays['W'] = arrays['W'] + 1
    with pytest.raises(ValueError, match="'b'.*range of float32"):
        serializers.load_npz(_npz(arrays), link)
    assert _state(link) == before


@pytest.mark.parametrize(
    'key, stored',
    [
        ('N', numpy.array([1, 2])),  # an array for a Python int
        ('N', numpy.array('many')),  # a string for a Python int
        ('avg_var', numpy.array([None, None], object)),  # Python objects
    ],
)
def test_values_chainer_fails_on_raise_both_of_its_error_types(key, stored):
    # Chainer 7.8.1 raises TypeError or ValueError here by the value (int()
    # of an array or of a string, copying objects into a float array);
    # chainerlite's error is both, and nothing is loaded
    bn = L.BatchNormalization(2)
    arrays = dict(_arrays(bn), **{key: stored})
    before = _state(bn)
    with pytest.raises(TypeError) as info:
        serializers.load_npz(_npz(arrays), bn)
    assert isinstance(info.value, ValueError)
    assert _state(bn) == before


def test_a_single_npy_file_raises_both_error_types(tmp_path):
    path = tmp_path / 'one.npy'
    numpy.save(path, numpy.zeros(3))
    with pytest.raises(TypeError) as info:
        serializers.load_npz(str(path), L.Linear(1, 3))
    assert isinstance(info.value, ValueError)
