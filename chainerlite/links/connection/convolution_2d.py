"""Two-dimensional convolution layer link."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import convolution_2d


def _pair(x):
    if hasattr(x, '__getitem__'):
        return tuple(x)
    return x, x


def _window_args(where, ksize, stride, pad, dilate, groups):
    """Checks the window arguments of a convolution link.

    Returns:
        tuple: ``stride``, ``pad`` and ``dilate`` as pairs of ints, and
        ``groups`` as an int (``ksize`` is checked, and kept as given).

    Raises:
        ValueError: Naming ``where`` and the argument that is not valid.
    """
    _conv_args.int_pair(ksize, 'ksize', where)
    return (_conv_args.int_pair(stride, 'stride', where),
            _conv_args.int_pair(pad, 'pad', where, minimum=0),
            _conv_args.int_pair(dilate, 'dilate', where),
            _conv_args.positive_int(groups, 'groups', where))


def _check_groups(in_channels, out_channels, groups):
    if out_channels % groups != 0:
        raise ValueError('the number of output channels must be divisible '
                         'by the number of groups')
    if in_channels is not None and in_channels % groups != 0:
        raise ValueError('the number of input channels must be divisible '
                         'by the number of groups')


def _bias(nobias, initial_bias, size):
    if nobias:
        return None
    if initial_bias is None:
        initial_bias = 0
    return variable.Parameter(
        initializers._get_initializer(initial_bias), size)


class Convolution2D(link.Link):
    """Two-dimensional convolution layer: holds a filter ``W`` and a bias.

    Calling it applies :func:`~chainerlite.functions.convolution_2d` to an
    input of shape ``(n, c_I, h, w)``.

    Args:
        in_channels (int or None): Number of input channels ``c_I``;
            ``None`` infers it from the first input. The short form
            ``Convolution2D(out_channels, ksize)`` (``ksize`` left out)
            also infers it.
        out_channels (int): Number of output channels ``c_O``.
        ksize (int or pair of ints): Filter size ``(k_H, k_W)``; an int is
            used for both.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding of the spatial axes.
        nobias (bool): If ``True``, the layer has no bias.
        initialW: Initializer of ``W`` (see
            :func:`~chainerlite.initializers._get_initializer`);
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.
        dilate (int or pair of ints): Dilation of the filter.
        groups (int): Number of groups of channels; ``c_I`` and ``c_O``
            must be divisible by it.

    Attributes:
        W (Parameter): Filter of shape ``(c_O, c_I / groups, k_H, k_W)``.
        b (Parameter): Bias of shape ``(c_O,)``, or ``None``.

    Raises:
        ValueError: If a channel count is not divisible by ``groups``, if
            ``ksize``, ``stride``, ``dilate`` or ``groups`` is not positive
            or ``pad`` is negative, or if one of them is not an int (or a
            pair of ints).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> conv = L.Convolution2D(3, 8, 3, pad=1)
        >>> conv.W.shape
        (8, 3, 3, 3)
        >>> lazy = L.Convolution2D(8, 3)
        >>> lazy(np.zeros((2, 5, 6, 6), np.float32)).shape
        (2, 8, 4, 4)
        >>> lazy.W.shape
        (8, 5, 3, 3)

    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None, *,
                 dilate=1, groups=1):
        super().__init__()
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        self.stride, self.pad, self.dilate, self.groups = _window_args(
            'Convolution2D', ksize, stride, pad, dilate, groups)
        _check_groups(in_channels, out_channels, self.groups)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.ksize = ksize
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        _check_groups(in_channels, self.out_channels, self.groups)
        kh, kw = _pair(self.ksize)
        self._initialize_param(
            self.W, (self.out_channels, in_channels // self.groups, kh, kw))

    def forward(self, x):
        """Applies the convolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of shape ``(n, c_O, h_O, w_O)``.

        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_2d.convolution_2d(
            x, self.W, self.b, self.stride, self.pad, dilate=self.dilate,
            groups=self.groups)
