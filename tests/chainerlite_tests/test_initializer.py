import pytest

import chainerlite
from chainerlite import initializer
from chainerlite import initializers


@pytest.mark.parametrize(
    'shape, fans', [((2, 1), (1, 2)), ((2, 3, 4), (12, 8)), ((2, 3, 4, 5), (60, 40))]
)
def test_get_fans(shape, fans):
    assert initializer.get_fans(shape) == fans


@pytest.mark.parametrize('shape', [(), (2,)])
def test_get_fans_needs_two_axes(shape):
    with pytest.raises(ValueError, match='length >= 2'):
        initializer.get_fans(shape)


def test_public_paths():
    assert chainerlite.Initializer is initializer.Initializer
    assert initializers.Initializer is initializer.Initializer
    assert issubclass(initializers.Normal, chainerlite.Initializer)
