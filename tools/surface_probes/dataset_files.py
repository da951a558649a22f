"""chainer.dataset's files, offline: the dataset root, dataset
directories, cached_download of a file:// URL (where the copy goes, its
name, what is written to stderr, the second call) and cache_or_load_file,
all under a temporary root."""

import contextlib
import hashlib
import io
import os
import tempfile

from tools.surface_probes import _values

attempt = _values.attempt


@contextlib.contextmanager
def _root(c):
    ds = c.chainer.dataset
    old = ds.get_dataset_root()
    with tempfile.TemporaryDirectory() as d:
        ds.set_dataset_root(os.path.join(d, 'root'))
        try:
            yield d
        finally:
            ds.set_dataset_root(old)


def _files(folder):
    # the files a user sees (lock files left out)
    return sorted(n for n in os.listdir(folder) if 'lock' not in n)


def _relative(path, d):
    return os.path.relpath(path, d) if isinstance(path, str) else path


def dataset_root_and_directories(c):
    ds = c.chainer.dataset
    with _root(c) as d:
        root = ds.get_dataset_root()
        made = ds.get_dataset_directory('pfnet/mine')
        not_made = ds.get_dataset_directory('other', create_directory=False)
        again = ds.get_dataset_directory('pfnet/mine')
        out = [
            _relative(root, d),
            _relative(made, d),
            os.path.isdir(made),
            _relative(not_made, d),
            os.path.exists(not_made),
            again == made,
        ]
        with open(os.path.join(root, 'file'), 'w') as f:
            f.write('x')
        out.append(attempt(lambda: ds.get_dataset_directory('file')))
    return out


def cached_download_of_a_file_url(c):
    ds = c.chainer.dataset
    with _root(c) as d:
        src = os.path.join(d, 'source.txt')
        with open(src, 'w') as f:
            f.write('payload')
        url = 'file://' + src
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            first = ds.cached_download(url)
        with open(first) as f:
            content = f.read()
        os.remove(src)
        second_err = io.StringIO()
        with contextlib.redirect_stderr(second_err):
            second = ds.cached_download(url)
        listing = _files(os.path.join(ds.get_dataset_root(), '_dl_cache'))
        missing = attempt(lambda: ds.cached_download('file://' + src + '.none'))
        return [
            os.path.dirname(_relative(first, d)),
            os.path.basename(first) == hashlib.md5(url.encode('utf-8')).hexdigest(),
            content,
            err.getvalue().replace(d, '<d>'),
            second == first,
            second_err.getvalue(),
            listing == [os.path.basename(first)],
            missing,
        ]


def cache_or_load(c):
    ds = c.chainer.dataset
    calls = []

    def creator(path):
        calls.append(['create', os.path.basename(path), os.path.exists(path)])
        with open(path, 'w') as f:
            f.write('made')
        return 'created content'

    def loader(path):
        calls.append(['load', os.path.basename(path)])
        with open(path) as f:
            return f.read()

    with _root(c) as d:
        path = os.path.join(ds.get_dataset_root(), 'data.txt')
        first = ds.cache_or_load_file(path, creator, loader)
        second = ds.cache_or_load_file(path, creator, loader)
        listing = _files(ds.get_dataset_root())

        def broken(path):
            raise KeyError('creator failed')

        crashed = attempt(
            lambda: ds.cache_or_load_file(os.path.join(d, 'y.txt'), broken, loader)
        )
        return [first, second, calls, listing, crashed]


def cache_or_load_into_a_missing_folder(c):
    ds = c.chainer.dataset

    def creator(path):
        with open(path, 'w') as f:
            f.write('made')
        return 'created content'

    with _root(c) as d:
        elsewhere = os.path.join(d, 'elsewhere', 'x.txt')
        return attempt(lambda: ds.cache_or_load_file(elsewhere, creator, None))


PROBES = _values.probes(globals(), __name__)
