import numpy
import pytest

import chainerlite.functions as F
import chainerlite.links as L


def _x():
    return numpy.ones((1, 2, 6, 6), numpy.float32)


def _w():
    return numpy.ones((2, 2, 2, 2), numpy.float32)


def _indexes():
    return numpy.zeros((1, 2, 6, 6), numpy.intp)


# name in the message -> (call taking the window arguments as keywords,
# the window arguments it takes)
_TAKERS = {
    'convolution_2d': (
        lambda **kw: F.convolution_2d(_x(), _w(), **kw),
        ('stride', 'pad', 'dilate', 'groups'),
    ),
    'deconvolution_2d': (
        lambda **kw: F.deconvolution_2d(_x(), _w(), **kw),
        ('stride', 'pad', 'dilate', 'groups'),
    ),
    'max_pooling_2d': (
        lambda ksize=2, **kw: F.max_pooling_2d(_x(), ksize, **kw),
        ('ksize', 'stride', 'pad'),
    ),
    'average_pooling_2d': (
        lambda ksize=2, **kw: F.average_pooling_2d(_x(), ksize, **kw),
        ('ksize', 'stride', 'pad'),
    ),
    'unpooling_2d': (
        lambda ksize=2, **kw: F.unpooling_2d(_x(), ksize, **kw),
        ('ksize', 'stride', 'pad'),
    ),
    'upsampling_2d': (
        lambda ksize=2, **kw: F.upsampling_2d(_x(), _indexes(), ksize, **kw),
        ('ksize', 'stride', 'pad'),
    ),
    'im2col': (
        lambda ksize=2, **kw: F.im2col(_x(), ksize, **kw),
        ('ksize', 'stride', 'pad', 'dilate'),
    ),
    # the links check the filter's shape and groups when they make W (as
    # Chainer 7.8.1's), the others at the call (below)
    'Convolution2D': (
        lambda ksize=2, **kw: L.Convolution2D(2, 2, ksize, **kw),
        ('ksize', 'groups'),
    ),
    'Deconvolution2D': (
        lambda ksize=2, **kw: L.Deconvolution2D(2, 2, ksize, **kw),
        ('ksize', 'groups'),
    ),
}

_BAD = {
    'ksize': [0, -2, (2, 0), 1.5],
    'stride': [0, -1, (1, 0), (1, 2, 3), 1.5, 'a'],
    'dilate': [0, -1, (0, 1), 2.0],
    'pad': [-1, (0, -2), 0.5, (1,)],
    'groups': [0, -2, 1.5, None],
}

_CASES = [
    pytest.param(where, name, value, id='{}-{}={!r}'.format(where, name, value))
    for where, (_, names) in _TAKERS.items()
    for name in names
    for value in _BAD[name]
]


@pytest.mark.parametrize('where, name, value', _CASES)
def test_bad_window_argument_raises_naming_the_function(where, name, value):
    call, _ = _TAKERS[where]
    with pytest.raises(ValueError, match='{}: {} must be'.format(where, name)):
        call(**{name: value})


@pytest.mark.parametrize(
    'link, function',
    [(L.Convolution2D, 'convolution_2d'), (L.Deconvolution2D, 'deconvolution_2d')],
)
@pytest.mark.parametrize(
    'name, value', [(n, v) for n in ('stride', 'pad', 'dilate') for v in _BAD[n]]
)
def test_link_builds_and_its_call_raises_naming_the_function(
    link, function, name, value
):
    conv = link(2, 2, 2, **{name: value})
    assert conv.W.shape == (2, 2, 2, 2)
    with pytest.raises(ValueError, match='{}: {} must be'.format(function, name)):
        conv(_x())


@pytest.mark.parametrize(
    'kwargs',
    [
        {'stride': numpy.int64(2), 'pad': [1, 0], 'dilate': (1, numpy.int32(2))},
        {'stride': (2, 1), 'pad': numpy.array([0, 1]), 'groups': 2.0},
    ],
)
def test_int_like_window_arguments_are_accepted(kwargs):
    y = F.convolution_2d(_x(), _w()[:, : 2 // int(kwargs.get('groups', 1))], **kwargs)
    link = L.Convolution2D(2, 2, 2, **kwargs)
    assert link(_x()).shape == y.shape


@pytest.mark.parametrize(
    'call',
    [
        lambda x: F.convolution_2d(x, numpy.ones((1, 1, 2, 2), 'f'), pad=-3),
        lambda x: F.convolution_nd(x, numpy.ones((1, 1, 2, 2), 'f'), pad=-1),
        lambda x: F.convolution_2d(x, numpy.ones((1, 1, 2, 2), 'f'), dilate=-1),
        lambda x: F.max_pooling_2d(x, -1),
        lambda x: F.average_pooling_2d(x, 2, pad=-1),
        lambda x: F.max_pooling_nd(x, (2, -2)),
    ],
)
def test_a_negative_window_argument_is_both_errors_chainer_raises(call):
    # Chainer 7.8.1 fails on these asserting a positive output size, or in
    # NumPy's padding (ValueError), depending on the sizes
    x = numpy.ones((1, 1, 6, 6), 'f')
    with pytest.raises(ValueError) as info:
        call(x)
    assert isinstance(info.value, AssertionError)
