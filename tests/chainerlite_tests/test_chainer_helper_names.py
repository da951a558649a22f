"""gradient_check._check_backward_with_params (Chainer's LinkTestCase checks
links with it) and WalkerAlias.sample_xp / sample_gpu."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import WalkerAlias


def _linear(xs, params):
    (x,) = xs
    w, b = params
    assert isinstance(w, chainerlite.Parameter)
    return F.linear(x, w, b)


def test_check_backward_with_params_passes_and_leaves_arrays_alone():
    w = np.random.rand(4, 3).astype(np.float32)
    b = np.random.rand(4).astype(np.float32)
    w0, b0 = w.copy(), b.copy()
    gradient_check._check_backward_with_params(
        _linear,
        (np.random.rand(2, 3).astype(np.float32),),
        np.random.rand(2, 4).astype(np.float32),
        params=(w, b),
        dtype=np.float64,
    )
    np.testing.assert_array_equal(w, w0)
    np.testing.assert_array_equal(b, b0)


class _WrongParamGrad(chainerlite.FunctionNode):
    def forward(self, inputs):
        return (inputs[0] * inputs[1],)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        return gy, gy * 0  # the parameter's gradient is wrong


def test_check_backward_with_params_checks_parameter_gradients():
    def func(xs, params):
        return _WrongParamGrad().apply((xs[0], params[0]))[0]

    with pytest.raises(AssertionError, match='check_backward failed'):
        gradient_check._check_backward_with_params(
            func,
            np.ones(3, np.float32),
            np.ones(3, np.float32),
            params=(np.full(3, 2.0, np.float32),),
        )


def test_check_backward_with_params_refuses_parameters():
    with pytest.raises(AssertionError, match='arrays'):
        gradient_check._check_backward_with_params(
            _linear,
            np.ones((2, 3), np.float32),
            np.ones((2, 4), np.float32),
            params=(chainerlite.Parameter(np.ones((4, 3), np.float32)),),
        )


def test_walker_alias_sample_xp():
    sampler = WalkerAlias([0.1, 0.0, 0.9])
    s = sampler.sample_xp(np, (2000,))
    assert s.dtype == np.int32 and s.shape == (2000,)
    counts = np.bincount(s, minlength=3)
    assert counts[1] == 0 and 100 < counts[0] < 320


@pytest.mark.skipif(chainerlite.backends.cuda.available, reason='CuPy is installed')
def test_walker_alias_sample_gpu_needs_cupy():
    with pytest.raises(AttributeError, match='CuPy is not available'):
        WalkerAlias([1.0, 1.0]).sample_gpu((2,))


def test_adam_rule_bounds_match_chainer():
    link = chainerlite.links.Linear(2, 2)
    opt = chainerlite.optimizers.AdaBound(alpha=0.01, final_lr=0.2, gamma=0.01)
    opt.setup(link)
    rule = link.W.update_rule
    with pytest.raises(RuntimeError, match='bounds'):
        rule.bounds
    for _ in range(3):
        link.cleargrads()
        link.W.grad = np.ones((2, 2), np.float32)
        link.b.grad = np.ones(2, np.float32)
        opt.update()
    # Recorded with Chainer 7.8.1; alpha scales final_lr.
    assert rule.bounds == (0.0058252427184465995, 6.866666666666667)
    opt.alpha = 0.02
    assert rule.bounds == (0.011650485436893199, 13.733333333333334)
