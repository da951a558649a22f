"""When the 2-d convolutions run on oneDNN (``chainerlite._kernels.onednn``).

``config.use_ideep`` chooses, with Chainer's values: ``'never'`` (Chainer's
default, and chainerlite's where oneDNN is not installed; ``'auto'`` is the
default where it is) keeps chainerlite's own kernels; ``'always'`` uses
oneDNN wherever it takes the case; ``'auto'`` uses it where it takes the
case and was measured faster than chainerlite's own path (see
:func:`_faster`). Each function returns the result, or None for the caller
to keep its own path (oneDNN absent, or the case not taken).
"""

import numpy

from chainerlite import _core
from chainerlite._kernels import onednn
from chainerlite.backends import intel64


def _wanted(x, params, c_in):
    # whether to ask oneDNN for a convolution of c_in input channels
    # as Chainer: a use_ideep that is none of its values raises ValueError
    # where oneDNN is available
    mode = _core.config.use_ideep
    if mode == 'never' or params.ndim != 2 or not isinstance(x, numpy.ndarray):
        return False
    if 0 in params.dilate:  # oneDNN has no zero dilation
        return False
    if not intel64.should_use_ideep('>=auto'):
        return False
    return mode != 'auto' or _faster(c_in, params.groups)


def _faster(c_in, groups):
    # measured with benchmarks/onednn_conv.py (ResNet-18's CIFAR layers and
    # the small CNN, batch 32 and 128, one thread): oneDNN takes 0.4-0.8x
    # the time of chainerlite's path with 16 or more input channels per
    # group, 1x1 windows included since its workspace is kept between calls
    # (0.55-0.8x); it is slower on the 3-channel first layer (1.1-1.4x).
    # Grouped convolutions (forward and backward, one thread, batch 8-128):
    # 0.1-0.2x for depthwise ones (16-512 channels, 3x3 and 5x5 windows,
    # stride 1 and 2), 0.25-0.7x for 2-32 groups, the same time at 6
    # channels in 3 groups
    return c_in // groups >= 16 or (groups > 1 and c_in >= 16)


def convolve(x, W, b, params, outs):
    """``convolve``'s result through oneDNN, or None."""
    if not _wanted(x, params, W.shape[1] * params.groups):
        return None
    return onednn.conv2d(
        x, W, b, outs, params.stride, params.pad, params.dilate, params.groups
    )


def convolve_transpose(x, W, dims, params):
    """``convolve_transpose``'s result through oneDNN, or None."""
    if not _wanted(x, params, W.shape[1] * params.groups):
        return None
    return onednn.conv2d_transpose(
        x, W, dims, params.stride, params.pad, params.dilate, params.groups
    )


def convolve_grad_weight(x, gy, ksize, params):
    """``convolve_grad_weight``'s result through oneDNN, or None."""
    if not _wanted(x, params, x.shape[1]):
        return None
    return onednn.conv2d_grad_weight(
        x, gy, ksize, params.stride, params.pad, params.dilate, params.groups
    )
