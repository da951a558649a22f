"""Bilinear layer."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.connection import bilinear


def _parameter(initial, shape, default, name):
    if initial is None:
        initial = default
    elif hasattr(initial, 'shape'):
        assert initial.shape == shape, 'Bilinear: {} must have shape {}, got {}'.format(
            name, shape, initial.shape
        )
    return variable.Parameter(initializers._get_initializer(initial), shape)


class Bilinear(link.Link):
    """Bilinear layer: the building block of the Neural Tensor Network.

    It holds ``W`` of shape ``(left_size, right_size, out_size)`` and,
    unless ``nobias``, ``V1`` (``(left_size, out_size)``), ``V2``
    (``(right_size, out_size)``) and ``b`` (``(out_size,)``), and computes
    :func:`~chainerlite.functions.bilinear` of two inputs.

    Args:
        left_size (int): Dimension of the first input.
        right_size (int): Dimension of the second input.
        out_size (int): Dimension of the output.
        nobias (bool): If ``True``, only the bilinear term is used.
        initialW: Initial value or initializer of ``W``; LeCun normal when
            ``None``.
        initial_bias (tuple): Initial values or initializers of ``(V1, V2,
            b)``; when ``None``, ``V1`` and ``V2`` are LeCun normal and
            ``b`` is zero.

    Raises:
        AssertionError: If an initial array has the wrong shape.

    """

    def __init__(
        self,
        left_size,
        right_size,
        out_size,
        nobias=False,
        initialW=None,
        initial_bias=None,
    ):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        with self.init_scope():
            self.W = _parameter(
                initialW, (left_size, right_size, out_size), None, 'initialW'
            )
            if not nobias:
                if initial_bias is None:
                    initial_bias = (None, None, None)
                V1, V2, b = initial_bias
                self.V1 = _parameter(V1, (left_size, out_size), None, 'V1')
                self.V2 = _parameter(V2, (right_size, out_size), None, 'V2')
                self.b = _parameter(b, (out_size,), 0, 'b')

    def forward(self, e1, e2):
        """Applies the layer to the inputs ``e1`` and ``e2``.

        Args:
            e1 (Variable or numpy.ndarray or cupy.ndarray): Left input of
                shape ``(n, ...)`` with ``left_size`` trailing elements.
            e2 (Variable or numpy.ndarray or cupy.ndarray): Right input of
                shape ``(n, ...)`` with ``right_size`` trailing elements.

        Returns:
            Variable: Output of shape ``(n, out_size)``.

        """
        if self.nobias:
            return bilinear.bilinear(e1, e2, self.W)
        return bilinear.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)

    def zero_grads(self):
        """Chainer's older name of :meth:`~chainerlite.Link.zerograds`
        (deprecated: it warns, as that does)."""
        self.zerograds()
