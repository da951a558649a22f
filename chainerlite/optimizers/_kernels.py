"""Fused CuPy kernels of the update rules (GPU path only): one launch per
parameter and step.

``P`` is the parameter's dtype and ``M`` the states' (the parameter's, as
in Chainer 7.8.1). Hyperparameters are float64 scalars; the arithmetic
runs in ``A`` (float for float16/float32, double for float64). Each kernel also has
multi-tensor variants (:mod:`chainerlite.backends.cuda_multi_tensor`).
"""

from chainerlite.backends import cuda_kernel
from chainerlite.backends import cuda_multi_tensor

_A = 'typedef typename acc_type<T>::type A;'
_MIXED = [
    {'P': 'float16', 'M': 'float16'},
    {'P': 'float32', 'M': 'float32'},
    {'P': 'float64', 'M': 'float64'},
]

sgd = cuda_multi_tensor.register(
    cuda_kernel.Elementwise(
        'T grad, float64 lr',
        'T param',
        _A + 'param = (T)((A)param - (A)(T)(lr * (A)grad));',
        'chainerlite_sgd_update',
        preamble=cuda_kernel.ACC_TYPE,
    )
)

momentum_sgd = cuda_multi_tensor.register(
    cuda_kernel.Elementwise(
        'T grad, float64 lr, float64 momentum',
        'T param, T v',
        _A + 'A nv = (A)v * (A)momentum - (A)lr * (A)grad;'
        'v = (T)nv; param = (T)((A)param + (A)v);',
        'chainerlite_momentum_sgd_update',
        preamble=cuda_kernel.ACC_TYPE,
    )
)

# Adam and its variants: vhat = max(vhat, v) with AMSGrad (the vhat
# output is v itself otherwise), the step clipped to [lower, upper] (0 and
# inf when AdaBound is off).
# The moments are stored in M and read back (rounded) as the CPU rule does;
# the arithmetic runs in float for float16.
_ADAM = (
    'typedef typename acc_type<M>::type A; A g = (A)grad;'
    'm = (M)((A)m + (A)one_minus_beta1 * (g - (A)m));'
    'v = (M)((A)v + (A)one_minus_beta2 * (g * g - (A)v));'
    '{vhat}'
    'A step = (A)lr / (sqrt((A){denom}) + (A)eps);'
    'step = step < (A)lower ? (A)lower : (step > (A)upper ? (A)upper : step);'
    'A delta = (A)eta * (step * (A)m + (A)weight_decay_rate * (A)param);'
    'param = (P)((A)param - (A)(P)delta);'
)
_ADAM_IN = (
    'P grad, float64 lr, float64 one_minus_beta1, '
    'float64 one_minus_beta2, float64 eps, float64 eta, '
    'float64 weight_decay_rate, float64 lower, float64 upper'
)
adam = cuda_multi_tensor.register(
    cuda_kernel.Elementwise(
        _ADAM_IN,
        'P param, M m, M v',
        _ADAM.format(vhat='', denom='v'),
        'chainerlite_adam_update',
        preamble=cuda_kernel.ACC_TYPE,
        check_types=_MIXED,
    )
)
adam_amsgrad = cuda_multi_tensor.register(
    cuda_kernel.Elementwise(
        _ADAM_IN,
        'P param, M m, M v, M vhat',
        _ADAM.format(vhat='vhat = (A)vhat > (A)v ? vhat : v;', denom='vhat'),
        'chainerlite_adam_amsgrad_update',
        preamble=cuda_kernel.ACC_TYPE,
        check_types=_MIXED,
    )
)

rmsprop = cuda_multi_tensor.register(
    cuda_kernel.Elementwise(
        'T grad, float64 lr, float64 alpha, float64 eps, bool eps_inside_sqrt',
        'T param, T ms',
        # eps rounded to T first, as on the CPU
        _A + 'A g = (A)grad; A e = (A)(T)eps;'
        'ms = (T)((A)ms * (A)alpha + (A(1) - (A)alpha) * g * g);'
        'A denom = eps_inside_sqrt ? sqrt((A)ms + e) : sqrt((A)ms) + e;'
        'param = (T)((A)param - (A)lr * g / denom);',
        'chainerlite_rmsprop_update',
        preamble=cuda_kernel.ACC_TYPE,
    )
)

ada_grad = cuda_multi_tensor.register(
    cuda_kernel.Elementwise(
        'T grad, float64 lr, float64 eps',
        'T param, T h',
        _A + 'A g = (A)grad; h = (T)((A)h + g * g);'
        'param = (T)((A)param - (A)lr * g / (sqrt((A)h) + (A)eps));',
        'chainerlite_ada_grad_update',
        preamble=cuda_kernel.ACC_TYPE,
    )
)


def run(rule, kernel, *args):
    """Launches an update kernel for ``rule``, or collects the launch for a
    multi-tensor launch (see :func:`cuda_multi_tensor.deferred`) when the
    update may happen late: no post-update hook of the rule sees the
    parameter, and no float32 copy of a float16 parameter is written
    back."""
    defer = not rule._post_update_hooks and not rule._use_fp32_update
    cuda_multi_tensor.launch(kernel, *args, defer=defer)
