"""Inception module with batch normalization (GoogLeNet-BN)."""

import chainerlite
from chainerlite import link
from chainerlite.functions.activation import relu
from chainerlite.functions.array import concat
from chainerlite.functions.pooling import average_pooling_2d
from chainerlite.functions.pooling import max_pooling_2d
from chainerlite.links.connection import convolution_2d
from chainerlite.links.normalization import batch_normalization


class InceptionBN(link.Chain):
    """Inception module with batch normalization (Ioffe and Szegedy, 2015).

    Paths, each convolution (without bias) followed by batch normalization
    and ReLU, concatenated along the channels:

    - if ``out1 > 0``: a 1x1 convolution (``conv1``, ``conv1n``);
    - a 1x1 projection and a 3x3 convolution of stride ``stride``
      (``proj3``, ``proj3n``, ``conv3``, ``conv3n``);
    - a 1x1 projection and two 3x3 convolutions, the second of stride
      ``stride`` (``proj33``, ``proj33n``, ``conv33a``, ``conv33an``,
      ``conv33b``, ``conv33bn``);
    - a 3x3 max or average pooling of stride ``stride``, followed, if
      ``proj_pool`` is given, by a 1x1 projection (``poolp``, ``poolpn``).

    Args:
        in_channels (int or None): Channels of the input.
        out1 (int): Outputs of the 1x1 path; 0 for none.
        proj3 (int): Channels of the projection of the 3x3 path.
        out3 (int): Outputs of the 3x3 path.
        proj33 (int): Channels of the projection of the double 3x3 path.
        out33 (int): Outputs of the double 3x3 path.
        pooltype (str): ``'max'`` or ``'avg'``.
        proj_pool (int or None): Outputs of the projection after pooling;
            ``None`` passes the pooled input through.
        stride (int): Stride of the last layer of each path; with
            ``out1 > 0`` it must be 1.
        conv_init: Initializer of the convolution weights.
        dtype: Dtype of the batch normalization layers
            (``chainerlite.config.dtype`` when ``None``).

    Raises:
        AssertionError: If ``out1 > 0`` with ``stride != 1`` or without
            ``proj_pool``.
        NotImplementedError: If ``pooltype`` is neither ``'max'`` nor
            ``'avg'``.

    """

    def __init__(
        self,
        in_channels,
        out1,
        proj3,
        out3,
        proj33,
        out33,
        pooltype,
        proj_pool=None,
        stride=1,
        conv_init=None,
        dtype=None,
    ):
        super().__init__()
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        if pooltype not in ('max', 'avg'):
            raise NotImplementedError(
                'InceptionBN: pooltype must be \'max\' or \'avg\', got {!r}'.format(
                    pooltype
                )
            )
        dtype = chainerlite.get_dtype(dtype)

        def conv(n_in, n_out, ksize, stride=1, pad=0):
            return convolution_2d.Convolution2D(
                n_in,
                n_out,
                ksize,
                stride=stride,
                pad=pad,
                nobias=True,
                initialW=conv_init,
            )

        def norm(size):
            return batch_normalization.BatchNormalization(size, dtype=dtype)

        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, stride=stride, pad=1)
            self.proj33 = conv(in_channels, proj33, 1)
            self.conv33a = conv(proj33, out33, 3, pad=1)
            self.conv33b = conv(out33, out33, 3, stride=stride, pad=1)
            self.proj3n = norm(proj3)
            self.conv3n = norm(out3)
            self.proj33n = norm(proj33)
            self.conv33an = norm(out33)
            self.conv33bn = norm(out33)
            if out1 > 0:
                assert stride == 1
                assert proj_pool is not None
                self.conv1 = conv(in_channels, out1, 1)
                self.conv1n = norm(out1)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1)
                self.poolpn = norm(proj_pool)

    def forward(self, x):
        """Applies the module to ``x`` of shape ``(n, c, h, w)``."""
        outs = []
        if self.out1 > 0:
            outs.append(relu.relu(self.conv1n(self.conv1(x))))
        h = relu.relu(self.proj3n(self.proj3(x)))
        outs.append(relu.relu(self.conv3n(self.conv3(h))))
        h = relu.relu(self.proj33n(self.proj33(x)))
        h = relu.relu(self.conv33an(self.conv33a(h)))
        outs.append(relu.relu(self.conv33bn(self.conv33b(h))))
        if self.pooltype == 'max':
            p = max_pooling_2d.max_pooling_2d(
                x, 3, stride=self.stride, pad=1, cover_all=False
            )
        else:
            p = average_pooling_2d.average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = relu.relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return concat.concat(outs, axis=1)
