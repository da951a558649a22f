"""Fully-connected layer link."""

from __future__ import annotations

import typing

from chainerlite import initializers
from chainerlite import link
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.connection import linear

if typing.TYPE_CHECKING:
    from chainerlite import types
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Linear(link.Link):
    """Fully-connected layer: holds a weight ``W`` and a bias ``b``.

    Calling it computes ``y = x W^T + b`` with
    :func:`~chainerlite.functions.linear`.

    Args:
        in_size (int or None): Dimension of the input vectors. When
            ``None``, or when ``out_size`` is omitted, it is inferred from
            the first input, and ``W`` stays uninitialized until then.
        out_size (int): Dimension of the output vectors. When only one size
            is given, it is taken as ``out_size``.
        nobias (bool): If ``True``, the layer has no bias.
        initialW: Initializer of ``W`` (see
            :func:`~chainerlite.initializers._get_initializer`);
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.

    Attributes:
        W (Parameter): Weight of shape ``(out_size, in_size)``.
        b (Parameter): Bias of shape ``(out_size,)``, or ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> layer = L.Linear(3, 2)
        >>> layer.W.shape, layer.b.shape
        ((2, 3), (2,))
        >>> lazy = L.Linear(2)
        >>> lazy.W.array is None
        True
        >>> lazy(np.ones((4, 5), np.float32)).shape
        (4, 2)
        >>> lazy.W.shape
        (2, 5)

    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int | None = None,
        nobias: bool = False,
        initialW: types.InitializerSpec | None = None,
        initial_bias: types.InitializerSpec | None = None,
    ) -> None:
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = 0
                self.b = variable.Parameter(
                    initializers._get_initializer(initial_bias), out_size
                )

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """Builds a layer from the arrays of its weight and bias.

        Args:
            W (Variable or numpy.ndarray or cupy.ndarray): Weight of shape
                ``(out_size, in_size)``.
            b (Variable or numpy.ndarray or cupy.ndarray): Bias of
                ``out_size`` elements, or ``None`` (then the bias starts at
                zero, as in a new layer).
            nobias (bool): If ``True``, the layer has no bias.

        Returns:
            Linear: The layer, whose parameters hold copies of ``W`` and
            ``b``.

        Raises:
            ValueError: If ``b`` does not have ``out_size`` elements.

        """
        W = getattr(W, 'array', W)
        b = getattr(b, 'array', b)
        out_size, in_size = W.shape
        if b is not None and b.size != out_size:
            raise ValueError(
                'Linear.from_params: b has {} elements, W {} rows (out_size)'.format(
                    b.size, out_size
                )
            )
        return cls(
            in_size,
            out_size,
            nobias=nobias,
            initialW=W.copy(),
            initial_bias=None if b is None else b.copy(),
        )

    @property
    def printable_specs(self):
        """``in_size``, ``out_size`` and ``nobias``, as ``str`` shows them."""
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None

    def _initialize_params(self, in_size):
        self._initialize_param(self.W, (self.out_size, in_size))

    def forward(self, x: Variable | NdArray, n_batch_axes: int = 1) -> Variable:
        """Applies the layer to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input whose
                leading ``n_batch_axes`` axes are batch axes.
            n_batch_axes (int): Number of batch axes of ``x``.

        Returns:
            Variable: Output of shape ``x.shape[:n_batch_axes] +
            (out_size,)``.

        """
        if self.W.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[n_batch_axes:]))
        return linear.linear(x, self.W, self.b, n_batch_axes=n_batch_axes)

    if typing.TYPE_CHECKING:
        # Calling the link runs forward (see Link.__call__).
        __call__ = forward
