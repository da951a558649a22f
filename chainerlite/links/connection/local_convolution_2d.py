"""Two-dimensional local convolution layer link."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import local_convolution_2d
from chainerlite.links.connection import convolution_nd
from chainerlite.utils import _windows


class LocalConvolution2D(link.Link):
    """Two-dimensional local convolution layer: unshared filters.

    Calling it applies
    :func:`~chainerlite.functions.local_convolution_2d` to an input of
    shape ``(n, c_I, h, w)``; each output position has its own filters and
    bias, so the layer is made for one input size.

    Args:
        in_channels (int or None): Number of input channels ``c_I``;
            ``None`` infers it (and ``in_size``) from the first input.
        out_channels (int): Number of output channels ``c_O``.
        in_size (int or pair of ints or None): Input size ``(h, w)``;
            ``None`` infers it from the first input.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        nobias (bool): If ``True``, the layer has no bias.
        initialW: Initializer of ``W``;
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.

    Attributes:
        W (Parameter): Filters of shape
            ``(c_O, out_h, out_w, c_I, k_H, k_W)``.
        b (Parameter): Bias of shape ``(c_O, out_h, out_w)``, or ``None``.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or a
            pair of them).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> conv = L.LocalConvolution2D(3, 4, in_size=5, ksize=3)
        >>> conv.W.shape
        (4, 3, 3, 3, 3, 3)
        >>> conv(np.zeros((2, 3, 5, 5), np.float32)).shape
        (2, 4, 3, 3)

    """

    def __init__(
        self,
        in_channels,
        out_channels,
        in_size=None,
        ksize=None,
        stride=1,
        nobias=False,
        initialW=None,
        initial_bias=None,
        **kwargs,
    ):
        # Chainer 7.8.1's link takes other keyword arguments and ignores
        # them; so does this one (code written for it may pass some)
        super().__init__()
        where = 'LocalConvolution2D'
        self.ksize = _conv_args.int_pair(ksize, 'ksize', where)
        self.stride = _conv_args.int_pair(stride, 'stride', where)
        self.out_channels = out_channels
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW))
            self.b = convolution_nd.bias_parameter(nobias, initial_bias, None)
            if in_channels is not None and in_size is not None:
                self._initialize_params(in_channels, _windows.as_tuple(in_size, 2))

    def _initialize_params(self, in_channels, in_size):
        out_size = tuple(
            _windows.get_conv_outsize(d, k, s, 0)
            for d, k, s in zip(in_size, self.ksize, self.stride)
        )
        self._initialize_param(
            self.W, (self.out_channels,) + out_size + (in_channels,) + self.ksize
        )
        if self.b is not None:
            self._initialize_param(self.b, (self.out_channels,) + out_size)

    def forward(self, x):
        """Applies the local convolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of shape ``(n, c_O, out_h, out_w)``.

        """
        if self.W.array is None:
            self._initialize_params(x.shape[1], tuple(x.shape[2:]))
        return local_convolution_2d.local_convolution_2d(x, self.W, self.b, self.stride)
