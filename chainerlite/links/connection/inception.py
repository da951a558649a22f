"""Inception module of GoogLeNet."""

from chainerlite import link
from chainerlite.functions.activation import relu
from chainerlite.functions.array import concat
from chainerlite.functions.pooling import max_pooling_2d
from chainerlite.links.connection import convolution_2d


class Inception(link.Chain):
    """Inception module of GoogLeNet (Szegedy et al., 2014).

    Four paths run in parallel on the input and their outputs are
    concatenated along the channels, then rectified: a 1x1 convolution;
    a 1x1 projection, ReLU and 3x3 convolution; a 1x1 projection, ReLU and
    5x5 convolution; a 3x3 max pooling (stride 1) and a 1x1 projection.
    Every convolution keeps the spatial size.

    Args:
        in_channels (int or None): Channels of the input; ``None`` infers
            them from the first input.
        out1 (int): Outputs of the 1x1 path.
        proj3 (int): Channels of the projection before the 3x3 convolution.
        out3 (int): Outputs of the 3x3 path.
        proj5 (int): Channels of the projection before the 5x5 convolution.
        out5 (int): Outputs of the 5x5 path.
        proj_pool (int): Outputs of the pooling path.
        conv_init: Initializer of the convolution weights.
        bias_init: Initializer of the convolution biases.

    """

    def __init__(
        self,
        in_channels,
        out1,
        proj3,
        out3,
        proj5,
        out5,
        proj_pool,
        conv_init=None,
        bias_init=None,
    ):
        super().__init__()

        def conv(n_in, n_out, ksize, pad=0):
            return convolution_2d.Convolution2D(
                n_in, n_out, ksize, pad=pad, initialW=conv_init, initial_bias=bias_init
            )

        with self.init_scope():
            self.conv1 = conv(in_channels, out1, 1)
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, pad=1)
            self.proj5 = conv(in_channels, proj5, 1)
            self.conv5 = conv(proj5, out5, 5, pad=2)
            self.projp = conv(in_channels, proj_pool, 1)

    def forward(self, x):
        """Applies the module to ``x`` of shape ``(n, c, h, w)``."""
        out1 = self.conv1(x)
        out3 = self.conv3(relu.relu(self.proj3(x)))
        out5 = self.conv5(relu.relu(self.proj5(x)))
        pool = self.projp(max_pooling_2d.max_pooling_2d(x, 3, stride=1, pad=1))
        return relu.relu(concat.concat((out1, out3, out5, pool), axis=1))
