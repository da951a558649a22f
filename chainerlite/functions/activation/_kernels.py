"""Fused CuPy kernels of the activation functions (GPU path only).

Each forward and each backward is one launch instead of the chain of CuPy
calls the array-module code makes. ``A`` is the type computed in (float for
float16/float32, double for float64), ``T`` the array dtype.
"""

import sys

from chainerlite.backends import cuda_kernel
from chainerlite._core import handover

_A = 'typedef typename acc_type<T>::type A;'
_SIGMOID = '''
template <typename A> __device__ A stable_sigmoid(A t) {
  // exp(-|t|) never overflows; both tails keep full relative precision
  A e = exp(-fabs(t));
  return (t >= 0 ? A(1) : e) / (A(1) + e);
}
'''
_PREAMBLE = cuda_kernel.ACC_TYPE + _SIGMOID

elu_fwd = cuda_kernel.Elementwise(
    'T x, T alpha',
    'T y',
    _A + 'y = x > 0 ? x : (T)((A)alpha * expm1((A)x));',
    'chainerlite_elu_fwd',
    preamble=_PREAMBLE,
)
elu_bwd = cuda_kernel.Elementwise(
    'T cond, T y, T gy, T alpha',
    'T gx',
    _A + 'gx = cond > 0 ? gy : (T)((A)gy * ((A)y + (A)alpha));',
    'chainerlite_elu_bwd',
    preamble=_PREAMBLE,
)

relu_fwd = cuda_kernel.Elementwise(
    'T x', 'T y', 'y = x > 0 ? x : (T)0;', 'chainerlite_relu_fwd'
)
relu_bwd = cuda_kernel.Elementwise(
    'T y, T gy', 'T gx', 'gx = y > 0 ? gy : (T)0;', 'chainerlite_relu_bwd'
)

leaky_relu_fwd = cuda_kernel.Elementwise(
    'T x, T slope',
    'T y',
    'y = x <= 0 ? (T)(x * slope) : x;',
    'chainerlite_leaky_relu_fwd',
)
leaky_relu_bwd = cuda_kernel.Elementwise(
    'T x, T gy, T slope',
    'T gx',
    'gx = (x <= 0 && x * slope == x * slope) ? (T)(gy * slope) : gy;',
    'chainerlite_leaky_relu_bwd',
)

clipped_relu_fwd = cuda_kernel.Elementwise(
    'T x, T cap',
    'T y',
    'y = x < 0 ? (T)0 : (x > cap ? cap : x);',
    'chainerlite_clipped_relu_fwd',
)
clipped_relu_bwd = cuda_kernel.Elementwise(
    'T x, T gy, T cap',
    'T gx',
    'gx = (0 < x && x < cap) ? gy : (T)0;',
    'chainerlite_clipped_relu_bwd',
)

hard_sigmoid_fwd = cuda_kernel.Elementwise(
    'T x',
    'T y',
    _A + 'A t = (A)x * A(0.2) + A(0.5);y = (T)(t < 0 ? A(0) : (t > 1 ? A(1) : t));',
    'chainerlite_hard_sigmoid_fwd',
    preamble=_PREAMBLE,
)
hard_sigmoid_bwd = cuda_kernel.Elementwise(
    'T x, T gy',
    'T gx',
    _A + 'gx = (-2.5 < (A)x && (A)x < 2.5) ? (T)((A)gy * A(0.2)) : (T)0;',
    'chainerlite_hard_sigmoid_bwd',
    preamble=_PREAMBLE,
)

sigmoid_fwd = cuda_kernel.Elementwise(
    'T x',
    'T y',
    _A + 'y = (T)stable_sigmoid<A>((A)x);',
    'chainerlite_sigmoid_fwd',
    preamble=_PREAMBLE,
)
sigmoid_bwd = cuda_kernel.Elementwise(
    'T y, T gy',
    'T gx',
    _A + 'gx = (T)((A)gy * (A)y * (A(1) - (A)y));',
    'chainerlite_sigmoid_bwd',
    preamble=_PREAMBLE,
)

tanh_fwd = cuda_kernel.Elementwise(
    'T x', 'T y', _A + 'y = (T)tanh((A)x);', 'chainerlite_tanh_fwd', preamble=_PREAMBLE
)
tanh_bwd = cuda_kernel.Elementwise(
    'T y, T gy',
    'T gx',
    _A + 'gx = (T)((A)gy * (A(1) - (A)y * (A)y));',
    'chainerlite_tanh_bwd',
    preamble=_PREAMBLE,
)

softplus_fwd = cuda_kernel.Elementwise(
    'T x, T beta, T beta_inv',
    'T y',
    _A + 'A t = (A)beta * (A)x;'
    'y = (T)((fmax(t, A(0)) + log1p(exp(-fabs(t)))) * (A)beta_inv);',
    'chainerlite_softplus_fwd',
    preamble=_PREAMBLE,
)
softplus_bwd = cuda_kernel.Elementwise(
    'T x, T gy, T beta',
    'T gx',
    _A + 'gx = (T)((A)gy * stable_sigmoid<A>((A)beta * (A)x));',
    'chainerlite_softplus_bwd',
    preamble=_PREAMBLE,
)

# Swish: y = x sigmoid(beta x), beta broadcast along x's axes.
swish_fwd = cuda_kernel.Elementwise(
    'T x, T beta',
    'T y',
    _A + 'y = (T)((A)x * stable_sigmoid<A>((A)beta * (A)x));',
    'chainerlite_swish_fwd',
    preamble=_PREAMBLE,
)
# gx and the per-element terms of gbeta (summed by the caller).
swish_bwd = cuda_kernel.Elementwise(
    'T x, T beta, T gy',
    'T gx, T gbeta',
    _A + 'A s = stable_sigmoid<A>((A)beta * (A)x);'
    'A gy_ds = (A)gy * s * (A(1) - s);'
    'gx = (T)((A)gy * s + gy_ds * (A)beta * (A)x);'
    'gbeta = (T)(gy_ds * (A)x * (A)x);',
    'chainerlite_swish_bwd',
    preamble=_PREAMBLE,
)

# GELU: y = x Phi(x), Phi(x) = erfc(-x / sqrt(2)) / 2 (1 / sqrt(2) =
# 0.7071..., the normal density's factor 1 / sqrt(2 pi) = 0.3989...).
gelu_fwd = cuda_kernel.Elementwise(
    'T x',
    'T y',
    _A + 'y = (T)((A)x * A(0.5) * erfc(-(A)x * A(0.7071067811865476)));',
    'chainerlite_gelu_fwd',
    preamble=_PREAMBLE,
)
gelu_bwd = cuda_kernel.Elementwise(
    'T x, T gy',
    'T gx',
    _A + 'A v = (A)x;'
    'A cdf = A(0.5) * erfc(-v * A(0.7071067811865476));'
    'A pdf = exp(A(-0.5) * v * v) * A(0.3989422804014327);'
    'gx = (T)((A)gy * (cdf + v * pdf));',
    'chainerlite_gelu_bwd',
    preamble=_PREAMBLE,
)

# Softmax and log-softmax along an axis: m is the maximum along it (one
# CuPy reduction), s = sum(exp(x - m)) one reduction kernel (accumulated in
# A), then one elementwise kernel for the output.
_REDUCE_PREAMBLE = cuda_kernel.ACC_TYPE + 'typedef acc_type<T>::type A;\n'
sum_exp_shifted = cuda_kernel.Reduction(
    'T x, T m',
    'T s',
    'exp((A)x - (A)m)',
    'a + b',
    's = (T)a',
    '0',
    'chainerlite_sum_exp_shifted',
    reduce_type='A',
    preamble=_REDUCE_PREAMBLE,
)
softmax_fwd = cuda_kernel.Elementwise(
    'T x, T m, T s',
    'T y',
    _A + 'y = (T)(exp((A)x - (A)m) / (A)s);',
    'chainerlite_softmax_fwd',
    preamble=_PREAMBLE,
)
# the sum of y * gy along the axis, then gx = y (gy - sum)
sum_product = cuda_kernel.Reduction(
    'T y, T gy',
    'T s',
    '(A)y * (A)gy',
    'a + b',
    's = (T)a',
    '0',
    'chainerlite_sum_product',
    reduce_type='A',
    preamble=_REDUCE_PREAMBLE,
)
softmax_bwd = cuda_kernel.Elementwise(
    'T y, T gy, T s',
    'T gx',
    _A + 'gx = (T)((A)y * ((A)gy - (A)s));',
    'chainerlite_softmax_bwd',
    preamble=_PREAMBLE,
)
log_softmax_fwd = cuda_kernel.Elementwise(
    'T x, T m, T s',
    'T y',
    _A + 'y = (T)((A)x - (A)m - log((A)s));',
    'chainerlite_log_softmax_fwd',
    preamble=_PREAMBLE,
)
# s: the sum of gy along the axis
log_softmax_bwd = cuda_kernel.Elementwise(
    'T y, T gy, T s',
    'T gx',
    _A + 'gx = (T)((A)gy - exp((A)y) * (A)s);',
    'chainerlite_log_softmax_bwd',
    preamble=_PREAMBLE,
)

# the GPU paths of the compiled ReLU and tanh nodes (_core/ops_nn.pyx)
handover.provide(activation_kernels=sys.modules[__name__])
