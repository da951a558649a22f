"""Fixtures shared by the optimizer tests: a problem and a runner."""

import numpy
import pytest

import chainerlite

_TOLERANCES = {
    numpy.float16: {'atol': 1e-2, 'rtol': 1e-2},
    numpy.float32: {'atol': 1e-5, 'rtol': 1e-5},
    numpy.float64: {'atol': 1e-12, 'rtol': 1e-12},
}


@pytest.fixture(
    params=[numpy.float16, numpy.float32, numpy.float64],
    ids=['float16', 'float32', 'float64'],
)
def dtype(request):
    return request.param


@pytest.fixture
def problem(dtype):
    """An initial parameter and five gradients, in ``dtype``.

    The parameter is small, so that float16 can hold it finely enough for
    the updates (about 1e-3 per step with the default learning rates) to be
    told apart from rounding.
    """
    rng = numpy.random.RandomState(0)
    param = rng.uniform(-0.05, 0.05, (3, 4)).astype(dtype)
    grads = rng.uniform(-1, 1, (5, 3, 4)).astype(dtype)
    return param, grads


@pytest.fixture
def tolerance(dtype):
    return _TOLERANCES[dtype]


@pytest.fixture
def check_update(dtype):
    """Compares how far a parameter moved with how far the reference moved.

    The tolerance scales with the size of the update, not of the parameter:
    float16 rounds the parameter at every step (to its spacing) and computes
    the update at a low precision, so it may be off by a few percent of the
    update and a spacing per step, but a rule that moves the parameter too
    little (or not at all) fails. The check also fails when its own
    tolerance could not tell such a rule apart.
    """

    def check(actual, param, expected, steps):
        start = param.astype(numpy.float64)
        moved = numpy.asarray(actual, numpy.float64) - start
        want = numpy.asarray(expected, numpy.float64) - start
        scale = numpy.linalg.norm(want)
        if dtype == numpy.float16:
            spacing = numpy.spacing(numpy.abs(param)).astype(numpy.float64)
            allowed = 0.05 * scale + steps * numpy.linalg.norm(spacing)
        else:
            allowed = _TOLERANCES[dtype]['rtol'] * scale
        assert allowed < 0.5 * scale, (
            'tolerance {} is too loose for an update of size {}'.format(allowed, scale)
        )
        error = numpy.linalg.norm(moved - want)
        assert error <= allowed, (
            'the parameter moved by {}, the reference by {}: off by {} '
            '(allowed {})'.format(moved, want, error, allowed)
        )

    return check


@pytest.fixture
def run_optimizer():
    """Runs ``optimizer`` on one parameter, one update per gradient."""

    def run(optimizer, param, grads):
        link = chainerlite.Link()
        with link.init_scope():
            link.w = chainerlite.Parameter(param.copy())
        optimizer.setup(link)
        for grad in grads:
            link.w.grad = grad.copy()
            optimizer.update()
        assert link.w.dtype == param.dtype
        assert optimizer.t == len(grads)
        return link.w

    return run


@pytest.fixture
def chainer_bits_steps():
    """A check of an optimizer's bits against Chainer's (see _bits_steps)."""
    return _bits_steps


def _bits_steps(optimizer, dtype, expected_hex):
    """Runs ``optimizer`` three steps on a fixed parameter of five elements
    (values of several magnitudes, gradients of both signs) and checks the
    result's bits against ``expected_hex``, Chainer 7.8.1's parameter after
    the same steps (``float.hex`` of each element, recorded in the oracle
    venv)."""
    link = chainerlite.Link()
    with link.init_scope():
        link.p = chainerlite.Parameter(numpy.array([1.0, -0.3, 2.5, 1e-3, -7.0], dtype))
    optimizer.setup(link)
    for grad in (
        [0.5, 1e-3, -2, 3e-4, 10],
        [-0.25, 0.75, 1.5, -1e-2, 0.1],
        [1e-3, -0.5, 0.2, 0.3, -4],
    ):
        link.p.grad = numpy.array(grad, dtype)
        optimizer.update()
    expected = numpy.array([float.fromhex(h) for h in expected_hex], dtype)
    assert link.p.array.tobytes() == expected.tobytes()
