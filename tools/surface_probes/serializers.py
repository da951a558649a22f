"""Serializers: save_npz/load_npz round trips (path, strict, ignore_names,
missing keys), DictionarySerializer and NpzDeserializer used directly, and
HDF5 where h5py is installed."""

import io
import os
import tempfile

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def _model(c, seed=0):
    ch = c.chainer
    numpy.random.seed(seed)
    m = ch.Chain()
    with m.init_scope():
        m.l = c.L.Linear(3, 2)
        m.bn = c.L.BatchNormalization(2)
    m.add_persistent('count', 3)
    m.add_persistent('rate', 0.5)
    m.add_persistent('flag', True)
    m.add_persistent('nothing', None)
    m.add_persistent('buf', numpy.arange(4, dtype=numpy.int32))
    return m


def _state(m):
    return [
        [(n, p.array) for n, p in m.namedparams()],
        m.bn.avg_mean,
        m.bn.N,
        [m.count, type(m.count).__name__],
        [m.rate, type(m.rate).__name__],
        [m.flag, type(m.flag).__name__],
        m.nothing,
        m.buf,
    ]


def _saved(c, obj, **kwargs):
    f = io.BytesIO()
    c.chainer.serializers.save_npz(f, obj, **kwargs)
    f.seek(0)
    return f


def npz_round_trip(c):
    src = _model(c)
    src.bn.avg_mean[...] = 2
    src.bn.N = 7
    src.count, src.rate, src.flag = 9, 1.5, False
    src.buf[...] = 8
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'm.npz')
        c.chainer.serializers.save_npz(path, src)
        dst = _model(c, 1)
        c.chainer.serializers.load_npz(path, dst)
        with numpy.load(path, allow_pickle=True) as z:
            keys = sorted(z.files)
            kinds = {k: [str(z[k].dtype), list(z[k].shape)] for k in z.files}
    return [_state(dst), keys, kinds]


def npz_compression_and_files(c):
    src = _model(c)
    out = []
    for compression in (True, False):
        f = _saved(c, src, compression=compression)
        dst = _model(c, 1)
        c.chainer.serializers.load_npz(f, dst)
        out.append(_state(dst))
    return out


def npz_of_a_dict(c):
    ch = c.chainer
    src = _model(c)
    inner = ch.serializers.DictionarySerializer(path='updater/model:main/')
    src.serialize(inner)
    inner.target['iteration'] = numpy.asarray(5)
    f = _saved(c, inner.target)
    dst = _model(c, 1)
    ch.serializers.load_npz(f, dst, path='updater/model:main/')
    return [sorted(inner.target)[:4], _state(dst)]


def load_missing_keys(c):
    ch = c.chainer
    src = c.L.Linear(3, 2)
    f = _saved(c, src)
    out = []
    dst = _model(c, 1)
    before = _state(dst)
    out.append(_try(lambda: ch.serializers.load_npz(f, dst)))
    f.seek(0)
    dst = _model(c, 1)
    ch.serializers.load_npz(f, dst, strict=False)
    out.append(_values.summary(_state(dst)) == _values.summary(before))
    f.seek(0)
    dst = _model(c, 1)
    ch.serializers.load_npz(f, dst, path='l/', strict=False)
    out.append(_state(dst))
    return out


def load_missing_key_message(c):
    # the error names the key (one parameter: the order of a link's set of
    # names does not choose which)
    ch = c.chainer
    src = ch.Chain()
    with src.init_scope():
        src.other = ch.Parameter(numpy.zeros(1, numpy.float32))
    dst = ch.Chain()
    with dst.init_scope():
        dst.inner = ch.Link()
        with dst.inner.init_scope():
            dst.inner.weight = ch.Parameter(numpy.zeros(1, numpy.float32))
    try:
        ch.serializers.load_npz(_saved(c, src), dst)
    except KeyError as e:
        return ['KeyError', 'inner/weight' in str(e)]
    return None


def load_ignore_names(c):
    ch = c.chainer
    src = _model(c)
    src.count = 11
    src.l.b.array[...] = 4
    out = []
    for ignore in ('count', ['count', 'l/b'], lambda k: k.startswith('bn/'), []):
        f = _saved(c, src)
        dst = _model(c, 1)
        ch.serializers.load_npz(f, dst, ignore_names=ignore)
        out.append([dst.count, dst.l.b.array, dst.bn.N])
    f = _saved(c, src)
    out.append(_try(lambda: ch.serializers.load_npz(f, _model(c, 1), ignore_names=3)))
    return out


def load_shape_and_type_mismatch(c):
    ch = c.chainer
    out = []
    f = _saved(c, c.L.Linear(4, 2))
    out.append(_try(lambda: ch.serializers.load_npz(f, c.L.Linear(3, 2))))
    d = ch.serializers.NpzDeserializer({'v': numpy.asarray(2.5)})
    out.append(_try(lambda: d('v', 3)))
    out.append(_try(lambda: d('v', 1.0)))
    d = ch.serializers.NpzDeserializer({'v': numpy.asarray(7, numpy.int64)})
    out.append(_try(lambda: d('v', 3)))
    out.append(_try(lambda: d('v', 1.0)))
    out.append(_try(lambda: d('v', True)))
    return out


def load_into_lazy_link(c):
    ch = c.chainer
    src = c.L.Linear(3, 2)
    f = _saved(c, src)
    dst = c.L.Linear(None, 2)
    ch.serializers.load_npz(f, dst)
    return [
        dst.W.array,
        dst.W.array.dtype.name,
        float(abs(dst.W.array - src.W.array).max()),
    ]


def load_uninitialized_saved(c):
    ch = c.chainer
    src = c.L.Linear(None, 2)
    f = _saved(c, src)
    with numpy.load(f, allow_pickle=True) as z:
        kinds = {k: str(z[k].dtype) for k in z.files}
    f.seek(0)
    dst = c.L.Linear(3, 2)
    ch.serializers.load_npz(f, dst)
    return [kinds, dst.W.array, dst.b.array]


def dictionary_serializer_direct(c):
    ch = c.chainer
    s = ch.serializers.DictionarySerializer()
    a = numpy.arange(3.0)
    out = [s('/x', a) is a, s('n', None), s('i', 4)]
    sub = s['/child/']['grand']
    sub('/v', 1.5)
    out.append(sorted(s.target))
    out.append({k: v for k, v in s.target.items()})
    out.append(s.target['x'] is a)
    out.append(sub.path)
    out.append(sorted(ch.serializers.npz.serialize(c.L.Linear(2, 2))))
    return out


def npz_deserializer_direct(c):
    ch = c.chainer
    data = {'a': numpy.arange(3.0), 'n': numpy.asarray(None), 'p/q': numpy.asarray(2)}
    d = ch.serializers.NpzDeserializer(data)
    target = numpy.zeros(3)
    out = [d('a', target) is target, target, d('n', 5), d('a', None)]
    out.append(d['p']('q', 0))
    out.append(type(d['p']('q', 0)).__name__)
    out.append(_try(lambda: d('missing', 1)))
    loose = ch.serializers.NpzDeserializer(data, strict=False)
    out.append(loose('missing', 1))
    out.append(loose['p'].path)
    return out


def optimizer_through_npz(c):
    ch = c.chainer
    numpy.random.seed(0)
    link = c.L.Linear(3, 2)
    opt = c.O.MomentumSGD()
    opt.setup(link)
    link.cleargrads()
    c.F.sum(link(numpy.ones((2, 3), numpy.float32))).backward()
    opt.update()
    opt.new_epoch()
    f = _saved(c, opt)
    with numpy.load(f, allow_pickle=True) as z:
        keys = sorted(z.files)
    f.seek(0)
    other = c.L.Linear(3, 2)
    opt2 = c.O.MomentumSGD()
    opt2.setup(other)
    ch.serializers.load_npz(f, opt2)
    return [keys, opt2.t, opt2.epoch, dict(other.W.update_rule.state)]


def _h5py():
    try:
        import h5py  # noqa: F401
    except ImportError:
        return False
    return True


def hdf5_round_trip(c):
    if not _h5py():
        return 'no h5py'
    ch = c.chainer
    src = _model(c)
    src.count = 4
    src.l.W.array[...] = 2
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'm.h5')
        ch.serializers.save_hdf5(path, src)
        dst = _model(c, 1)
        ch.serializers.load_hdf5(path, dst)
        import h5py

        with h5py.File(path, 'r') as h:
            names = []
            h.visit(names.append)
    return [_state(dst), sorted(names)]


def hdf5_missing_and_path(c):
    if not _h5py():
        return 'no h5py'
    ch = c.chainer
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'l.h5')
        ch.serializers.save_hdf5(path, c.L.Linear(3, 2))
        out = [_try(lambda: ch.serializers.load_hdf5(path, _model(c, 1)))]
        import h5py

        with h5py.File(path, 'r') as h:
            dst = c.L.Linear(3, 2)
            ch.serializers.HDF5Deserializer(h).load(dst)
            out.append(dst.W.array)
            loose = ch.serializers.HDF5Deserializer(h, strict=False)
            out.append(loose('missing', 5))
    return out


def persistents_across_kinds(c):
    # a persistent saved as one kind of value and loaded into another
    ch = c.chainer
    src = ch.Link()
    src.add_persistent('a', None)
    src.add_persistent('b', numpy.arange(3.0))
    src.add_persistent('c', 2.5)
    src.add_persistent('d', numpy.int64(4))
    f = _saved(c, src)
    out = []
    # (after an error, what was loaded depends on the order of a set)
    for a, b, cc, d in (
        (numpy.ones(2), None, 1.0, 0),
        (1, None, numpy.zeros(()), 1.0),
        (None, 7, 1.0, 0),
    ):
        dst = ch.Link()
        dst.add_persistent('a', a)
        dst.add_persistent('b', b)
        dst.add_persistent('c', cc)
        dst.add_persistent('d', d)
        f.seek(0)
        loaded = _try(lambda dst=dst: ch.serializers.load_npz(f, dst))
        out.append(loaded)
        if loaded[0] == 'ok':
            out.append(
                [dst.a, dst.b, dst.c, type(dst.c).__name__, dst.d, type(dst.d).__name__]
            )
    return out


PROBES = _values.probes(globals(), __name__)
