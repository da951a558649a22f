"""Initializer that fills arrays with (semi-)orthogonal matrices."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import utils
from chainerlite import initializer

if typing.TYPE_CHECKING:
    from chainerlite import types

_MODES = ('auto', 'projection', 'embedding', 'basis')


class Orthogonal(initializer.Initializer):
    """Fills an array with a scaled (semi-)orthogonal matrix (Saxe 2014).

    The array is seen as a matrix of ``shape[0]`` rows (the output
    dimension) and ``size / shape[0]`` columns (the input dimension, all the
    other axes flattened); a scalar is a 1x1 matrix. A matrix of standard
    Gaussian draws is QR-decomposed with the diagonal of R made
    non-negative, so that the orthogonal factor is uniformly distributed; it
    is multiplied by ``scale``. With ``W`` the matrix, ``W W^T = scale^2 I``
    when there are no more rows than columns and ``W^T W = scale^2 I``
    otherwise.

    Args:
        scale (float): Factor applied to the orthogonal matrix.
        dtype: Data type specifier.
        mode (str): Which shapes are accepted: ``'projection'`` (rows
            <= columns), ``'embedding'`` (rows >= columns), ``'basis'``
            (square), or ``'auto'`` (any, the mode following the shape).
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    Raises:
        ValueError: If ``mode`` is unknown; when called, if the array is
            empty or its shape does not fit ``mode``.

    .. admonition:: Example

        >>> import numpy as np
        >>> from chainerlite import initializers
        >>> w = np.empty((3, 5), np.float64)
        >>> initializers.Orthogonal(scale=2.0)(w)
        >>> np.allclose(w @ w.T, 4.0 * np.eye(3))
        True

    """

    def __init__(
        self,
        scale: float = 1.1,
        dtype: types.DTypeSpec | None = None,
        mode: str = 'auto',
        *,
        rng=None,
    ) -> None:
        if mode not in _MODES:
            raise ValueError(
                'Orthogonal: invalid mode {!r}; expected one of {}'.format(mode, _MODES)
            )
        super().__init__(dtype)
        self.scale = scale
        self.mode = mode
        self.rng = rng

    def __call__(self, array):
        self._check_dtype(array)
        if array.size == 0:
            raise ValueError(
                'Orthogonal: the array to be initialized must be non-empty, '
                'got shape {}'.format(array.shape)
            )
        # A scalar is a 1x1 matrix.
        out_dim = array.shape[0] if array.ndim else 1
        in_dim = utils.size_of_shape(array.shape[1:])
        self._check_mode(out_dim, in_dim, array.shape)
        xp = backend.get_array_module(array)
        rng = self.rng if self.rng is not None else xp.random
        # The draws are Chainer's, so that a seed gives Chainer's values: a
        # scalar is scale or -scale by a fair coin, a matrix comes from the
        # QR decomposition of an (out, in) normal matrix (its transpose
        # when it is wide)
        if array.ndim == 0:
            coin = rng.randint(2) if hasattr(rng, 'randint') else rng.integers(2)
            array[...] = self.scale * (2 * int(coin) - 1)
            return
        a = rng.normal(size=(out_dim, in_dim))
        wide = out_dim < in_dim
        q, r = xp.linalg.qr(a.T if wide else a)
        q = q * xp.copysign(self.scale, xp.diagonal(r))
        array[...] = (q.T if wide else q).reshape(array.shape)

    def _check_mode(self, out_dim, in_dim, shape):
        allowed = {
            'auto': True,
            'projection': out_dim <= in_dim,
            'embedding': out_dim >= in_dim,
            'basis': out_dim == in_dim,
        }[self.mode]
        if not allowed:
            raise ValueError(
                'Orthogonal: cannot make an orthogonal {} from shape {}, '
                'seen as {} output by {} input dimensions'.format(
                    self.mode, shape, out_dim, in_dim
                )
            )
