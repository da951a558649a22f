import pytest

import chainerlite.links as L


def test_theano_link_raises_like_chainer_without_theano():
    with pytest.raises(RuntimeError, match='pip install theano'):
        L.TheanoFunction(inputs=[], outputs=[])


def test_forward_is_there_and_raises_alike():
    # Chainer's link has forward; one made without the constructor (a test
    # double) learns that Theano is missing
    link = L.TheanoFunction.__new__(L.TheanoFunction)
    with pytest.raises(RuntimeError, match='pip install theano'):
        link.forward()
