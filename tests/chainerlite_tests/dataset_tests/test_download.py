import hashlib
import importlib
import os

import pytest

from chainerlite.dataset import download


@pytest.fixture
def root(tmp_path):
    saved = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    yield tmp_path
    download.set_dataset_root(saved)


def test_dataset_directory_is_created_under_the_root(root):
    path = download.get_dataset_directory(os.path.join('a', 'b'))
    assert path == os.path.join(str(root), 'a', 'b') and os.path.isdir(path)
    assert download.get_dataset_directory('c', False) == str(root / 'c')
    assert not (root / 'c').exists()


def test_cache_or_load_file_creates_once(root):
    path = str(root / 'sub' / 'data.txt')
    calls = []

    def create(p):
        calls.append(p)
        with open(p, 'w') as f:
            f.write('made')
        return 'created'

    def load(p):
        with open(p) as f:
            return f.read()

    assert download.cache_or_load_file(path, create, load) == 'created'
    assert download.cache_or_load_file(path, create, load) == 'made'
    assert len(calls) == 1 and calls[0] != path


def test_creator_writes_a_file_of_the_targets_name(root):
    # as Chainer's: numpy.savez keeps a name ending in .npz as it is
    import numpy

    path = str(root / 'arrays.npz')
    seen = []

    def create(p):
        seen.append(os.path.basename(p))
        numpy.savez(p, x=numpy.arange(3))
        return 'created'

    def load(p):
        with numpy.load(p) as f:
            return f['x'].tolist()

    assert download.cache_or_load_file(path, create, load) == 'created'
    assert seen == ['arrays.npz']
    assert download.cache_or_load_file(path, create, load) == [0, 1, 2]


def test_cache_or_load_file_with_a_file_as_root(tmp_path):
    saved = download.get_dataset_root()
    (tmp_path / 'file').write_text('')
    download.set_dataset_root(str(tmp_path / 'file'))
    try:
        with pytest.raises(RuntimeError, match='dataset root'):
            download.cache_or_load_file(
                str(tmp_path / 'x'), lambda p: None, lambda p: None
            )
    finally:
        download.set_dataset_root(saved)


def test_cached_download_fetches_once(root, monkeypatch):
    fetched = []

    def fake_retrieve(url, path):
        fetched.append(url)
        with open(path, 'w') as f:
            f.write('payload')

    monkeypatch.setattr(download, '_urlretrieve', lambda: fake_retrieve)
    url = 'https://example.invalid/data.bin'
    path = download.cached_download(url)
    assert download.cached_download(url) == path
    assert fetched == [url]
    assert path == os.path.join(
        str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest()
    )
    with open(path) as f:
        assert f.read() == 'payload'
    assert os.listdir(os.path.join(str(root), '_dl_cache')) == [os.path.basename(path)]


def test_cached_download_fails_when_the_cache_is_a_file(root):
    (root / '_dl_cache').write_text('')
    with pytest.raises(OSError):
        download.cached_download('https://example.invalid/')


def test_root_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv('CHAINER_DATASET_ROOT', str(tmp_path))
    try:
        importlib.reload(download)
        assert download.get_dataset_root() == str(tmp_path)
    finally:
        monkeypatch.undo()
        importlib.reload(download)
    assert download.get_dataset_root() != str(tmp_path)
