"""Two-dimensional convolution layer link."""

from __future__ import annotations

import typing

from chainerlite.functions.connection import convolution_2d
from chainerlite.links.connection import convolution_nd

if typing.TYPE_CHECKING:
    from chainerlite import types
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Convolution2D(convolution_nd.ConvolutionLayer):
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
        in_channels (int or None): ``in_channels`` as given (``None`` where
            inferred from the first input).
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

    where = 'Convolution2D'

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int | tuple[int, int],
        ksize: int | tuple[int, int] | None = None,
        stride: int | tuple[int, int] = 1,
        pad: int | tuple[int, int] = 0,
        nobias: bool = False,
        initialW: types.InitializerSpec | None = None,
        initial_bias: types.InitializerSpec | None = None,
        *,
        dilate: int | tuple[int, int] = 1,
        groups: int = 1,
    ) -> None:
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
        # as given (None in the short form), as Chainer's Convolution2D
        # keeps it; a subclass that set it first keeps its own (ChainerMN's
        # channel-parallel convolution holds its total there and passes the
        # per-process share)
        if not hasattr(self, 'in_channels'):
            self.in_channels = None if ksize is None else in_channels

    @property
    def printable_specs(self):
        """What ``str`` shows: ``in_channels`` (as given), ``out_channels``,
        ``ksize``, ``stride``, ``pad``, ``nobias``, ``dilate`` and
        ``groups``, as Chainer's."""
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def initialize_for(self, x):
        """Initialises ``W`` from the channels of ``x`` (of 4 axes) if it
        is not yet."""
        if self.W.array is None and x.ndim != 4:
            # ValueError, as Chainer 7.8.1's unpacking of the four axes
            raise ValueError(
                'Convolution2D: in_channels is inferred from an input of shape '
                '(n, c_I, h, w), but the input has shape {}'.format(x.shape)
            )
        super().initialize_for(x)

    def forward(self, x: Variable | NdArray) -> Variable:
        """Applies the convolution to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, c_I, h, w)``.

        Returns:
            Variable: Output of shape ``(n, c_O, h_O, w_O)``.

        """
        self.initialize_for(x)
        return convolution_2d.convolution_2d(
            x,
            self.W,
            self.b,
            self.stride,
            self.pad,
            dilate=self.dilate,
            groups=self.groups,
        )

    if typing.TYPE_CHECKING:
        # Calling the link runs forward (see Link.__call__).
        __call__ = forward
