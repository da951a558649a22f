"""Initializers with linear-interpolation filters for up/downsampling."""

import numpy

from chainerlite import backend
from chainerlite import initializer
from chainerlite.utils import _chainer_errors


def _linear_kernel(ksize, normalize):
    # Triangle of half-width f = ceil(ksize / 2) centred on the window; its
    # values sum to f per axis (the stride of the matching deconvolution),
    # or to 1 when normalized (an averaging filter).
    factor = (ksize + 1) // 2
    center = factor - 1 if ksize % 2 == 1 else factor - 0.5
    kernel = 1 - numpy.abs(numpy.arange(ksize) - center) / factor
    if normalize:
        kernel /= kernel.sum()
    return kernel


class _SamplingFilter(initializer.Initializer):
    _normalize = None

    def __init__(self, interpolation='linear', dtype=None):
        if interpolation != 'linear':
            raise ValueError(
                '{}: unsupported interpolation {!r} (only \'linear\')'.format(
                    type(self).__name__, interpolation
                )
            )
        super().__init__(dtype)
        self.interpolation = interpolation

    def __call__(self, array):
        self._check_dtype(array)
        name = type(self).__name__
        # the types are Chainer 7.8.1's: it unpacks the two channel axes (a
        # ValueError), asserts that they fit, then fails on no kernel axis
        # (a TypeError)
        if array.ndim < 2:
            raise ValueError(
                '{}: the array needs output and input channel axes, got '
                'shape {}'.format(name, array.shape)
            )
        out_channels, in_channels = array.shape[:2]
        if in_channels not in (1, out_channels):
            raise _chainer_errors.AssertedValueError(
                '{}: the input channels must be 1 or equal to the output '
                'channels, got shape {}'.format(name, array.shape)
            )
        if array.ndim < 3:
            raise _chainer_errors.TypedValueError(
                '{}: the array needs a kernel axis after the output and '
                'input channels, got shape {}'.format(name, array.shape)
            )
        if len(set(array.shape[2:])) > 1:
            raise ValueError(
                '{}: the kernel must have one size on every axis, got shape {}'.format(
                    name, array.shape
                )
            )
        kernel = numpy.ones(())
        for ksize in array.shape[2:]:
            kernel = numpy.multiply.outer(
                kernel, _linear_kernel(ksize, self._normalize)
            )
        weight = numpy.zeros(array.shape)
        for o in range(out_channels):
            weight[o, o if in_channels > 1 else 0] = kernel
        xp = backend.get_array_module(array)
        array[...] = xp.asarray(weight)


class UpsamplingDeconvFilter(_SamplingFilter):
    """Fills a deconvolution weight with a linear upsampling filter.

    Each output channel gets the product over the spatial axes of the
    triangle ``1 - |i - c| / f`` (``f = (ksize + 1) // 2``, ``c`` the
    window centre), on the matching input channel (or on the only one), as
    in Long et al. (arXiv:1411.4038). Use the deconvolution with stride
    ``(ksize + 1) // 2``.

    Args:
        interpolation (str): Interpolation method; only ``'linear'``.
        dtype: Data type specifier.

    Raises:
        ValueError: For another interpolation, or when called on an array
            with fewer than three axes, whose input channels are neither 1
            nor the output channels or whose kernel axes differ in size.

    """

    _normalize = False


class DownsamplingConvFilter(_SamplingFilter):
    """Fills a convolution weight with a linear downsampling filter.

    The same filter as :class:`UpsamplingDeconvFilter`, normalized to sum
    to one for each output channel. Use the convolution with stride
    ``(ksize + 1) // 2``.

    Args:
        interpolation (str): Interpolation method; only ``'linear'``.
        dtype: Data type specifier.

    Raises:
        ValueError: As :class:`UpsamplingDeconvFilter`.

    """

    _normalize = True
