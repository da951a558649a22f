import pytest

from chainerlite.dataset import download


@pytest.fixture
def dataset_root(tmp_path):
    """An empty dataset root for the test; nothing can be downloaded."""
    saved = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))

    def offline(url, path):
        raise OSError('offline test')

    original = download._urlretrieve
    download._urlretrieve = lambda: offline
    yield tmp_path
    download._urlretrieve = original
    download.set_dataset_root(saved)
