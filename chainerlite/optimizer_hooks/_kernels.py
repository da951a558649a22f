"""Fused CuPy kernels of the optimizer hooks (GPU path only)."""

from chainerlite.backends import cuda_kernel

# grad += rate * param, in one launch.
weight_decay = cuda_kernel.Elementwise(
    'T param, float64 rate',
    'T grad',
    'typedef typename acc_type<T>::type A;'
    'grad = (T)((A)grad + (A)(T)(rate * (A)param));',
    'chainerlite_weight_decay',
    preamble=cuda_kernel.ACC_TYPE,
)

# The squared L2 norm of an array, accumulated in double.
sqnorm = cuda_kernel.Reduction(
    'T x',
    'float64 y',
    '(double)x * (double)x',
    'a + b',
    'y = a',
    '0',
    'chainerlite_sqnorm',
    reduce_type='double',
)
