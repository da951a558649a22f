"""utils.force_array and backend.get_array_module (both compiled)."""

import os
import subprocess
import sys

import numpy
import pytest

import chainerlite
from chainerlite import backend
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.testing import attr


def test_force_array_returns_an_array_as_is():
    x = numpy.ones((2, 3), numpy.float32)
    assert utils.force_array(x) is x


@pytest.mark.parametrize(
    'value', [numpy.float32(2) * numpy.float32(3), numpy.int64(4), 2.5, 7, True]
)
def test_force_array_turns_scalars_into_0d_arrays(value):
    y = utils.force_array(value)
    assert type(y) is numpy.ndarray and y.shape == ()
    assert y.dtype == numpy.asarray(value).dtype and y == value


def test_force_array_casts_when_asked():
    x = numpy.arange(3)
    y = utils.force_array(x, numpy.float16)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y, [0, 1, 2])
    assert utils.force_array(numpy.float64(1.5), numpy.float32).dtype == (numpy.float32)
    # no copy when the dtype is already right
    assert utils.force_array(y, numpy.float16) is y


def test_force_array_leaves_other_objects():
    marker = object()
    assert utils.force_array(marker) is marker


def test_get_array_module_on_the_cpu():
    x = numpy.ones(2)
    assert backend.get_array_module() is numpy
    assert (
        backend.get_array_module(
            x, chainerlite.Variable(x), None, 1.0, numpy.float32(1)
        )
        is numpy
    )
    assert cuda.get_array_module is backend.get_array_module


@attr.gpu
def test_get_array_module_finds_cupy_arrays_and_variables():
    cupy = cuda.cupy
    g = cupy.ones(2)
    assert backend.get_array_module(numpy.ones(2), g) is cupy
    assert backend.get_array_module(1.0, chainerlite.Variable(g)) is cupy
    assert backend.get_array_module(numpy.ones(2), 1.0) is numpy


_FAKE_CUPY = '''
class ndarray:
    pass


class _Sparse:
    pass


def get_array_module(*args):
    import numpy
    mod = __import__('cupy')
    return mod if any(isinstance(a, _Sparse) for a in args) else numpy


class _Runtime:
    @staticmethod
    def getDeviceCount():
        raise RuntimeError('no device')


class cuda:
    runtime = _Runtime
'''


def test_get_array_module_is_wired_to_cupy_when_it_imports(tmp_path):
    # A stand-in 'cupy' (no GPU here): its arrays, Variables holding them
    # and what cupy.get_array_module claims all select it.
    (tmp_path / 'cupy').mkdir()
    (tmp_path / 'cupy' / '__init__.py').write_text(_FAKE_CUPY)
    (tmp_path / 'cupyx').mkdir()
    (tmp_path / 'cupyx' / '__init__.py').write_text('')
    script = '''
import numpy, cupy, chainerlite
from chainerlite import backend
from chainerlite.backends import cuda
assert cuda.cupy is cupy and not cuda.available
g = cupy.ndarray()
assert backend.get_array_module(g) is cupy
assert backend.get_array_module(1.0, numpy.ones(2), g) is cupy
assert backend.get_array_module(numpy.ones(2), None, 2) is numpy
assert backend.get_array_module(cupy._Sparse()) is cupy
print('ok')
'''
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([str(tmp_path)] + [p for p in sys.path if p])
    result = subprocess.run(
        [sys.executable, '-c', script],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == 'ok'
