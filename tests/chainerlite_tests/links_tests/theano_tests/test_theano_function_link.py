import pytest

import chainerlite.links as L


def test_theano_link_raises_like_chainer_without_theano():
    with pytest.raises(RuntimeError, match='pip install theano'):
        L.TheanoFunction(inputs=[], outputs=[])
