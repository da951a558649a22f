"""utils.force_array and backend.get_array_module (both compiled)."""
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


@pytest.mark.parametrize('value', [
    numpy.float32(2) * numpy.float32(3), numpy.int64(4), 2.5, 7, True])
def test_force_array_turns_scalars_into_0d_arrays(value):
    y = utils.force_array(value)
    assert type(y) is numpy.ndarray and y.shape == ()
    assert y.dtype == numpy.asarray(value).dtype and y == value


def test_force_array_casts_when_asked():
    x = numpy.arange(3)
    y = utils.force_array(x, numpy.float16)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y, [0, 1, 2])
    assert utils.force_array(numpy.float64(1.5), numpy.float32).dtype == (
        numpy.float32)
    # no copy when the dtype is already right
    assert utils.force_array(y, numpy.float16) is y


def test_force_array_leaves_other_objects():
    marker = object()
    assert utils.force_array(marker) is marker


def test_get_array_module_on_the_cpu():
    x = numpy.ones(2)
    assert backend.get_array_module() is numpy
    assert backend.get_array_module(x, chainerlite.Variable(x), None, 1.0,
                                    numpy.float32(1)) is numpy
    assert cuda.get_array_module is backend.get_array_module


@attr.gpu
def test_get_array_module_finds_cupy_arrays_and_variables():
    cupy = cuda.cupy
    g = cupy.ones(2)
    assert backend.get_array_module(numpy.ones(2), g) is cupy
    assert backend.get_array_module(1.0, chainerlite.Variable(g)) is cupy
    assert backend.get_array_module(numpy.ones(2), 1.0) is numpy
