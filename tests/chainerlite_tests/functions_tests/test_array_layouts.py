"""Functions give the same values and gradients whatever the memory layout
of their arrays: strided, reversed, Fortran-ordered, read-only or unaligned
inputs (and output gradients) against C-contiguous copies of the same values.

The compiled kernels behind these functions take their fast paths on
aligned C-contiguous arrays; every other layout must take a path that still
gives the same answer, not an error (nor a wrong or short result).
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F


def _strided(a):
    # every other element of a twice-as-wide array
    wide = numpy.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
    wide[..., ::2] = a
    return wide[..., ::2]


def _reversed(a):
    flip = (slice(None, None, -1),) * a.ndim
    return numpy.ascontiguousarray(a[flip])[flip]


def _read_only(a):
    a = a.copy()
    a.setflags(write=False)
    return a


def _unaligned(a):
    # the array starts one byte into a buffer
    raw = numpy.zeros(a.nbytes + 1, numpy.uint8)
    out = numpy.frombuffer(raw.data, a.dtype, a.size, 1).reshape(a.shape)
    out[...] = a
    return out


LAYOUTS = {
    'strided': _strided,
    'reversed': _reversed,
    'fortran': numpy.asfortranarray,
    'read-only': _read_only,
    'unaligned': _unaligned,
}

_rng = numpy.random.RandomState(3)


def _real(*shape):
    return _rng.standard_normal(shape)


def _labels(*values):
    return numpy.array(values, numpy.int32)


# name -> (function, input values, indexes of the inputs that are not
# differentiated); real inputs take the dtype of the case
CASES = {
    'relu': (F.relu, [_real(4, 5)], ()),
    'leaky_relu': (F.leaky_relu, [_real(4, 5)], ()),
    'softplus': (F.softplus, [_real(4, 5)], ()),
    'gelu': (F.gelu, [_real(4, 5)], ()),
    'tanh': (F.tanh, [_real(4, 37)], ()),
    'sigmoid': (F.sigmoid, [_real(4, 37)], ()),
    'exp': (F.exp, [_real(4, 37)], ()),
    'softmax': (F.softmax, [_real(4, 7)], ()),
    'softmax-axis0': (lambda x: F.softmax(x, axis=0), [_real(4, 7)], ()),
    'log_softmax': (F.log_softmax, [_real(4, 7)], ()),
    'layer_normalization': (
        F.layer_normalization,
        [_real(4, 7), _real(7), _real(7)],
        (),
    ),
    'group_normalization': (
        lambda x, g, b: F.group_normalization(x, 2, g, b),
        [_real(3, 4, 5), _real(4), _real(4)],
        (),
    ),
    'batch_normalization': (
        F.batch_normalization,
        [_real(6, 4, 3, 3), _real(4), _real(4)],
        (),
    ),
    'fixed_batch_normalization': (
        F.fixed_batch_normalization,
        [_real(6, 4, 3), _real(4), _real(4), _real(4), abs(_real(4)) + 0.5],
        (),
    ),
    'convolution_2d': (
        lambda x, W, b: F.convolution_2d(x, W, b, 1, 1),
        [_real(2, 3, 6, 6), _real(4, 3, 3, 3), _real(4)],
        (),
    ),
    'convolution_2d-groups': (
        lambda x, W: F.convolution_2d(x, W, None, 2, 0, groups=3),
        [_real(2, 3, 7, 7), _real(6, 1, 3, 3)],
        (),
    ),
    'deconvolution_2d': (
        lambda x, W, b: F.deconvolution_2d(x, W, b, 2, 1),
        [_real(2, 4, 5, 5), _real(4, 3, 3, 3), _real(3)],
        (),
    ),
    'max_pooling_2d': (lambda x: F.max_pooling_2d(x, 3, 2, 1), [_real(2, 3, 7, 7)], ()),
    'average_pooling_2d': (
        lambda x: F.average_pooling_2d(x, 3, 2, 1),
        [_real(2, 3, 7, 7)],
        (),
    ),
    'linear': (F.linear, [_real(5, 7), _real(3, 7), _real(3)], ()),
    'matmul-batched': (F.matmul, [_real(2, 5, 7), _real(2, 7, 3)], ()),
    'lstm': (lambda c, x: F.lstm(c, x)[1], [_real(3, 4), _real(3, 16)], ()),
    'embed_id': (
        lambda x, W: F.embed_id(x, W, ignore_label=-1),
        [_labels(0, -1, 2, 2), _real(3, 4)],
        (0,),
    ),
    'softmax_cross_entropy': (
        lambda x, t: F.softmax_cross_entropy(x, t, reduce='no'),
        [_real(4, 5), _labels(0, 4, -1, 2)],
        (1,),
    ),
    'sigmoid_cross_entropy': (
        lambda x, t: F.sigmoid_cross_entropy(x, t, reduce='no'),
        [_real(2, 5), numpy.array([[0, 1, -1, 1, 0], [1, 1, 0, 0, -1]], numpy.int32)],
        (1,),
    ),
    'mul-broadcast': (lambda a, b: a * b, [_real(4, 5), _real(5)], ()),
    'concat': (lambda a, b: F.concat([a, b], axis=1), [_real(4, 5), _real(4, 2)], ()),
    'max': (lambda a: F.max(a, axis=1), [_real(4, 5)], ()),
}


def _run(function, arrays, fixed, gy_layout=None):
    inputs = [
        a if i in fixed else chainerlite.Variable(a) for i, a in enumerate(arrays)
    ]
    y = function(*inputs)
    gy = numpy.linspace(-1, 1, y.size).reshape(y.shape).astype(y.dtype)
    y.grad = gy if gy_layout is None else gy_layout(gy)
    y.backward()
    return [y.array] + [x.grad for i, x in enumerate(inputs) if i not in fixed]


@pytest.mark.parametrize('layout', sorted(LAYOUTS))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_a_layout_gives_the_values_of_contiguous_arrays(name, dtype, layout):
    function, values, fixed = CASES[name]
    values = [v if i in fixed else v.astype(dtype) for i, v in enumerate(values)]
    expected = _run(function, [v.copy() for v in values], fixed)
    change = LAYOUTS[layout]
    tol = {'rtol': 1e-5, 'atol': 1e-6} if dtype == numpy.float32 else {'atol': 1e-12}
    # each input in turn, then the output gradient
    for i in range(len(values)):
        arrays = [v.copy() for v in values]
        arrays[i] = change(arrays[i])
        for got, want in zip(_run(function, arrays, fixed), expected):
            numpy.testing.assert_allclose(got, want, err_msg='input %d' % i, **tol)
    got_all = _run(function, [v.copy() for v in values], fixed, gy_layout=change)
    for got, want in zip(got_all, expected):
        numpy.testing.assert_allclose(got, want, err_msg='output gradient', **tol)
