"""CUDA kernels of N-d max pooling (Chainer's
``chainer.functions.pooling.max_pooling_nd_kernel``).

The forward kernel gives each window's maximum (padding counts as
``-inf``; a NaN propagates) and, in ``indexes``, the position in the
window of the first tap holding it (of the first NaN in a window with NaN,
as Chainer's CPU path): the same as the CPU path. The backward
kernel adds to each input element the gradients of the windows whose
maximum it is.
"""

from chainerlite.backends import cuda_kernel
from chainerlite.functions.pooling import pooling_nd_kernel


class MaxPoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):
    """Forward: ``raw T in`` -> ``T out, S indexes``."""

    name = 'max_pool_{}d_fwd'

    @classmethod
    def in_params(cls, ndim):
        return 'raw T in'

    @classmethod
    def out_params(cls):
        return 'T out, S indexes'

    @classmethod
    def before(cls):
        return 'T m = (T)(-CUDART_INF_F);\nS argmax = 0;\nbool first = true;'

    @classmethod
    def at_tap(cls, ndim):
        return (
            'const T v = inside ? in[x_index] : (T)(-CUDART_INF_F);\n'
            'if (first) { m = v; first = false; }\n'
            'else if (!isnan(m)) {\n'
            '  if (v > m || isnan(v)) { m = v; argmax = tap; }\n'
            '}'
        )

    @classmethod
    def after(cls):
        return 'out = m;\nindexes = argmax;'


class MaxPoolingNDKernelBackward(pooling_nd_kernel.PoolingNDKernelBackward):
    """Backward: ``raw T gy, raw S indexes`` -> ``T gx``."""

    name = 'max_pool_{}d_bwd'

    @classmethod
    def in_params(cls, ndim):
        return 'raw T gy, raw S indexes'

    @classmethod
    def at_tap(cls, ndim):
        return (
            'if (indexes[y_index] == tap) '
            'sum += (typename acc_type<T>::type)gy[y_index];'
        )

    @classmethod
    def after(cls):
        return 'gx = (T)sum;'


_INDEX_TYPES = [{'T': t, 'S': 'int64'} for t in cuda_kernel.FLOAT_TYPES]


def kernel(generator, ndim):
    """The kernel of ``generator`` (a class of this module) for ``ndim``
    axes (see :func:`pooling_nd_kernel.kernel`)."""
    return pooling_nd_kernel.kernel(generator, ndim, _INDEX_TYPES)


for _ndim in (1, 2, 3):
    kernel(MaxPoolingNDKernelForward, _ndim)
    kernel(MaxPoolingNDKernelBackward, _ndim)
