import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.functions.math import einsum as einsum_module
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-2,
            'rtol': 5e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 2e-2,
            'rtol': 5e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }


@testing.parameterize(
    *testing.product(
        {
            'subscripts_shapes': [
                ('ij,jk->ik', [(2, 3), (3, 4)]),
                ('ij,jk', [(2, 3), (3, 4)]),
                ('bij,bjk->bik', [(2, 3, 4), (2, 4, 2)]),
                ('ij,ik,jkl->il', [(3, 2), (3, 4), (2, 4, 2)]),
                ('...j,...k,jkl', [(3, 2), (3, 4), (2, 4, 2)]),
                ('...ij,jk->...ik', [(2, 2, 3), (3, 4)]),
                ('i,j->ij', [(3,), (4,)]),
                ('i,i', [(3,), (3,)]),
                ('ij,k->k', [(2, 3), (4,)]),
                ('ii->i', [(3, 3)]),
                ('ii', [(3, 3)]),
                ('iji->j', [(3, 2, 3)]),
                ('iij,j->ij', [(3, 3, 2), (2,)]),
                ('ij->', [(2, 3)]),
                ('ij->ji', [(2, 3)]),
                ('i...->...', [(3, 2, 4)]),
                ('Ab,bC->CA', [(2, 3), (3, 4)]),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestEinSum(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        _, shapes = self.subscripts_shapes
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in shapes)

    def forward(self, inputs, device):
        subscripts, _ = self.subscripts_shapes
        return (F.einsum(subscripts, *inputs),)

    def forward_expected(self, inputs):
        subscripts, _ = self.subscripts_shapes
        y = numpy.einsum(subscripts, *[x.astype(numpy.float64) for x in inputs])
        return (numpy.asarray(y, self.dtype),)


def test_sublist_format():
    x1 = numpy.random.uniform(-1, 1, (3, 4))
    x2 = numpy.random.uniform(-1, 1, (3, 5))
    w = numpy.random.uniform(-1, 1, (4, 5, 6))
    expected = numpy.einsum('ij,ik,jkl->il', x1, x2, w)
    y = F.einsum(x1, [0, 1], x2, [0, 2], w, [1, 2, 3], [0, 3])
    numpy.testing.assert_allclose(y.array, expected)
    y = F.einsum(x1, [Ellipsis, 1], x2, [Ellipsis, 2], w, [1, 2, 3])
    numpy.testing.assert_allclose(y.array, expected)


def test_mixed_dtypes():
    a = chainerlite.Variable(numpy.ones((2, 3), numpy.float16))
    b = chainerlite.Variable(numpy.ones((3,), numpy.float32))
    y = F.einsum('ij,j->i', a, b)
    assert y.dtype == numpy.float32
    F.sum(y).backward()
    assert a.grad.dtype == numpy.float16
    assert b.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(b.grad, [2.0, 2.0, 2.0])


def test_gradient_of_a_diagonal_fills_the_diagonal():
    x = chainerlite.Variable(numpy.zeros((3, 3)))
    y = F.einsum('ii->i', x)
    y.grad = numpy.array([1.0, 2.0, 3.0])
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.diag([1.0, 2.0, 3.0]))


@pytest.mark.parametrize(
    'args, message',
    [
        ((), 'no input operands'),
        (('ij,jk->ik', numpy.ones((2, 3))), 'number of einsum subscripts'),
        (('ij->k', numpy.ones((2, 3))), 'output character k'),
        (('ij->i->j', numpy.ones((2, 3))), "one '->'"),
        (('i-j', numpy.ones((2, 3))), "one '->'"),
        (('i..j', numpy.ones((2, 3))), 'invalid ellipses'),
        (('i$', numpy.ones((2, 3))), 'not a valid symbol'),
        (('ij->ii', numpy.ones((2, 3))), 'repeat'),
        (('...i->i', numpy.ones((2, 3))), 'summing over Ellipsis'),
        (('i,i->...', numpy.ones(2), numpy.ones(2)), 'no input has'),
        ((numpy.ones(3), [52]), 'out of range'),
    ],
)
def test_malformed_subscripts(args, message):
    with pytest.raises(ValueError, match='einsum: .*' + message):
        F.einsum(*args)


def test_ellipses_of_different_lengths_are_invalid():
    # No broadcasting: each '...' must cover the same number of axes.
    with pytest.raises(type_check.InvalidType):
        F.einsum('...i,...i', numpy.ones(2), numpy.ones((1, 2)))


def test_sublist_of_other_items():
    with pytest.raises(TypeError, match='einsum'):
        F.einsum(numpy.ones(3), ['a'])


@pytest.mark.parametrize(
    'subscripts, shapes, dtype',
    [
        ('ij,jk', [(2, 3), (4, 2)], numpy.float32),
        ('ijk', [(2, 3)], numpy.float32),
        ('ii', [(2, 3)], numpy.float32),
        ('ij', [(2, 3)], numpy.int32),
    ],
)
def test_invalid_operands(subscripts, shapes, dtype):
    xs = [numpy.ones(s, dtype) for s in shapes]
    with pytest.raises(type_check.InvalidType, match='EinSum'):
        F.einsum(subscripts, *xs)


@pytest.mark.parametrize(
    'subscripts, shapes, out_shape, expected',
    [
        ('i->ii', [(3,)], (3, 3), lambda x: numpy.diag(x)),
        ('->i', [()], (3,), lambda x: numpy.full(3, x)),
        (
            ',i->ij',
            [(), (2,)],
            (2, 3),
            lambda a, b: numpy.repeat((a * b)[:, None], 3, axis=1),
        ),
        (',ij->i', [(), (3, 4)], (3,), lambda a, b: a * b.sum(1)),
    ],
)
def test_diag_einsum(subscripts, shapes, out_shape, expected):
    in_sub, out_sub = subscripts.split('->')
    xs = [numpy.random.uniform(-1, 1, s) for s in shapes]

    def f(*xs):
        return einsum_module.DiagEinSum(in_sub, out_sub, out_shape).apply(xs)[0]

    numpy.testing.assert_allclose(f(*xs).array, expected(*xs))
    gy = numpy.random.uniform(-1, 1, out_shape)
    ggxs = [numpy.random.uniform(-1, 1, s) for s in shapes]
    gradient_check.check_backward(f, xs, gy, atol=1e-4, rtol=1e-4)
    gradient_check.check_double_backward(f, xs, gy, ggxs, atol=1e-4, rtol=1e-4)


def test_diag_einsum_needs_the_output_shape():
    with pytest.raises(ValueError, match='DiagEinSum'):
        einsum_module.DiagEinSum('i', 'ii', None)


def test_node_keeps_every_input_even_a_single_one():
    # as Chainer's node does
    a = numpy.ones((2, 3), numpy.float32)
    assert tuple(F.einsum('ij->ji', a).creator_node._input_indexes_to_retain) == (0,)
    node = F.einsum('ij,j->i', a, numpy.ones(3, numpy.float32)).creator_node
    assert tuple(node._input_indexes_to_retain) == (0, 1)


@pytest.mark.parametrize(
    'args, error',
    [
        (('ij', numpy.zeros(3, numpy.float32)), IndexError),
        (('i', numpy.zeros((3, 2), numpy.float32)), ValueError),
        ((numpy.zeros(0, numpy.float32), numpy.zeros(0, numpy.float16)), ValueError),
    ],
)
def test_axes_not_matching_the_subscripts_raise_chainers_types(args, error):
    # Chainer's subscript parsing fails before its type check
    with pytest.raises(type_check.InvalidType) as info:
        F.einsum(*args)
    assert isinstance(info.value, error)
