import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import links


def test_inception_concatenates_the_paths():
    link = links.Inception(3, 2, 2, 3, 2, 4, 1)
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 5)).astype(numpy.float32)
    y = link(x)
    assert y.shape == (2, 10, 5, 5)
    out3 = link.conv3(F.relu(link.proj3(x)))
    numpy.testing.assert_allclose(
        y.array[:, 2:5], F.relu(out3).array, rtol=1e-5, atol=1e-6
    )
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert link.conv5.W.grad is not None


@pytest.mark.parametrize(
    'kwargs, channels, size',
    [
        ({'pooltype': 'max', 'proj_pool': 3}, 12, 5),
        ({'pooltype': 'avg', 'proj_pool': None, 'out1': 0}, 9, 5),
        ({'pooltype': 'max', 'proj_pool': None, 'out1': 0, 'stride': 2}, 9, 3),
    ],
)
def test_inception_bn_shapes(kwargs, channels, size):
    args = dict(in_channels=3, out1=3, proj3=2, out3=3, proj33=2, out33=3)
    args.update(kwargs)
    link = links.InceptionBN(**args)
    y = link(numpy.random.uniform(-1, 1, (4, 3, 5, 5)).astype(numpy.float32))
    assert y.shape == (4, channels, size, size)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert link.proj33.W.grad is not None


def test_inception_bn_dtype_and_errors():
    with chainerlite.using_config('dtype', numpy.float16):
        link = links.InceptionBN(3, 3, 2, 3, 2, 3, 'max', 3)
    assert link.conv33bn.beta.dtype == numpy.float16
    with pytest.raises(NotImplementedError, match='pooltype'):
        links.InceptionBN(3, 3, 2, 3, 2, 3, 'min', 3)
    with pytest.raises(AssertionError):
        links.InceptionBN(3, 3, 2, 3, 2, 3, 'max', 3, stride=2)
    with pytest.raises(AssertionError):
        links.InceptionBN(3, 3, 2, 3, 2, 3, 'max', None)
