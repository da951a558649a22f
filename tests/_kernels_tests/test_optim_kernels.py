"""Adam's one-pass CPU update (``chainerlite._kernels.optim.adam``)
gives the bits of the NumPy expressions it replaces, for every vector
tail, special values and the hyperparameters a user sets; and it declines
(returns False, touching nothing) what it cannot do bit for bit."""

import numpy as np
import pytest

from chainerlite._kernels import optim as optim_kernels

FLOATS = [np.float32, np.float64]
SPECIAL = [np.inf, -np.inf, 0.0, -0.0, 1e-45, 1e-310, 1e30, -1e30, 3.0, -3.0]


def _numpy_adam(param, grad, m, v, b1c, b2c, lr, eps, eta, wd):
    # the expressions of AdamRule.update_core_cpu, written out again here
    m += b1c * (grad - m)
    v += b2c * (grad * grad - v)
    step = lr / (np.sqrt(v) + eps)
    keep = 1.0 - eta * wd
    if keep == 1:
        param += -eta * (step * m)
    else:
        param[...] = keep * param + -eta * (step * m)


def _state(n, dtype, seed, special=False):
    rng = np.random.default_rng(seed)
    param = rng.standard_normal(n).astype(dtype)
    grad = rng.standard_normal(n).astype(dtype)
    m = (0.1 * rng.standard_normal(n)).astype(dtype)
    v = rng.random(n).astype(dtype)
    if special:
        for a in (param, grad, m):
            a[::3] = np.resize(np.array(SPECIAL, dtype), a[::3].shape)
        v[1::4] = np.resize(np.array([0.0, np.inf, 1e-45, 1e30], dtype), v[1::4].shape)
    return param, grad, m, v


def _assert_same(a, b):
    # the same values bit for bit; a NaN may carry another payload
    nan = np.isnan(a)
    np.testing.assert_array_equal(nan, np.isnan(b))
    np.testing.assert_array_equal(a[~nan].view(np.uint8), b[~nan].view(np.uint8))


HYPER = [
    (0.1, 0.001, 0.001, 1e-8, 1.0, 0),  # Adam's defaults (lr at t=1)
    (0.5, 0.25, 0.3, 1e-3, 0.7, 0.01),  # AdamW-like, eta != 1
    (1 - 0.95, 1 - 0.9999, 2.5e-4, 1e-6, 1, 1e-4),  # int eta
]


@pytest.mark.parametrize('n', [0, 1, 3, 7, 8, 15, 16, 17, 31, 33, 64, 65, 1000])
@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('hyper', HYPER)
def test_adam_matches_numpy_every_tail(n, dtype, hyper):
    arrays = _state(n, dtype, n)
    expected = [a.copy() for a in arrays]
    guard = np.full(n + 16, 7.0, dtype)  # nothing is written past n
    param = guard[:n]
    param[...] = arrays[0]
    _numpy_adam(*expected, *hyper)
    assert optim_kernels.adam(param, *arrays[1:], *hyper) is param
    for got, want in zip((param,) + arrays[1:], expected):
        _assert_same(got, want)
    assert (guard[n:] == 7.0).all()


@pytest.mark.parametrize('dtype', FLOATS)
def test_adam_matches_numpy_on_special_values(dtype):
    with np.errstate(all='ignore'):
        arrays = _state(997, dtype, 1, special=True)
        expected = [a.copy() for a in arrays]
        _numpy_adam(*expected, *HYPER[1])
        assert optim_kernels.adam(*arrays, *HYPER[1]) is arrays[0]
    for got, want in zip(arrays, expected):
        _assert_same(got, want)
    assert np.isnan(arrays[0]).any() and np.isinf(arrays[1]).any()


def test_adam_on_a_matrix_matches_numpy_over_steps():
    arrays = _state(40 * 33, np.float32, 2)
    arrays = [a.reshape(40, 33) for a in arrays]
    expected = [a.copy() for a in arrays]
    rng = np.random.default_rng(3)
    for t in range(1, 6):
        grad = rng.standard_normal((40, 33)).astype(np.float32)
        arrays[1][...] = expected[1][...] = grad
        lr = 0.001 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        hyper = (1 - 0.9, 1 - 0.999, float(lr), 1e-8, 1.0, 0)
        _numpy_adam(*expected, *hyper)
        assert optim_kernels.adam(*arrays, *hyper) is arrays[0]
    for got, want in zip(arrays, expected):
        _assert_same(got, want)


def _declined(arrays, hyper=HYPER[0]):
    before = [np.array(a, copy=True) for a in arrays]
    assert optim_kernels.adam(*arrays, *hyper) is None
    for a, b in zip(arrays, before):
        np.testing.assert_array_equal(a, b)


def test_adam_declines_other_dtypes_layouts_and_types():
    p, g, m, v = _state(24, np.float32, 4)
    _declined([p.astype(np.float16), g.astype(np.float16), m, v])
    _declined([p, g.astype(np.float64), m, v])  # mixed dtypes
    _declined([p.astype(np.int32), g.astype(np.int32), m, v])
    _declined([p, g, m.reshape(4, 6), v])  # another shape
    big = np.zeros((24, 2), np.float32)
    _declined([p, big[:, 0], m, v])  # strided
    _declined([a.reshape(4, 6).T for a in (p, g, m, v)])  # Fortran order
    _declined([list(p), g, m, v])
    _declined([p, g, m, np.ma.masked_array(v)])


def test_adam_declines_overlapping_arrays():
    p, g, m, v = _state(24, np.float32, 5)
    _declined([p, g, m, m])
    _declined([p, p, m, v])
    block = np.arange(30, dtype=np.float32)
    _declined([block[:24], block[6:30], m, v])


@pytest.mark.parametrize(
    'hyper',
    [
        (np.float32(0.1), 0.001, 0.001, 1e-8, 1.0, 0),  # NumPy scalars may change
        (0.1, 0.001, np.float64(0.001), 1e-8, 1.0, 0),  # the computing dtype
        (0.1, 0.001, 0.001, 1e-8, True, 0),
        (0.1, 0.001, 1e39, 1e-8, 1.0, 0),  # beyond float32
        (0.1, 0.001, 0.001, 1e-8, 1.0, None),
    ],
)
def test_adam_declines_hyperparameters_it_cannot_round_as_numpy(hyper):
    _declined(list(_state(24, np.float32, 6)), hyper)


def test_adam_takes_large_float64_hyperparameters():
    arrays = _state(16, np.float64, 7)
    expected = [a.copy() for a in arrays]
    hyper = (0.1, 0.001, 1e39, 1e-8, 1.0, 0)
    _numpy_adam(*expected, *hyper)
    assert optim_kernels.adam(*arrays, *hyper) is arrays[0]
    for got, want in zip(arrays, expected):
        _assert_same(got, want)


def _numpy_sgd(param, grad, lr):
    # SGDRule.update_core_cpu's expression
    param -= lr * grad


def _numpy_momentum_sgd(param, grad, v, lr, momentum):
    # MomentumSGDRule.update_core_cpu's expressions
    v *= momentum
    v -= lr * grad
    param += v


SGD_CASES = [
    (optim_kernels.sgd, _numpy_sgd, 2, [(0.01,), (1,), (0.3,)]),
    (
        optim_kernels.momentum_sgd,
        _numpy_momentum_sgd,
        3,
        [(0.01, 0.9), (1, 0), (0.3, 0.5)],
    ),
]


@pytest.mark.parametrize('n', [0, 1, 7, 15, 16, 17, 33, 65, 1000])
@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('kernel, numpy_update, n_arrays, hypers', SGD_CASES)
def test_sgd_updates_match_numpy_every_tail(
    n, dtype, kernel, numpy_update, n_arrays, hypers
):
    for hyper in hypers:
        arrays = list(_state(n, dtype, n)[:n_arrays])
        expected = [a.copy() for a in arrays]
        guard = np.full(n + 16, 7.0, dtype)  # nothing is written past n
        param = guard[:n]
        param[...] = arrays[0]
        numpy_update(*expected, *hyper)
        assert kernel(param, *arrays[1:], *hyper) is param
        for got, want in zip([param] + arrays[1:], expected):
            _assert_same(got, want)
        assert (guard[n:] == 7.0).all()


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('kernel, numpy_update, n_arrays, hypers', SGD_CASES)
def test_sgd_updates_match_numpy_on_special_values(
    dtype, kernel, numpy_update, n_arrays, hypers
):
    with np.errstate(all='ignore'):
        arrays = list(_state(997, dtype, 1, special=True))
        arrays = arrays[:2] + arrays[2:n_arrays]
        expected = [a.copy() for a in arrays]
        numpy_update(*expected, *hypers[0])
        assert kernel(*arrays, *hypers[0]) is arrays[0]
    for got, want in zip(arrays, expected):
        _assert_same(got, want)


@pytest.mark.parametrize('kernel, numpy_update, n_arrays, hypers', SGD_CASES)
def test_sgd_updates_decline_what_numpy_would_round_otherwise(
    kernel, numpy_update, n_arrays, hypers
):
    def declined(arrays, hyper=hypers[0]):
        before = [np.array(a, copy=True) for a in arrays]
        assert kernel(*arrays, *hyper) is None
        for a, b in zip(arrays, before):
            np.testing.assert_array_equal(a, b)

    arrays = list(_state(24, np.float32, 4)[:n_arrays])
    declined(
        [arrays[0].astype(np.float16)] + [a.astype(np.float16) for a in arrays[1:]]
    )
    declined([arrays[0], arrays[1].astype(np.float64)] + arrays[2:])  # mixed dtypes
    declined([arrays[0], arrays[1].reshape(4, 6)] + arrays[2:])  # another shape
    declined([arrays[0], np.zeros((24, 2), np.float32)[:, 0]] + arrays[2:])  # strided
    declined([arrays[0], arrays[0]] + arrays[2:])  # overlapping
    declined([list(arrays[0])] + arrays[1:])
    readonly = arrays[0].copy()
    readonly.flags.writeable = False
    declined([readonly] + arrays[1:])
    declined(arrays, (np.float32(0.1),) + hypers[0][1:])  # a NumPy scalar
    declined(arrays, (1e39,) + hypers[0][1:])  # beyond float32


@pytest.mark.parametrize('n_params', [1, 3])
def test_sgd_and_momentum_sgd_rules_take_the_kernels_bitwise(n_params):
    # a step of the optimizers on float32 and float64 parameters gives the
    # bits of the NumPy expressions (the rules' fallback), over steps
    import chainerlite
    from chainerlite import optimizers

    for opt_class, kwargs in [
        (optimizers.SGD, {'lr': 0.1}),
        (optimizers.MomentumSGD, {}),
    ]:
        for dtype in FLOATS:
            model = chainerlite.Link()
            with model.init_scope():
                for i in range(n_params):
                    setattr(
                        model, 'w%d' % i, chainerlite.Parameter(np.ones((5, 3), dtype))
                    )
            opt = opt_class(**kwargs).setup(model)
            params = sorted(model.namedparams())
            expected = [p.array.copy() for _, p in params]
            v = [np.zeros_like(a) for a in expected]
            rng = np.random.default_rng(0)
            for _ in range(3):
                for k, (_, p) in enumerate(params):
                    p.grad = rng.standard_normal((5, 3)).astype(dtype)
                    if opt_class is optimizers.SGD:
                        _numpy_sgd(expected[k], p.grad, 0.1)
                    else:
                        _numpy_momentum_sgd(
                            expected[k], p.grad, v[k], opt.lr, opt.momentum
                        )
                opt.update()
            for (_, p), want in zip(params, expected):
                _assert_same(p.array, want)
