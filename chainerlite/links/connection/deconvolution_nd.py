"""N-dimensional deconvolution (transposed convolution) layer links."""

from chainerlite.functions.connection import deconvolution_nd
from chainerlite.links.connection import convolution_nd


class DeconvolutionLayer(convolution_nd.ConvolutionLayer):
    """Base of the deconvolution layers: the filter is
    ``(c_I, c_O / groups, k_1, ..., k_N)``."""

    def filter_shape(self, in_channels, ksize):
        return (in_channels, self.out_channels // self.groups) + ksize

    @staticmethod
    def channels_of(filter_shape, groups):
        return filter_shape[0], filter_shape[1] * groups


class DeconvolutionND(DeconvolutionLayer):
    """N-dimensional deconvolution layer: holds a filter ``W``, a bias.

    Calling it applies :func:`~chainerlite.functions.deconvolution_nd`
    (the transpose of a convolution) to an input of shape
    ``(n, c_I, d_1, ..., d_N)``.

    Args:
        ndim (int): Number of spatial axes ``N``.
        in_channels (int or None): Number of input channels ``c_I``;
            ``None`` infers it from the first input. The short form
            ``DeconvolutionND(ndim, out_channels, ksize)`` also infers it.
        out_channels (int): Number of output channels ``c_O``.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Stride of the filter.
        pad (int or tuple of ints): Padding removed from the output.
        nobias (bool): If ``True``, the layer has no bias.
        outsize (tuple of ints): Spatial size of the output; the smallest
            size consistent with the input when ``None``.
        initialW: Initializer of ``W``;
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.
        dilate (int or tuple of ints): Dilation of the filter.
        groups (int): Number of groups of channels.

    Attributes:
        W (Parameter): Filter of shape ``(c_I, c_O / groups, k_1, ...,
            k_N)``.
        b (Parameter): Bias of shape ``(c_O,)``, or ``None``.

    Raises:
        ValueError: If a channel count is not divisible by ``groups``, or a
            window argument is not valid.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> deconv = L.DeconvolutionND(1, 2, 4, 4, stride=2, pad=1)
        >>> deconv.W.shape
        (2, 4, 4)
        >>> deconv(np.zeros((1, 2, 5), np.float32)).shape
        (1, 4, 10)

    """

    where = 'DeconvolutionND'

    ndim_argument = True

    def __init__(
        self,
        ndim,
        in_channels,
        out_channels,
        ksize=None,
        stride=1,
        pad=0,
        nobias=False,
        outsize=None,
        initialW=None,
        initial_bias=None,
        dilate=1,
        groups=1,
    ):
        super().__init__(
            ndim,
            in_channels,
            out_channels,
            ksize,
            stride,
            pad,
            nobias,
            initialW,
            initial_bias,
            dilate,
            groups,
        )
        self.outsize = outsize

    def forward(self, x):
        """Applies the deconvolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, d_1, ..., d_N)``.

        Returns:
            Variable: Output of shape ``(n, c_O, out_1, ..., out_N)``.

        """
        self.initialize_for(x)
        return deconvolution_nd.deconvolution_nd(
            x,
            self.W,
            self.b,
            self.stride,
            self.pad,
            self.outsize,
            self.dilate,
            self.groups,
        )


class Deconvolution1D(DeconvolutionND):
    """One-dimensional deconvolution layer: :class:`DeconvolutionND` with
    ``ndim=1``; the arguments are the others of it."""

    ndim_argument = False

    def __init__(self, *args, **kwargs):
        super().__init__(1, *args, **kwargs)


class Deconvolution3D(DeconvolutionND):
    """Three-dimensional deconvolution layer: :class:`DeconvolutionND`
    with ``ndim=3``; the arguments are the others of it."""

    ndim_argument = False

    def __init__(self, *args, **kwargs):
        super().__init__(3, *args, **kwargs)
