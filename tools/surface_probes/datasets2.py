"""chainer.datasets helpers that run offline, beyond data.py: splits and
their refusals, cross validation folds, SubDataset, TupleDataset and
DictDataset indexing and errors, ConcatenatedDataset and TransformDataset
edges, DatasetMixin indexing, concat_examples and to_device, the converter
decorator, text, pickle and image datasets on files made in a temporary
folder."""

import io
import os
import pickle
import tempfile
import warnings

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _mixin(c, n=6):
    class Counting(c.chainer.dataset.DatasetMixin):
        def __len__(self):
            return n

        def get_example(self, i):
            return i * 10

    return Counting()


def mixin_indexing(c):
    d = _mixin(c)
    return [
        d[2],
        d[-1],
        d[::2],
        d[::-1],
        d[-2:],
        d[4:1:-2],
        d[10:],
        d[[1, 1, 0]],
        d[numpy.array([5, 2])],
        d[numpy.int64(3)],
        attempt(lambda: d[(1, 2)]),
        attempt(lambda: c.chainer.dataset.DatasetMixin()[0]),
        attempt(lambda: len(c.chainer.dataset.DatasetMixin())),
        attempt(lambda: c.chainer.dataset.DatasetMixin()[0:1]),
    ]


def split_arguments(c):
    D = c.chainer.datasets
    base = list(range(6))
    return [
        attempt(lambda: D.split_dataset(base, 2.0)),
        attempt(lambda: D.split_dataset(base, -1)),
        attempt(lambda: D.split_dataset(base, 7)),
        attempt(lambda: [list(p) for p in D.split_dataset(base, numpy.int32(6))]),
        attempt(lambda: [list(p) for p in D.split_dataset(base, 0)]),
        attempt(lambda: D.split_dataset(base, 2, order=[0, 1])),
        [list(p) for p in D.split_dataset(base, 4, order=[5, 4, 3, 2, 1, 0])],
        [list(p) for p in D.split_dataset_random(base, 2, seed=0)],
        [list(p) for p in D.split_dataset_random(base, 6, seed=3)],
        attempt(lambda: D.split_dataset_random(base, 7, seed=0)),
    ]


def split_n(c):
    D = c.chainer.datasets
    base = list(range(7))
    return [
        [list(p) for p in D.split_dataset_n(base, 3)],
        [list(p) for p in D.split_dataset_n(base, 2, order=list(range(7))[::-1])],
        [list(p) for p in D.split_dataset_n_random(base, 3, seed=4)],
        [list(p) for p in D.split_dataset_n(base, 7)],
        [list(p) for p in D.split_dataset_n(base, 8)],
        attempt(lambda: D.split_dataset_n(base, 0)),
    ]


def cross_validation(c):
    D = c.chainer.datasets
    base = list(range(7))
    out = []
    for n in (2, 3, 7):
        folds = D.get_cross_validation_datasets(base, n)
        out.append([(list(x), list(y)) for x, y in folds])
    order = [6, 5, 4, 3, 2, 1, 0]
    folds = D.get_cross_validation_datasets(base, 3, order=order)
    out.append([(list(x), list(y)) for x, y in folds])
    out.append(order)
    folds = D.get_cross_validation_datasets_random(base, 2, seed=9)
    out.append([(list(x), list(y)) for x, y in folds])
    return out


def cross_validation_old_keyword(c):
    D = c.chainer.datasets
    base = list(range(4))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter('always')
        folds = D.get_cross_validation_datasets(base, n_fold=2)
        rfolds = D.get_cross_validation_datasets_random(base, None, seed=1, n_fold=2)
    return [
        [(list(x), list(y)) for x, y in folds],
        [(list(x), list(y)) for x, y in rfolds],
        [w.category.__name__ for w in seen],
        attempt(lambda: D.get_cross_validation_datasets(base, 0)),
    ]


def sub_dataset_edges(c):
    D = c.chainer.datasets
    base = list(range(10))
    sub = D.SubDataset(base, 3, 7)
    return [
        len(sub),
        sub[0],
        sub[-1],
        sub[-4],
        sub[1:3],
        sub[::-1],
        attempt(lambda: sub[4]),
        attempt(lambda: sub[-5]),
        attempt(lambda: D.SubDataset(base, -1, 3)),
        attempt(lambda: D.SubDataset(base, 0, 11)),
        attempt(lambda: D.SubDataset(base, 0, 3, order=[1, 2])),
        len(D.SubDataset(base, 5, 5)),
        attempt(lambda: len(D.SubDataset(base, 6, 2))),
        list(D.SubDataset(base, 1, 4, order=numpy.arange(10)[::-1])),
    ]


def tuple_dataset_forms(c):
    D = c.chainer.datasets
    x = numpy.arange(12).reshape(6, 2)
    t = D.TupleDataset(x, list(range(6)))
    return [
        t[1],
        t[-1],
        t[1:4:2],
        t[::-3],
        attempt(lambda: t[[0, 2]]),
        attempt(lambda: t[numpy.array([0, 2])]),
        attempt(lambda: D.TupleDataset()),
        attempt(lambda: D.TupleDataset(x, [1, 2])),
        attempt(lambda: t[6]),
        len(D.TupleDataset(x)),
        D.TupleDataset(x)[0],
        D.TupleDataset(numpy.zeros((0, 3)))[:],
    ]


def dict_dataset_forms(c):
    D = c.chainer.datasets
    x = numpy.arange(12).reshape(6, 2)
    d = D.DictDataset(a=x, b=list(range(6)))
    return [
        d[1],
        d[-1],
        d[1:4:2],
        attempt(lambda: d[numpy.array([0, 2])]),
        attempt(lambda: D.DictDataset()),
        attempt(lambda: D.DictDataset(a=x, b=[1, 2])),
        attempt(lambda: d[6]),
        len(d),
        D.DictDataset(a=numpy.zeros((0, 3)))[:],
    ]


def concatenated_edges(c):
    D = c.chainer.datasets
    cat = D.ConcatenatedDataset([0, 1], [], numpy.array([2, 3, 4]))
    return [
        len(cat),
        [cat[i] for i in range(len(cat))],
        cat[1:4],
        cat[::-1],
        attempt(lambda: cat[-1]),
        attempt(lambda: cat[5]),
        len(D.ConcatenatedDataset()),
        attempt(lambda: D.ConcatenatedDataset()[0]),
    ]


def transform_dataset_edges(c):
    D = c.chainer.datasets
    seen = []

    def double(v):
        seen.append(v)
        return v * 2

    tr = D.TransformDataset(D.TupleDataset([1, 2, 3], [4, 5, 6]), double)
    return [
        len(tr),
        tr[0],
        tr[-1],
        tr[1:],
        tr[[2, 0]],
        seen,
        attempt(lambda: tr[3]),
        attempt(lambda: D.TransformDataset([1], None)[0]),
    ]


def concat_examples_edges(c):
    conv = c.chainer.dataset.concat_examples
    ragged = [numpy.ones((1, 3), 'f'), numpy.ones((2, 1), 'f')]
    return [
        attempt(lambda: conv([])),
        attempt(lambda: conv([1, 2, 3])),
        attempt(lambda: conv([1.5, 2])),
        attempt(lambda: conv([[1, 2], [3, 4]])),
        attempt(lambda: conv([(1, 2.0), (3, 4.0)])),
        attempt(lambda: conv([numpy.ones(2), numpy.ones(3)])),
        attempt(lambda: conv(ragged, padding=0)),
        attempt(lambda: conv(ragged, padding=numpy.nan)),
        attempt(lambda: conv([numpy.ones(2, 'i')] * 2, padding=0.5)),
        attempt(
            lambda: conv([{'a': numpy.ones(1), 'b': 2}] * 2, padding={'a': 0, 'b': 1})
        ),
        attempt(lambda: conv([{'a': numpy.ones(1)}] * 2, padding={'b': 0})),
        attempt(lambda: conv([(numpy.ones(2), 1)] * 2, padding=(0,))),
        attempt(lambda: conv([numpy.float16(1), numpy.float16(2)])),
        attempt(lambda: conv([numpy.zeros((0, 2))] * 3)),
        attempt(lambda: conv([numpy.ones(2)], device=-1)),
        attempt(lambda: conv([numpy.ones(2)], -1)),
        attempt(lambda: conv([numpy.ones(2)], '@numpy')),
        attempt(lambda: conv([numpy.ones(2)], device=None, padding=None)),
        attempt(lambda: conv(batch=[numpy.ones(2)], device='@numpy')),
    ]


def concat_examples_of_dicts_in_tuples(c):
    conv = c.chainer.dataset.concat_examples
    return attempt(lambda: conv([({'a': 1},), ({'a': 2},)]))


def to_device_forms(c):
    to_device = c.chainer.dataset.to_device
    x = numpy.arange(3)
    return [
        to_device(None, x) is x,
        to_device(-1, x),
        to_device('@numpy', x),
        attempt(lambda: to_device(-1, [1, 2])),
        attempt(lambda: to_device(-1, None)),
        attempt(lambda: to_device('@bogus', x)),
        attempt(lambda: to_device(-2, x)),
    ]


def converter_decorator(c):
    ch = c.chainer
    seen = []

    @ch.dataset.converter()
    def conv(batch, device=None, extra=0):
        seen.append(
            [type(device).__name__, str(device) if device is not None else None]
        )
        return len(batch) + extra

    return [
        isinstance(conv, ch.dataset.Converter),
        conv([1, 2]),
        conv([1], -1),
        conv([1], device='@numpy', extra=5),
        conv([1], None),
        attempt(lambda: conv([1], '@bogus')),
        seen,
        attempt(lambda: ch.dataset.converter()(5)),
        attempt(lambda: ch.dataset.Converter()([1], None)),
    ]


def text_dataset(c):
    D = c.chainer.datasets
    with tempfile.TemporaryDirectory() as d:
        a = os.path.join(d, 'a.txt')
        b = os.path.join(d, 'b.txt')
        short = os.path.join(d, 's.txt')
        with open(a, 'w') as f:
            f.write('one\ntwo\n\nfour')
        with open(b, 'w') as f:
            f.write('1\n2\n3\n4\n')
        with open(short, 'w') as f:
            f.write('x\n')
        single = D.TextDataset(a)
        pair = D.TextDataset([a, b])
        picked = D.TextDataset([a, b], filter_func=lambda x, y: int(y) % 2 == 0)
        out = [
            len(single),
            [single[i] for i in range(len(single))],
            single[1:3],
            len(pair),
            pair[0],
            pair[3],
            len(picked),
            picked[:],
            attempt(lambda: single[4]),
            attempt(lambda: single[-1]),
            attempt(lambda: D.TextDataset([])),
            attempt(lambda: D.TextDataset([a, short])),
            attempt(lambda: D.TextDataset([a, b], encoding=['utf-8'])),
            pickle.loads(pickle.dumps(pair))[2],
        ]
        for ds in (single, pair, picked):
            ds.close()
    return out


def pickle_dataset(c):
    D = c.chainer.datasets
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'p.pkl')
        with D.open_pickle_dataset_writer(path) as w:
            w.write({'a': 1})
            w.write(numpy.arange(3))
            w.write('text')
            w.flush()
        with D.open_pickle_dataset(path) as ds:
            out = [len(ds), ds[0], ds[1], ds[-1], ds[0:2], ds[[2, 0]]]
            out.append(attempt(lambda: ds[3]))
    buf = io.BytesIO()
    w = D.PickleDatasetWriter(buf, protocol=2)
    w.write(5)
    w.write((6, 7))
    ds = D.PickleDataset(buf)
    out += [len(ds), ds[1], type(ds).__mro__[1].__name__]

    class Stream(io.RawIOBase):
        def seekable(self):
            return False

    out.append(attempt(lambda: D.PickleDataset(Stream())))
    return out


def pickle_dataset_pickled(c):
    D = c.chainer.datasets
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'p.pkl')
        with D.open_pickle_dataset_writer(path, protocol=2) as w:
            for v in ('a', [1, 2], None):
                w.write(v)
        ds = D.open_pickle_dataset(path)
        back = pickle.loads(pickle.dumps(ds))
        out = [len(back), back[1], back[2], back[:]]
        ds.close()
        back.close()
        out.append(attempt(lambda: ds[0]))
        buf = io.BytesIO()
        w = D.PickleDatasetWriter(buf)
        w.write(1)
        w.close()
        out.append(buf.closed)
    return out


def image_datasets(c):
    D = c.chainer.datasets
    try:
        from PIL import Image
    except ImportError:
        return [
            attempt(lambda: D.ImageDataset(['a.png'])),
            attempt(lambda: D.LabeledImageDataset([('a.png', 0)])),
        ]
    out = []
    with tempfile.TemporaryDirectory() as d:
        rgb = (numpy.arange(2 * 3 * 3) % 256).astype(numpy.uint8).reshape(2, 3, 3)
        gray = (numpy.arange(6) * 40).astype(numpy.uint8).reshape(2, 3)
        Image.fromarray(rgb).save(os.path.join(d, 'rgb.png'))
        Image.fromarray(gray).save(os.path.join(d, 'gray.png'))
        with open(os.path.join(d, 'list.txt'), 'w') as f:
            f.write('rgb.png\ngray.png\n')
        with open(os.path.join(d, 'pairs.txt'), 'w') as f:
            f.write('rgb.png 3\ngray.png 7\n')
        with open(os.path.join(d, 'bad.txt'), 'w') as f:
            f.write('rgb.png\n')
        images = D.ImageDataset(['rgb.png', 'gray.png'], root=d)
        out.append([len(images), images[0], images[1]])
        images = D.ImageDataset(os.path.join(d, 'list.txt'), root=d, dtype=numpy.uint8)
        out.append([len(images), images[0], images[1]])
        labeled = D.LabeledImageDataset(
            os.path.join(d, 'pairs.txt'), root=d, label_dtype=numpy.int64
        )
        out.append([len(labeled), labeled[0], labeled[1]])
        out.append(D.LabeledImageDataset([('gray.png', 2)], root=d, dtype='f')[0])
        out.append(attempt(lambda: D.LabeledImageDataset(os.path.join(d, 'bad.txt'))))
        out.append(attempt(lambda: D.ImageDataset(['none.png'], root=d)[0]))
        with c.chainer.using_config('dtype', numpy.float16):
            out.append(D.ImageDataset(['gray.png'], root=d)[0])
    return out


def concat_with_async_transfer_on_the_cpu(c):
    conv = c.chainer.dataset.ConcatWithAsyncTransfer()
    batch = [(numpy.ones(2, 'f') * i, numpy.int32(i)) for i in range(3)]
    dicts = [{'a': numpy.ones(1) * i} for i in range(2)]
    return [
        attempt(lambda: conv(batch)),
        attempt(lambda: conv(dicts)),
        attempt(lambda: conv([numpy.ones(2)] * 2, padding=0)),
        attempt(lambda: conv([])),
        attempt(lambda: conv(batch, None, (0, 0))),
        attempt(lambda: conv(batch, -1)),
        attempt(lambda: c.chainer.dataset.ConcatWithAsyncTransfer()(batch, -1)),
        conv.compute_stream,
    ]


def text_dataset_options(c):
    D = c.chainer.datasets
    with tempfile.TemporaryDirectory() as d:
        crlf = os.path.join(d, 'crlf.txt')
        latin = os.path.join(d, 'latin.txt')
        bom = os.path.join(d, 'bom.txt')
        blank_end = os.path.join(d, 'blank.txt')
        with open(crlf, 'wb') as f:
            f.write(b'one\r\ntwo\r\n')
        with open(latin, 'wb') as f:
            f.write(b'caf\xe9\nna\xefve\n')
        with open(bom, 'wb') as f:
            f.write(b'\xef\xbb\xbfhead\ntail')
        with open(blank_end, 'w') as f:
            f.write('x\n\n')
        out = []
        for args, kwargs in (
            ([crlf], {}),
            ([crlf], {'newline': ''}),
            ([crlf, crlf], {'newline': ['', None]}),
            ([latin], {'encoding': 'latin-1'}),
            ([latin], {'encoding': 'utf-8', 'errors': 'replace'}),
            ([latin], {'encoding': 'ascii', 'errors': 'ignore'}),
            ([bom], {'encoding': 'utf-8-sig'}),
            ([bom], {'encoding': 'utf-8'}),
            ([blank_end], {}),
            ([crlf, latin], {'encoding': [None, 'latin-1']}),
            ([crlf], {'filter_func': lambda line: line.startswith('t')}),
        ):
            ds = None

            def read():
                nonlocal ds
                ds = D.TextDataset(*args, **kwargs)
                return [len(ds), [ds[i] for i in range(len(ds))]]

            out.append(attempt(read))
            if ds is not None:
                ds.close()
        out.append(attempt(lambda: D.TextDataset([latin], encoding='utf-8')))
        out.append(attempt(lambda: D.TextDataset([crlf], newline=['', '', ''])))
        out.append(attempt(lambda: D.TextDataset(os.path.join(d, 'missing.txt'))))
    return out


def zipped_image_datasets_without_reading(c):
    import zipfile

    D = c.chainer.datasets
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, members in (
            ('a.zip', ['x.png', 'dir/', 'dir/y.png']),
            ('b.zip', ['z.png']),
        ):
            path = os.path.join(d, name)
            with zipfile.ZipFile(path, 'w') as z:
                for m in members:
                    z.writestr(m, b'' if m.endswith('/') else b'not an image')
            paths.append(path)
        labels = os.path.join(d, 'labels.txt')
        with open(labels, 'w') as f:
            f.write('x.png 3\ndir/y.png 4\n')
        bad = os.path.join(d, 'bad.txt')
        with open(bad, 'w') as f:
            f.write('x.png\n')
        out = []
        zipped = attempt(lambda: len(D.ZippedImageDataset(paths[0])))
        out.append(zipped)
        out.append(attempt(lambda: len(D.MultiZippedImageDataset(paths))))
        out.append(attempt(lambda: len(D.LabeledZippedImageDataset(paths[0], labels))))
        out.append(attempt(lambda: D.LabeledZippedImageDataset(paths[0], bad)))
        out.append(attempt(lambda: D.ZippedImageDataset(os.path.join(d, 'none.zip'))))
        out.append(
            attempt(
                lambda: len(pickle.loads(pickle.dumps(D.ZippedImageDataset(paths[1]))))
            )
        )
    return out


def private_attributes_tests_read(c):
    # attributes Chainer's own tests read
    D = c.chainer.datasets
    its = c.chainer.iterators
    x = numpy.arange(4)
    objects = {
        'TupleDataset': (D.TupleDataset(x, x), ('_datasets', '_length')),
        'DictDataset': (D.DictDataset(a=x), ('_datasets', '_length')),
        'ConcatenatedDataset': (D.ConcatenatedDataset(x, x), ('_datasets',)),
        'SubDataset': (
            D.SubDataset(x, 1, 3, order=x[::-1]),
            ('_dataset', '_start', '_finish', '_size', '_order'),
        ),
        'TransformDataset': (D.TransformDataset(x, abs), ('_dataset', '_transform')),
        'ShuffleOrderSampler': (
            its.ShuffleOrderSampler(numpy.random.RandomState(0)),
            ('_random',),
        ),
        'SerialIterator': (
            its.SerialIterator(list(x), 2, shuffle=False),
            ('_state', '_previous_epoch_detail', '_epoch_size', '_repeat', '_shuffle'),
        ),
    }
    out = {}
    for name, (obj, attrs) in objects.items():
        out[name] = [attempt(lambda a=a: getattr(obj, a)) for a in attrs]
    return out


PROBES = _values.probes(globals(), __name__)
