"""Two-dimensional depthwise convolution layer link."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import depthwise_convolution_2d
from chainerlite.links.connection import convolution_nd
from chainerlite.utils import _windows


class DepthwiseConvolution2D(link.Link):
    """Two-dimensional depthwise convolution layer.

    Calling it applies
    :func:`~chainerlite.functions.depthwise_convolution_2d` to an input of
    shape ``(n, c_I, h, w)``: each input channel is convolved with
    ``channel_multiplier`` filters of its own.

    Args:
        in_channels (int or None): Number of input channels ``c_I``;
            ``None`` infers it from the first input.
        channel_multiplier (int): Number of filters ``m`` per channel.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding of the spatial axes.
        nobias (bool): If ``True``, the layer has no bias.
        initialW: Initializer of ``W``;
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.

    Attributes:
        W (Parameter): Filter of shape ``(m, c_I, k_H, k_W)``.
        b (Parameter): Bias of shape ``(m * c_I,)``, or ``None``.

    Raises:
        ValueError: If a window argument is not valid.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> conv = L.DepthwiseConvolution2D(3, 2, 3, pad=1)
        >>> conv(np.zeros((1, 3, 5, 5), np.float32)).shape
        (1, 6, 5, 5)

    """

    def __init__(
        self,
        in_channels,
        channel_multiplier,
        ksize,
        stride=1,
        pad=0,
        nobias=False,
        initialW=None,
        initial_bias=None,
    ):
        super().__init__()
        _conv_args.int_pair(ksize, 'ksize', 'DepthwiseConvolution2D')
        self.stride, self.pad, _ = convolution_nd.window_args(2, stride, pad, 1)
        self.ksize = _windows.as_tuple(ksize, 2)
        self.channel_multiplier = channel_multiplier
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW))
            self.b = convolution_nd.bias_parameter(nobias, initial_bias, None)
            if in_channels is not None:
                self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        self._initialize_param(
            self.W, (self.channel_multiplier, in_channels) + self.ksize
        )
        if self.b is not None:
            self._initialize_param(self.b, (self.channel_multiplier * in_channels,))

    def forward(self, x):
        """Applies the depthwise convolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of shape ``(n, m * c_I, h_O, w_O)``.

        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return depthwise_convolution_2d.depthwise_convolution_2d(
            x, self.W, self.b, self.stride, self.pad
        )
