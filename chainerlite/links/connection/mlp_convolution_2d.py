"""Two-dimensional MLP convolution layer (network in network)."""

from chainerlite import link
from chainerlite.functions.activation import relu
from chainerlite.links.connection import convolution_2d


class MLPConvolution2D(link.ChainList):
    """Two-dimensional MLP convolution layer of Network in Network.

    A :class:`~chainerlite.links.Convolution2D` with the given window
    followed by ``1 x 1`` convolutions, with ``activation`` between them
    (not after the last one). See `Network in Network
    <https://arxiv.org/abs/1312.4400>`_.

    Args:
        in_channels (int or None): Number of input channels; ``None``
            infers it from the first input. The short form
            ``MLPConvolution2D(out_channels, ksize)`` also infers it.
        out_channels (tuple of ints): Output channels of each convolution.
        ksize (int or pair of ints): Window of the first convolution.
        stride (int or pair of ints): Stride of the first convolution.
        pad (int or pair of ints): Padding of the first convolution.
        activation (callable): Applied between the convolutions.
        conv_init: Initializer of the filters (``initialW`` of each);
            keyword only.
        bias_init: Initializer of the biases (``initial_bias`` of each);
            keyword only.

    Raises:
        TypeError: If a 7th positional argument (``wscale`` in Chainer v1)
            or an unknown keyword argument is given.
        ValueError: If ``wscale`` is given, or ``out_channels`` is empty.

    Attributes:
        activation (callable): The activation function.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> mlp = L.MLPConvolution2D(3, (8, 8, 4), 3)
        >>> [conv.W.shape for conv in mlp]
        [(8, 3, 3, 3), (8, 8, 1, 1), (4, 8, 1, 1)]
        >>> mlp(np.zeros((1, 3, 5, 5), np.float32)).shape
        (1, 4, 3, 3)

    """

    def __init__(
        self,
        in_channels,
        out_channels,
        ksize=None,
        stride=1,
        pad=0,
        activation=relu.relu,
        *args,
        conv_init=None,
        bias_init=None,
        **kwargs,
    ):
        if args:
            raise TypeError(
                'MLPConvolution2D takes at most 6 positional arguments (the '
                '7th was wscale, which is no longer supported)'
            )
        if 'wscale' in kwargs:
            raise ValueError(
                'MLPConvolution2D: wscale is not supported anymore; use conv_init'
            )
        if kwargs:
            raise TypeError(
                'MLPConvolution2D got unexpected keyword arguments: {}'.format(
                    ', '.join(kwargs)
                )
            )
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        if not out_channels:
            raise ValueError(
                'MLPConvolution2D: out_channels must name at least one convolution'
            )
        convs = [
            convolution_2d.Convolution2D(
                in_channels,
                out_channels[0],
                ksize,
                stride,
                pad,
                initialW=conv_init,
                initial_bias=bias_init,
            )
        ]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            convs.append(
                convolution_2d.Convolution2D(
                    n_in, n_out, 1, initialW=conv_init, initial_bias=bias_init
                )
            )
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x):
        """Applies the convolutions, with the activation between them.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of the last convolution.

        """
        convs = list(self)
        for conv in convs[:-1]:
            x = self.activation(conv(x))
        return convs[-1](x)
