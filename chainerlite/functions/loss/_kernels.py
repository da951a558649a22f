"""Fused CuPy kernels of softmax cross entropy with hard labels (GPU path
only).

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
