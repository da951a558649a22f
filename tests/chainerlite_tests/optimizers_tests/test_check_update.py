import numpy
import pytest


@pytest.mark.parametrize('fraction', [0.0, 0.5, 1.5])
def test_an_update_of_the_wrong_size_fails_in_every_dtype(
    fraction, problem, check_update
):
    # The smallest update of the optimizer tests: AdaGrad's first steps,
    # about lr = 1e-3 per element and step.
    param, grads = problem
    expected = param.astype(numpy.float64) - 1e-3 * len(grads) * numpy.sign(
        grads.sum(axis=0)
    )
    moved = param + fraction * (expected - param)
    with pytest.raises(AssertionError, match='moved by'):
        check_update(moved.astype(param.dtype), param, expected, len(grads))
    check_update(expected.astype(param.dtype), param, expected, len(grads))
