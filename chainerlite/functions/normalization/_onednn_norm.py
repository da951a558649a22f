"""When batch normalization runs on oneDNN (``chainerlite._kernels.onednn``).

As for the convolutions (``functions/connection/_onednn_conv.py``),
``config.use_ideep`` chooses: ``'never'`` (the default) keeps
chainerlite's own kernels; oneDNN takes float32 NumPy arrays of 2 or 4 axes
normalized over all axes but the channels (axis 1), with float32
parameters. ``'always'`` asks oneDNN first (:func:`first`); ``'auto'`` asks
it only where chainerlite's one-pass kernel (``_kernels.norm``) declined:
measured with ``benchmarks/onednn_conv.py --norm``, that kernel takes
0.4-0.8x oneDNN's time on ResNet-18's shapes (batch 32 and 128, one
thread), and oneDNN 0.3-0.4x NumPy's passes on (n, c) arrays and small
images, which the kernel leaves to NumPy. Each function returns the
result, or None for the caller to keep its own path.
"""

import numpy

from chainerlite import _core
from chainerlite._kernels import onednn
from chainerlite.backends import intel64


def first():
    """Whether oneDNN is asked before chainerlite's one-pass kernel."""
    return _core.config.use_ideep == 'always'


def _wanted(x, gamma, axis):
    return (
        _core.config.use_ideep != 'never'
        and isinstance(x, numpy.ndarray)
        and x.ndim in (2, 4)
        and gamma.ndim == 1
        and tuple(axis) == (0,) + tuple(range(2, x.ndim))
        and intel64.should_use_ideep('>=auto')
    )


def batch_normalization(x, gamma, beta, eps, axis):
    """``(y, mean, var)`` of the batch normalization of ``x`` over ``axis``,
    the statistics with the reduced axes kept; or None."""
    if not _wanted(x, gamma, axis):
        return None
    out = onednn.batch_norm(x, gamma, beta, eps)
    if out is None:
        return None
    y, mean, var = out
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return y, mean.reshape(shape), var.reshape(shape)


def batch_normalization_grad(x, gamma, gy, mean, var, eps, axis):
    """``(gx, ggamma, gbeta)`` from the forward's statistics; or None."""
    if not _wanted(x, gamma, axis):
        return None
    return onednn.batch_norm_grad(x, gamma, mean.reshape(-1), var.reshape(-1), gy, eps)
