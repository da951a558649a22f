import numpy
import pytest

from chainerlite.functions.theano import theano_function


def test_theano_function_raises_like_chainer_without_theano():
    with pytest.raises(RuntimeError, match='theano'):
        theano_function.TheanoFunction(None, None)
    with pytest.raises(RuntimeError, match='theano'):
        theano_function.theano_function(None, None, numpy.zeros(2, numpy.float32))
