"""Fused CuPy kernel of dropout (GPU path only)."""

from chainerlite.backends import cuda_kernel

# From uniform numbers u in [0, 1): the scaled mask (scale where
# u >= ratio, 0 elsewhere) and the output x * mask, in one launch.
dropout_fwd = cuda_kernel.Elementwise(
    'float32 u, T x, float64 ratio, T scale',
    'T y, T mask',
    'mask = u >= ratio ? scale : (T)0; y = x * mask;',
    'chainerlite_dropout_fwd',
)
