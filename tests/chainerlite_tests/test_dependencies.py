"""What ``pip install chainerlite`` brings: NumPy, and oneDNN's CPU build
where its wheels exist (glibc Linux x86-64; setup.py's ``_dependencies``)."""

import importlib.metadata
import platform
import re
import sys

import pytest


_GLIBC_X86_64 = (
    sys.platform == 'linux'
    and platform.machine() == 'x86_64'
    and platform.libc_ver()[0] == 'glibc'
)


def _requirements():
    return [
        re.split(r'[ ;<>=!~\[]', r, maxsplit=1)[0].lower()
        for r in importlib.metadata.requires('chainerlite') or []
        if 'extra ==' not in r
    ]


@pytest.mark.skipif(not _GLIBC_X86_64, reason='oneDNN wheels: glibc x86-64 only')
def test_onednn_installs_with_chainerlite_on_glibc_x86_64():
    # a PyTorch user gets oneDNN with the package: pip install chainerlite
    # brings the CPU build (setup.py's _dependencies)
    assert 'onednn-cpu-gomp' in _requirements()
    assert 'numpy' in _requirements()


@pytest.mark.skipif(_GLIBC_X86_64, reason='the other platforms')
def test_no_onednn_requirement_where_no_wheel_exists():
    assert _requirements() == ['numpy']
