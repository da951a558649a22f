import numpy
import pytest

from chainerlite import initializers


def _as_matrix(array):
    return array.reshape(array.shape[0], -1).astype(numpy.float64)


@pytest.mark.parametrize('shape', [(3, 5), (5, 3), (4, 4), (2, 3, 2), (6, 1, 2)])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_orthogonality(shape, dtype):
    array = numpy.empty(shape, dtype)
    initializers.Orthogonal(scale=1.5)(array)
    assert array.dtype == dtype and array.shape == shape
    w = _as_matrix(array)
    if w.shape[0] <= w.shape[1]:
        gram = w @ w.T
    else:
        gram = w.T @ w
    tol = 1e-5 if dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(gram, 2.25 * numpy.eye(min(w.shape)), atol=tol)


def test_default_scale():
    array = numpy.empty((3, 3))
    initializers.Orthogonal()(array)
    numpy.testing.assert_allclose(array @ array.T, 1.21 * numpy.eye(3), atol=1e-12)


def test_float16():
    array = numpy.empty((4, 6), numpy.float16)
    initializers.Orthogonal(scale=1.0)(array)
    w = _as_matrix(array)
    numpy.testing.assert_allclose(w @ w.T, numpy.eye(4), atol=5e-3)


def test_draws_are_not_biased():
    # The orthogonal factor is uniformly distributed (Haar): its entries
    # average to zero; a missing sign correction would bias the diagonal.
    rng = numpy.random.RandomState(0)
    total = numpy.zeros((3, 3))
    for _ in range(400):
        array = numpy.empty((3, 3))
        initializers.Orthogonal(scale=1.0, rng=rng)(array)
        total += array
    assert numpy.abs(total / 400).max() < 0.15


def test_rng_makes_draws_reproducible():
    a = numpy.empty((3, 4))
    b = numpy.empty((3, 4))
    initializers.Orthogonal(rng=numpy.random.RandomState(5))(a)
    initializers.Orthogonal(rng=numpy.random.RandomState(5))(b)
    numpy.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    'mode, shape',
    [
        ('projection', (3, 5)),
        ('projection', (4, 4)),
        ('embedding', (5, 3)),
        ('embedding', (4, 2, 2)),
        ('basis', (4, 4)),
        ('auto', (5, 3)),
    ],
)
def test_mode_accepts(mode, shape):
    array = numpy.empty(shape)
    initializers.Orthogonal(mode=mode)(array)
    assert numpy.isfinite(array).all()


@pytest.mark.parametrize(
    'mode, shape',
    [
        ('projection', (5, 3)),
        ('embedding', (3, 5)),
        ('basis', (3, 5)),
        ('basis', (5, 3)),
    ],
)
def test_mode_rejects(mode, shape):
    with pytest.raises(ValueError, match='Orthogonal: cannot make'):
        initializers.Orthogonal(mode=mode)(numpy.empty(shape))


def test_invalid_mode():
    with pytest.raises(ValueError, match='invalid mode'):
        initializers.Orthogonal(mode='square')


@pytest.mark.parametrize('seed', range(6))
def test_scalar_array_is_the_scale_with_a_coin_flipped_sign(seed):
    # one draw of randint(2) picks the sign, as Chainer draws it, so that a
    # seed gives Chainer's value
    coin = numpy.random.RandomState(seed).randint(2)
    numpy.random.seed(seed)
    array = numpy.empty(())
    initializers.Orthogonal(scale=2.0)(array)
    assert float(array) == (2.0 if coin else -2.0)
    array = numpy.empty((), numpy.float32)
    initializers.Orthogonal(scale=2.0, rng=numpy.random.RandomState(seed))(array)
    assert float(array) == (2.0 if coin else -2.0)


@pytest.mark.parametrize('shape', [(2, 3), (3, 2), (2, 3, 2), (4, 4)])
def test_matrix_comes_from_an_out_by_in_normal_draw(shape):
    # the normal matrix is drawn (out, in) and decomposed transposed when it
    # is wide, as Chainer does, so that a seed gives Chainer's values
    out_dim, in_dim = shape[0], int(numpy.prod(shape[1:]))
    drawn = numpy.random.RandomState(3).normal(size=(out_dim, in_dim))
    wide = out_dim < in_dim
    q, r = numpy.linalg.qr(drawn.T if wide else drawn)
    q *= numpy.copysign(1.5, numpy.diag(r))
    expected = (q.T if wide else q).reshape(shape)
    numpy.random.seed(3)
    array = numpy.empty(shape)
    initializers.Orthogonal(scale=1.5)(array)
    numpy.testing.assert_array_equal(array, expected)


def test_vector_is_unit_column():
    array = numpy.empty(4)
    initializers.Orthogonal(scale=1.0)(array)
    numpy.testing.assert_allclose(numpy.linalg.norm(array), 1.0)


def test_dtype_check():
    with pytest.raises(AssertionError):
        initializers.Orthogonal(dtype=numpy.float64)(numpy.empty((2, 2), numpy.float32))


@pytest.mark.parametrize('shape', [(0,), (2, 0)])
def test_empty_array(shape):
    with pytest.raises(ValueError, match='non-empty'):
        initializers.Orthogonal()(numpy.empty(shape))
