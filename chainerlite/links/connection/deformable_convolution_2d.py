"""Two-dimensional deformable convolution layer link."""

from chainerlite import link
from chainerlite.functions.connection import deformable_convolution_2d_sampler
from chainerlite.links.connection import convolution_2d
from chainerlite.links.connection import convolution_nd
from chainerlite.utils import _windows


class DeformableConvolution2D(link.Chain):
    """Two-dimensional deformable convolution layer.

    An ``offset_conv`` (:class:`~chainerlite.links.Convolution2D`) computes
    from the input the offsets of the filter taps at each output position,
    and a ``deform_conv`` (:class:`DeformableConvolution2DSampler`)
    convolves the input sampled at those taps. See `Deformable
    Convolutional Networks <https://arxiv.org/abs/1703.06211>`_.

    Args:
        in_channels (int or None): Number of input channels; ``None``
            infers it from the first input.
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Stride of the filters.
        pad (int or pair of ints): Zero padding of the spatial axes.
        offset_nobias (bool): Whether ``offset_conv`` has no bias.
        offset_initialW: Initializer of the filter of ``offset_conv``;
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        offset_initial_bias: Initializer of its bias; zeros when ``None``.
        deform_nobias (bool): Whether ``deform_conv`` has no bias.
        deform_initialW: Initializer of the filter of ``deform_conv``;
            zeros when ``None``, as in Chainer.
        deform_initial_bias: Initializer of its bias; zeros when ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> conv = L.DeformableConvolution2D(3, 4, 3, pad=1)
        >>> conv.offset_conv.W.shape
        (18, 3, 3, 3)
        >>> conv(np.zeros((1, 3, 5, 5), np.float32)).shape
        (1, 4, 5, 5)

    """

    def __init__(
        self,
        in_channels,
        out_channels,
        ksize,
        stride=1,
        pad=0,
        offset_nobias=False,
        offset_initialW=None,
        offset_initial_bias=None,
        deform_nobias=False,
        deform_initialW=None,
        deform_initial_bias=None,
    ):
        super().__init__()
        kh, kw = _windows.as_tuple(ksize, 2)
        with self.init_scope():
            self.offset_conv = convolution_2d.Convolution2D(
                in_channels,
                2 * kh * kw,
                ksize,
                stride,
                pad,
                nobias=offset_nobias,
                initialW=offset_initialW,
                initial_bias=offset_initial_bias,
            )
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels,
                out_channels,
                ksize,
                stride,
                pad,
                nobias=deform_nobias,
                initialW=deform_initialW,
                initial_bias=deform_initial_bias,
            )

    def forward(self, x):
        """Applies the deformable convolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of shape ``(n, c_O, out_h, out_w)``.

        """
        return self.deform_conv(x, self.offset_conv(x))


class DeformableConvolution2DSampler(convolution_nd.ConvolutionLayer):
    """The filter and bias of a deformable convolution, applied with
    :func:`~chainerlite.functions.deformable_convolution_2d_sampler` to an
    input and its offsets.

    Args:
        in_channels, out_channels, ksize, stride, pad, nobias, initial_bias:
            As in :class:`~chainerlite.links.Convolution2D`.
        initialW: Initializer of the filter; zeros when ``None`` (Chainer's
            default for this link).

    """

    where = 'DeformableConvolution2D'

    def __init__(
        self,
        in_channels,
        out_channels,
        ksize,
        stride=1,
        pad=0,
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
            0 if initialW is None else initialW,
            initial_bias,
            1,
            1,
        )

    def forward(self, x, offset):
        """Convolves ``x`` sampled at the taps moved by ``offset``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.
            offset (Variable or numpy.ndarray or cupy.ndarray): Offsets of
                shape ``(n, 2 * kh * kw, out_h, out_w)``.

        Returns:
            Variable: Output of shape ``(n, c_O, out_h, out_w)``.

        """
        self.initialize_for(x)
        return deformable_convolution_2d_sampler.deformable_convolution_2d_sampler(
            x, offset, self.W, self.b, self.stride, self.pad
        )
