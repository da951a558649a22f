"""N-dimensional convolution layer links."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import convolution_nd
from chainerlite.utils import _chainer_errors
from chainerlite.utils import _windows


def window_args(ndim, stride, pad, dilate):
    """``stride``, ``pad`` and ``dilate`` as a convolution link keeps them.

    They are not checked here: as in Chainer 7.8.1, a link is built
    whatever they are, and the function checks them at each call (naming
    itself and the argument). An int or a sequence of ``ndim`` of them
    becomes a tuple; anything else is kept as given.

    Returns:
        tuple: ``(stride, pad, dilate)``.
    """
    return tuple(_as_window(v, ndim) for v in (stride, pad, dilate))


def _as_window(value, ndim):
    try:
        return _windows.as_tuple(value, ndim)
    except (AssertionError, TypeError):
        return value


def check_groups(where, in_channels, out_channels, groups):
    """Returns ``groups`` as an int after checking that it is positive and
    divides the channel counts.

    Raises:
        ValueError: Naming ``where`` (a ``ZeroDivisionError`` too for a
            zero ``groups``).
    """
    groups = _conv_args.positive_int(groups, 'groups', where)
    for kind, channels in (('output', out_channels), ('input', in_channels)):
        if channels is not None and channels % groups != 0:
            raise ValueError(
                '{}: the number of {} channels ({}) must be divisible by the '
                'number of groups ({})'.format(where, kind, channels, groups)
            )
    return groups


def bias_parameter(nobias, initial_bias, size):
    """The bias parameter of a layer: ``None`` with ``nobias``, else a
    :class:`~chainerlite.Parameter` of ``size`` (zeros by default)."""
    if nobias:
        return None
    if initial_bias is None:
        initial_bias = 0
    return variable.Parameter(initializers._get_initializer(initial_bias), size)


class ConvolutionLayer(link.Link):
    """Base of the convolution and deconvolution layers.

    It holds a filter ``W`` (initialised lazily when ``in_channels`` is
    ``None``) and a bias ``b``. Subclasses set ``where`` (the name in
    errors), and give the filter shape in :meth:`filter_shape` and the
    function in :meth:`forward`.

    Args:
        ndim (int): Number of spatial axes.
        in_channels, out_channels, ksize, stride, pad, nobias, initialW,
        initial_bias, dilate, groups: As in :class:`ConvolutionND`.

    """

    where = 'ConvolutionND'
    # Whether the constructor takes the number of spatial axes first.
    ndim_argument = False

    def __init__(
        self,
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
    ):
        super().__init__()
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        # Only ksize (the filter's shape) is checked now; groups is checked
        # when the filter is made (now when in_channels is given, else at
        # the first call) and the others at each call, as in Chainer 7.8.1
        _conv_args.int_tuple(ksize, ndim, 'ksize', self.where)
        self.stride, self.pad, self.dilate = window_args(ndim, stride, pad, dilate)
        self.groups = groups
        self.ndim = ndim
        # No ``in_channels`` attribute (as in Chainer): subclasses such as
        # ChainerMN's channel-parallel convolution keep their own total
        # there and pass the per-process count to this constructor.
        self.out_channels = out_channels
        self.ksize = ksize
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = bias_parameter(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        self.groups = check_groups(
            self.where, in_channels, self.out_channels, self.groups
        )
        self._initialize_param(
            self.W,
            self.filter_shape(in_channels, _windows.as_tuple(self.ksize, self.ndim)),
        )

    def filter_shape(self, in_channels, ksize):
        """Shape of ``W`` for ``in_channels`` input channels."""
        return (self.out_channels, in_channels // self.groups) + ksize

    @staticmethod
    def channels_of(filter_shape, groups):
        """``(in_channels, out_channels)`` of a filter of this shape."""
        return filter_shape[1] * groups, filter_shape[0]

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """Builds a layer from the arrays of its filter and bias.

        Args:
            W (Variable or numpy.ndarray or cupy.ndarray): Filter, shaped
                as the ``W`` of the layer (its spatial axes give ``ksize``
                and, for an N-dimensional layer, ``ndim``).
            b (Variable or numpy.ndarray or cupy.ndarray): Bias, or
                ``None`` (then the layer has no bias).
            stride, pad, nobias: As in the constructor.
            **kwargs: Further keyword arguments of the constructor (such as
                ``groups``, ``dilate``, ``cover_all`` or ``outsize``).

        Returns:
            The layer, whose parameters hold copies of ``W`` and ``b``.

        """
        W = getattr(W, 'array', W)
        b = getattr(b, 'array', b)
        in_channels, out_channels = cls.channels_of(W.shape, kwargs.get('groups', 1))
        args = (in_channels, out_channels, W.shape[2:])
        if cls.ndim_argument:
            args = (W.ndim - 2,) + args
        return cls(
            *args,
            stride=stride,
            pad=pad,
            nobias=nobias or b is None,
            initialW=W.copy(),
            initial_bias=None if b is None else b.copy(),
            **kwargs,
        )

    def initialize_for(self, x):
        """Initialises ``W`` from the channels of the input ``x`` if it is
        not yet."""
        if self.W.array is None:
            if x.ndim < 2:
                # Chainer 7.8.1 reads x.shape[1]: an IndexError there
                raise _chainer_errors.IndexValueError(
                    '{}: in_channels is inferred from axis 1 of the input, but '
                    'the input has shape {}'.format(self.where, x.shape)
                )
            self._initialize_params(x.shape[1])


class ConvolutionND(ConvolutionLayer):
    """N-dimensional convolution layer: holds a filter ``W`` and a bias.

    Calling it applies :func:`~chainerlite.functions.convolution_nd` to an
    input of shape ``(n, c_I, d_1, ..., d_N)``.

    Args:
        ndim (int): Number of spatial axes ``N``.
        in_channels (int or None): Number of input channels ``c_I``;
            ``None`` infers it from the first input. The short form
            ``ConvolutionND(ndim, out_channels, ksize)`` (``ksize`` left
            out) also infers it.
        out_channels (int): Number of output channels ``c_O``.
        ksize (int or tuple of ints): Filter size; an int is used for every
            axis.
        stride (int or tuple of ints): Stride of the filter.
        pad (int or tuple of ints): Zero padding of the spatial axes.
        nobias (bool): If ``True``, the layer has no bias.
        initialW: Initializer of ``W``;
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.
        cover_all (bool): See :func:`~chainerlite.functions.convolution_nd`.
        dilate (int or tuple of ints): Dilation of the filter.
        groups (int): Number of groups of channels; ``c_I`` and ``c_O``
            must be divisible by it.

    Attributes:
        W (Parameter): Filter of shape ``(c_O, c_I / groups, k_1, ...,
            k_N)``.
        b (Parameter): Bias of shape ``(c_O,)``, or ``None``.

    Raises:
        ValueError: If ``ksize`` is not valid, or (when ``in_channels`` is
            given) ``groups`` is not a positive int dividing the channel
            counts. The other window arguments and a lazy ``groups`` are
            checked when the layer is called, as Chainer 7.8.1 does.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> conv = L.ConvolutionND(3, 2, 4, 3, pad=1)
        >>> conv.W.shape
        (4, 2, 3, 3, 3)
        >>> conv(np.zeros((1, 2, 5, 5, 5), np.float32)).shape
        (1, 4, 5, 5, 5)

    """

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
        initialW=None,
        initial_bias=None,
        cover_all=False,
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
        self.cover_all = cover_all

    def forward(self, x):
        """Applies the convolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, d_1, ..., d_N)``.

        Returns:
            Variable: Output of shape ``(n, c_O, out_1, ..., out_N)``.

        """
        self.initialize_for(x)
        return convolution_nd.convolution_nd(
            x,
            self.W,
            self.b,
            self.stride,
            self.pad,
            self.cover_all,
            self.dilate,
            self.groups,
        )


class Convolution1D(ConvolutionND):
    """One-dimensional convolution layer: :class:`ConvolutionND` with
    ``ndim=1``; the arguments are the others of it."""

    ndim_argument = False

    def __init__(self, *args, **kwargs):
        super().__init__(1, *args, **kwargs)


class Convolution3D(ConvolutionND):
    """Three-dimensional convolution layer: :class:`ConvolutionND` with
    ``ndim=3``; the arguments are the others of it."""

    ndim_argument = False

    def __init__(self, *args, **kwargs):
        super().__init__(3, *args, **kwargs)
