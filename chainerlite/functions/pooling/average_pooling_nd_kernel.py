"""CUDA kernels of N-d average pooling with zero padding (Chainer's
``chainer.functions.pooling.average_pooling_nd_kernel``).

The forward kernel gives each window's sum times ``coeff`` (padded
elements count as zeros); the backward kernel gives each input element the
sum of the gradients of the windows that read it (the caller scales by the
same coefficient).
"""

from chainerlite.functions.pooling import pooling_nd_kernel


class AveragePoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):
    """Forward: ``raw T in, ..., T coeff`` -> ``T out``."""

    name = 'avg_pool_{}d_fwd'

    @classmethod
    def in_params(cls, ndim):
        return 'raw T in'

    @classmethod
    def extra_in_params(cls):
        return ', T coeff'

    @classmethod
    def out_params(cls):
        return 'T out'

    @classmethod
    def before(cls):
        return 'typename acc_type<T>::type sum = 0;'

    @classmethod
    def at_tap(cls, ndim):
        return 'if (inside) sum += (typename acc_type<T>::type)in[x_index];'

    @classmethod
    def after(cls):
        return 'out = (T)(sum * (typename acc_type<T>::type)coeff);'


class AveragePoolingNDKernelBackward(pooling_nd_kernel.PoolingNDKernelBackward):
    """Backward: ``raw T gy`` -> ``T gx`` (unscaled sums)."""

    name = 'avg_pool_{}d_bwd'

    @classmethod
    def in_params(cls, ndim):
        return 'raw T gy'

    @classmethod
    def at_tap(cls, ndim):
        return 'sum += (typename acc_type<T>::type)gy[y_index];'

    @classmethod
    def after(cls):
        return 'gx = (T)sum;'


kernel = pooling_nd_kernel.kernel


for _ndim in (1, 2, 3):
    kernel(AveragePoolingNDKernelForward, _ndim)
    kernel(AveragePoolingNDKernelBackward, _ndim)
