"""Two-dimensional dilated convolution layer link."""

from chainerlite.functions.connection import dilated_convolution_2d
from chainerlite.links.connection import convolution_nd


class DilatedConvolution2D(convolution_nd.ConvolutionLayer):
    """Two-dimensional dilated convolution layer.

    Calling it applies
    :func:`~chainerlite.functions.dilated_convolution_2d` to an input of
    shape ``(n, c_I, h, w)``.

    Args:
        in_channels (int or None): Number of input channels ``c_I``;
            ``None`` infers it from the first input. The short form
            ``DilatedConvolution2D(out_channels, ksize)`` also infers it.
        out_channels (int): Number of output channels ``c_O``.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding of the spatial axes.
        dilate (int or pair of ints): Spacing of the filter taps.
        nobias (bool): If ``True``, the layer has no bias.
        initialW: Initializer of ``W``;
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.

    Attributes:
        W (Parameter): Filter of shape ``(c_O, c_I, k_H, k_W)``.
        b (Parameter): Bias of shape ``(c_O,)``, or ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> conv = L.DilatedConvolution2D(3, 4, 3, dilate=2)
        >>> conv(np.zeros((1, 3, 9, 9), np.float32)).shape
        (1, 4, 5, 5)

    """

    where = 'DilatedConvolution2D'

    def __init__(
        self,
        in_channels,
        out_channels,
        ksize=None,
        stride=1,
        pad=0,
        dilate=1,
        nobias=False,
        initialW=None,
        initial_bias=None,
    ):
        super().__init__(
            2,
            in_channels,
            out_channels,
            ksize,
            stride,
            pad,
            nobias,
            initialW,
            initial_bias,
            dilate,
            1,
        )

    def forward(self, x):
        """Applies the dilated convolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of shape ``(n, c_O, h_O, w_O)``.

        """
        self.initialize_for(x)
        return dilated_convolution_2d.dilated_convolution_2d(
            x, self.W, self.b, self.stride, self.pad, self.dilate
        )
