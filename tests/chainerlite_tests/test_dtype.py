"""get_dtype, config.dtype and mixed16."""

import copy
import os
import pickle
import subprocess
import sys

import numpy

import chainerlite


def test_get_dtype_follows_config():
    for dtype in (numpy.float16, numpy.float32, numpy.float64):
        with chainerlite.using_config('dtype', dtype):
            assert chainerlite.get_dtype() == numpy.dtype(dtype)
    with chainerlite.using_config('dtype', numpy.float64):
        assert chainerlite.get_dtype(numpy.float16) == numpy.float16


def test_mixed16_is_float16_unless_mapped():
    mixed16 = chainerlite.mixed16
    assert numpy.dtype(mixed16) == numpy.float16
    assert repr(mixed16) == "dtype('mixed16')"
    with chainerlite.using_config('dtype', mixed16):
        assert chainerlite.get_dtype() == numpy.float16
        assert chainerlite.get_dtype(map_mixed16=numpy.float32) == (numpy.float32)
    with chainerlite.using_config('dtype', numpy.float64):
        assert chainerlite.get_dtype(mixed16) == numpy.float16
        assert (
            chainerlite.get_dtype(mixed16, map_mixed16=numpy.float32) == numpy.float32
        )
        # map_mixed16 only maps mixed16
        assert chainerlite.get_dtype(map_mixed16=numpy.float32) == (numpy.float64)


def test_mixed16_keeps_its_identity_through_copies():
    mixed16 = chainerlite.mixed16
    assert copy.deepcopy(mixed16) is mixed16
    assert pickle.loads(pickle.dumps(mixed16)) is mixed16


def test_chainer_dtype_environment_variable_accepts_mixed16():
    env = dict(os.environ, CHAINER_DTYPE='mixed16')
    script = (
        'import chainerlite; '
        'assert chainerlite.config.dtype is chainerlite.mixed16; '
        'print(chainerlite.get_dtype())'
    )
    out = subprocess.run(
        [sys.executable, '-c', script],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == 'float16'


def test_get_array_types():
    types = chainerlite.get_array_types()
    assert numpy.ndarray in types
    assert isinstance(numpy.zeros(1), types)
