"""Fused CuPy kernels of softmax cross entropy (GPU path only): hard labels,
with or without class weights, and soft targets.

``m`` and ``s`` are the maximum and ``sum(exp(x - m))`` of each sample
along the class axis (axis 1), ``D`` the size of the axes after it; ``x``
is C-contiguous. ``S`` is the labels' integer dtype.
"""

from chainerlite.backends import cuda_kernel

_TYPES = [{'T': t, 'S': s} for t in cuda_kernel.FLOAT_TYPES for s in ('int32', 'int64')]
_PREAMBLE = cuda_kernel.ACC_TYPE

# The loss of each label: -log softmax(x)[t] (0 for ignored labels).
sce_fwd = cuda_kernel.Elementwise(
    'S t, T m, T s, raw T x, int32 n_class, int32 D, int32 ignore_label',
    'T loss',
    'typedef typename acc_type<T>::type A;'
    'if (t == ignore_label) { loss = (T)0; } else {'
    '  ptrdiff_t n = i / D, r = i % D;'
    '  A xt = (A)x[(n * n_class + t) * D + r];'
    '  loss = (T)(-(xt - (A)m - log((A)s)));'
    '}',
    'chainerlite_sce_fwd',
    preamble=_PREAMBLE,
    check_types=_TYPES,
)

# gx = g (softmax(x) - onehot(t)) for valid labels, 0 for ignored ones.
sce_bwd = cuda_kernel.Elementwise(
    'T x, T m, T s, S t, T g, int32 n_class, int32 D, int32 ignore_label',
    'T gx',
    'typedef typename acc_type<T>::type A;'
    'if (t == ignore_label) { gx = (T)0; } else {'
    '  int c = (int)((i / D) % n_class);'
    '  A y = exp((A)x - (A)m) / (A)s;'
    '  gx = (T)((A)g * (y - (c == t ? A(1) : A(0))));'
    '}',
    'chainerlite_sce_bwd',
    preamble=_PREAMBLE,
    check_types=_TYPES,
)

# With class weights: the hard-label loss and gradient scaled by the weight
# ``w`` of each label's class.
sce_weighted_fwd = cuda_kernel.Elementwise(
    'S t, T m, T s, raw T x, raw T w, int32 n_class, int32 D, int32 ignore_label',
    'T loss',
    'typedef typename acc_type<T>::type A;'
    'if (t == ignore_label) { loss = (T)0; } else {'
    '  ptrdiff_t n = i / D, r = i % D;'
    '  A xt = (A)x[(n * n_class + t) * D + r];'
    '  loss = (T)(-(A)w[t] * (xt - (A)m - log((A)s)));'
    '}',
    'chainerlite_sce_weighted_fwd',
    preamble=_PREAMBLE,
    check_types=_TYPES,
)
sce_weighted_bwd = cuda_kernel.Elementwise(
    'T x, T m, T s, S t, T g, raw T w, int32 n_class, int32 D, int32 ignore_label',
    'T gx',
    'typedef typename acc_type<T>::type A;'
    'if (t == ignore_label) { gx = (T)0; } else {'
    '  int c = (int)((i / D) % n_class);'
    '  A y = exp((A)x - (A)m) / (A)s;'
    '  gx = (T)((A)g * (A)w[t] * (y - (c == t ? A(1) : A(0))));'
    '}',
    'chainerlite_sce_weighted_bwd',
    preamble=_PREAMBLE,
    check_types=_TYPES,
)

# Soft targets ``p`` (of the shape of x), reduced along the class axis: the
# cross entropy -sum p log softmax(x), and the KL divergence, which adds
# sum p log p over the positive p.
_SOFT_REDUCE_PREAMBLE = _PREAMBLE + 'typedef acc_type<T>::type A;\n'
_LOG_SOFTMAX = '((A)x - (A)m - log((A)s))'
sce_soft_fwd = cuda_kernel.Reduction(
    'T x, T m, T s, T p',
    'T loss',
    '-(A)p * ' + _LOG_SOFTMAX,
    'a + b',
    'loss = (T)a',
    '0',
    'chainerlite_sce_soft_fwd',
    reduce_type='A',
    preamble=_SOFT_REDUCE_PREAMBLE,
)
sce_soft_kl_fwd = cuda_kernel.Reduction(
    'T x, T m, T s, T p',
    'T loss',
    # log(p + eps), eps SoftmaxCrossEntropy.eps's default as Chainer adds it
    '-(A)p * ' + _LOG_SOFTMAX + ' + (A)p * log((A)(p + (T)1e-7))',
    'a + b',
    'loss = (T)a',
    '0',
    'chainerlite_sce_soft_kl_fwd',
    reduce_type='A',
    preamble=_SOFT_REDUCE_PREAMBLE,
)
# gx = g (softmax(x) sum(p) - p), ``p_sum`` the sum of p along the axis
sce_soft_bwd = cuda_kernel.Elementwise(
    'T x, T m, T s, T p, T p_sum, T g',
    'T gx',
    'typedef typename acc_type<T>::type A;'
    'A y = exp((A)x - (A)m) / (A)s;'
    'gx = (T)((A)g * (y * (A)p_sum - (A)p));',
    'chainerlite_sce_soft_bwd',
    preamble=_PREAMBLE,
)
