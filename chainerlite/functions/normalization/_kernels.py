"""Fused CuPy kernels of batch normalization (GPU path only).

``T`` is the data's dtype, ``C`` the dtype the statistics are computed in
(float32 for float16 data), ``P`` the dtype of gamma and beta.
The statistics keep the reduced axes (they broadcast against ``x``).
"""

from chainerlite.backends import cuda_kernel

_TYPES = [
    {'T': t, 'C': c, 'P': p}
    for t, c, p in (
        ('float16', 'float32', 'float16'),
        ('float16', 'float32', 'float32'),
        ('float32', 'float32', 'float32'),
        ('float64', 'float64', 'float64'),
    )
]

# The sum of squared deviations from the mean, along the reduced axes.
sum_sq_dev = cuda_kernel.Reduction(
    'T x, C mean',
    'C s',
    '((C)x - mean) * ((C)x - mean)',
    'a + b',
    's = a',
    '0',
    'chainerlite_sum_sq_dev',
    reduce_type='C',
    check_types=[
        {'T': t, 'C': c}
        for t, c in (
            ('float16', 'float32'),
            ('float32', 'float32'),
            ('float64', 'float64'),
        )
    ],
)

# y = (x - mean) * inv_std * gamma + beta
bn_fwd = cuda_kernel.Elementwise(
    'T x, C mean, C inv_std, P gamma, P beta',
    'T y',
    'y = (T)(((C)x - mean) * inv_std * (C)gamma + (C)beta);',
    'chainerlite_bn_fwd',
    check_types=_TYPES,
)

# The variance from the sum of squared deviations, and 1 / sqrt(var + eps).
bn_stats = cuda_kernel.Elementwise(
    'C s, float64 inv_m, float64 eps',
    'C var, C inv_std',
    'var = s * (C)inv_m; inv_std = rsqrt(var + (C)eps);',
    'chainerlite_bn_stats',
)

# running = decay * running + (1 - decay) * stat (times the unbiasing
# factor for the variance); R is the dtype of the running averages.
bn_running = cuda_kernel.Elementwise(
    'C mean, C var, float64 decay, float64 adjust',
    'R running_mean, R running_var',
    'running_mean = (R)((C)decay * (C)running_mean'
    '                   + (C)(1 - decay) * mean);'
    'running_var = (R)((C)decay * (C)running_var'
    '                  + (C)((1 - decay) * adjust) * var);',
    'chainerlite_bn_running',
    check_types=[
        {'C': 'float32', 'R': 'float16'},
        {'C': 'float32', 'R': 'float32'},
        {'C': 'float64', 'R': 'float64'},
    ],
)

# sum(gy) and sum(gy * xhat) along the reduced axes, in one reduction
bn_grad_sums = cuda_kernel.Reduction(
    'T gy, T x, C mean, C inv_std',
    'C gbeta, C ggamma',
    'sum2((C)gy, (C)gy * ((C)x - mean) * inv_std)',
    'sum2(a.first + b.first, a.second + b.second)',
    'gbeta = a.first, ggamma = a.second',
    'sum2(0, 0)',
    'chainerlite_bn_grad_sums',
    reduce_type='sum2',
    preamble='''
struct sum2 {
  C first, second;
  __device__ sum2() {}
  __device__ sum2(C a, C b) : first(a), second(b) {}
};
''',
    check_types=[
        {'T': t, 'C': c}
        for t, c in (
            ('float16', 'float32'),
            ('float32', 'float32'),
            ('float64', 'float64'),
        )
    ],
)

# gx = gamma inv_std (gy - (gbeta + xhat ggamma) / m)
bn_bwd = cuda_kernel.Elementwise(
    'T gy, T x, C mean, C inv_std, P gamma, C gbeta, C ggamma, C inv_m',
    'T gx',
    'C xhat = ((C)x - mean) * inv_std;'
    'gx = (T)((C)gamma * inv_std'
    '         * ((C)gy - (gbeta + xhat * ggamma) * inv_m));',
    'chainerlite_bn_bwd',
    check_types=_TYPES,
)
