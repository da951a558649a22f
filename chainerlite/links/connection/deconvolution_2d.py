"""Two-dimensional deconvolution (transposed convolution) layer link."""

from chainerlite.functions.connection import deconvolution_2d
from chainerlite.links.connection import deconvolution_nd


class Deconvolution2D(deconvolution_nd.DeconvolutionLayer):
    """Two-dimensional deconvolution layer: holds a filter ``W``, a bias.

    Calling it applies :func:`~chainerlite.functions.deconvolution_2d` (the
    transpose of a convolution) to an input of shape ``(n, c_I, h, w)``.

    Args:
        in_channels (int or None): Number of input channels ``c_I``;
            ``None`` infers it from the first input. The short form
            ``Deconvolution2D(out_channels, ksize)`` (``ksize`` left out)
            also infers it.
        out_channels (int): Number of output channels ``c_O``.
        ksize (int or pair of ints): Filter size ``(k_H, k_W)``.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Padding removed from the output.
        nobias (bool): If ``True``, the layer has no bias.
        outsize (pair of ints): Spatial size ``(h_O, w_O)`` of the output;
            the smallest size consistent with the input when ``None``.
        initialW: Initializer of ``W`` (see
            :func:`~chainerlite.initializers._get_initializer`);
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.
        dilate (int or pair of ints): Dilation of the filter.
        groups (int): Number of groups of channels; ``c_I`` and ``c_O``
            must be divisible by it.

    Attributes:
        W (Parameter): Filter of shape ``(c_I, c_O / groups, k_H, k_W)``.
        b (Parameter): Bias of shape ``(c_O,)``, or ``None``.

    Raises:
        ValueError: If a channel count is not divisible by ``groups``, if
            ``ksize``, ``stride``, ``dilate`` or ``groups`` is not positive
            or ``pad`` is negative, or if one of them is not an int (or a
            pair of ints).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> deconv = L.Deconvolution2D(3, 8, 4, stride=2, pad=1)
        >>> deconv.W.shape
        (3, 8, 4, 4)
        >>> deconv(np.zeros((2, 3, 5, 5), np.float32)).shape
        (2, 8, 10, 10)

    """

    where = 'Deconvolution2D'

    def __init__(
        self,
        in_channels,
        out_channels,
        ksize=None,
        stride=1,
        pad=0,
        nobias=False,
        outsize=None,
        initialW=None,
        initial_bias=None,
        *,
        dilate=1,
        groups=1,
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
            groups,
        )
        self.outsize = outsize

    def forward(self, x):
        """Applies the deconvolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of shape ``(n, c_O, h_O, w_O)``.

        """
        self.initialize_for(x)
        return deconvolution_2d.deconvolution_2d(
            x,
            self.W,
            self.b,
            self.stride,
            self.pad,
            self.outsize,
            dilate=self.dilate,
            groups=self.groups,
        )
