"""Word embedding link: a lookup table of vectors."""

from __future__ import annotations

import typing

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.connection import embed_id

if typing.TYPE_CHECKING:
    from chainerlite import types
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class EmbedID(link.Link):
    """Embedding layer: maps integer IDs to rows of a matrix ``W``.

    Calling it applies :func:`~chainerlite.functions.embed_id`.

    Args:
        in_size (int): Number of IDs (rows of ``W``).
        out_size (int): Dimension of the vectors (columns of ``W``).
        initialW: Initializer of ``W`` (see
            :func:`~chainerlite.initializers._get_initializer`);
            ``Normal(1.0)`` when ``None``.
        ignore_label (int or None): ID mapped to a zero vector.

    Attributes:
        W (Parameter): Matrix of shape ``(in_size, out_size)``.
        ignore_label (int or None): The ignored ID.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> embed = L.EmbedID(5, 3, ignore_label=-1)
        >>> y = embed(np.array([[0, 4], [-1, 2]], np.int32))
        >>> y.shape
        (2, 2, 3)
        >>> float(abs(y.array[1, 0]).sum())
        0.0

    """

    # Links pickled before the attribute existed read it from the class.
    ignore_label = None

    def __init__(
        self,
        in_size: int,
        out_size: int,
        initialW: types.InitializerSpec | None = None,
        ignore_label: int | None = None,
    ) -> None:
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW), (in_size, out_size)
            )

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """Builds a layer from the array of its embedding matrix.

        Args:
            W (Variable or numpy.ndarray or cupy.ndarray): Matrix of shape
                ``(in_size, out_size)``.
            ignore_label (int or None): As in the constructor.

        Returns:
            EmbedID: The layer, whose ``W`` holds a copy of ``W``.

        """
        W = getattr(W, 'array', W)
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=W.copy(), ignore_label=ignore_label)

    def forward(self, x: Variable | NdArray) -> Variable:
        """Looks up the vectors of the IDs in ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Integer IDs of
                any shape.

        Returns:
            Variable: Vectors of shape ``x.shape + (out_size,)``.

        """
        return embed_id.embed_id(x, self.W, ignore_label=self.ignore_label)

    if typing.TYPE_CHECKING:
        # Calling the link runs forward (see Link.__call__).
        __call__ = forward
