"""``__version__`` names the Chainer API level; chainerlite's own release
is ``__chainerlite_version__`` (docs/differences.rst)."""

import importlib.metadata

import chainerlite
from chainerlite import _runtime_info


def test_version_is_the_chainer_api_level():
    assert chainerlite.__version__ == '7.8.1'
    major, minor, patch = (int(p) for p in chainerlite.__version__.split('.'))
    assert (major, minor) >= (7, 0)


def test_own_version_is_the_distribution_version():
    assert chainerlite.__chainerlite_version__ == importlib.metadata.version(
        'chainerlite'
    )
    assert chainerlite.__chainerlite_version__ != chainerlite.__version__


def test_runtime_info_shows_both_versions():
    text = str(_runtime_info._get_runtime_info())
    lines = text.splitlines()
    # Chainer's report has 'Chainer: 7.8.1' (its tests look for __version__)
    assert 'Chainer: ' + chainerlite.__version__ in lines
    assert 'chainerlite: ' + chainerlite.__chainerlite_version__ in lines
