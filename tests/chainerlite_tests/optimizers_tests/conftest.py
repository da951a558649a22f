"""Fixtures shared by the optimizer tests: a problem and a runner."""

import numpy
import pytest

import chainerlite

_TOLERANCES = {
    numpy.float16: {'atol': 1e-2, 'rtol': 1e-2},
    numpy.float32: {'atol': 1e-5, 'rtol': 1e-5},
    numpy.float64: {'atol': 1e-12, 'rtol': 1e-12},
}


@pytest.fixture(params=[numpy.float16, numpy.float32, numpy.float64],
                ids=['float16', 'float32', 'float64'])
def dtype(request):
    return request.param


@pytest.fixture
def problem(dtype):
    """An initial parameter and five gradients, in ``dtype``."""
    rng = numpy.random.RandomState(0)
    param = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    grads = rng.uniform(-1, 1, (5, 3, 4)).astype(dtype)
    return param, grads


@pytest.fixture
def tolerance(dtype):
    return _TOLERANCES[dtype]


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
