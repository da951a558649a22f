"""The message helpers Chainer's code reaches at chainer.utils (values
recorded from Chainer 7.8.1)."""

import numpy
import pytest

from chainerlite import utils


def test_format_array_props():
    arrays = [numpy.ones((2, 3), numpy.float32), numpy.ones(2)]
    assert utils._format_array_props(arrays) == '(2, 3):float32, (2,):float64'
    assert utils._format_array_props((None,)) == 'None'
    # an assertion, as Chainer's
    with pytest.raises(AssertionError, match='_format_array_props'):
        utils._format_array_props(numpy.ones(2))


def test_repr_with_named_data():
    class Thing:
        pass

    text = utils._repr_with_named_data(Thing(), x=1, y='b')
    assert text == '<{}.{} x=1 y=b>'.format(__name__, Thing.__qualname__)


def test_check_arrays_forward_compatible():
    utils._check_arrays_forward_compatible([numpy.ones(2), None, numpy.ones(3)])
    with pytest.raises(TypeError) as info:
        utils._check_arrays_forward_compatible([numpy.ones(2), numpy.float32(1)], 'lbl')
    assert str(info.value) == (
        'incompatible array types are mixed in the forward input (lbl).\n'
        "Actual: <class 'numpy.ndarray'>, <class 'numpy.float32'>"
    )


def test_raise_from():
    try:
        1 / 0
    except ZeroDivisionError as e:
        original = e
    with pytest.raises(ValueError) as info:
        utils._raise_from(ValueError, 'msg', original)
    assert (
        str(info.value) == 'msg\n\n(caused by)\nZeroDivisionError: division by zero\n'
    )
    assert info.value.__cause__ is None and info.value.__suppress_context__
    assert info.value.__traceback__ is not None
