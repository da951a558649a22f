"""Batch normalization link, with running statistics for inference."""

from __future__ import annotations

import copy
import typing

import numpy

import chainerlite
from chainerlite import configuration
from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.normalization import batch_normalization

if typing.TYPE_CHECKING:
    from chainerlite import types


def _initializer(value, default, dtype):
    initializer = copy.copy(
        initializers._get_initializer(default if value is None else value)
    )
    initializer.dtype = dtype
    return initializer


class BatchNormalization(link.Link):
    """Batch normalization layer, with running averages of the statistics.

    In training mode (``chainerlite.config.train``), calling it applies
    :func:`~chainerlite.functions.batch_normalization` with the statistics
    of the batch and updates the running averages ``avg_mean`` and
    ``avg_var``: ``avg = decay * avg + (1 - decay) * batch_stat`` (the
    variance unbiased). The update happens once per forward pass: it is
    skipped while :func:`~chainerlite.functions.forget` recomputes the
    forward pass (``chainerlite.config.in_recomputing``). In test mode it
    applies :func:`~chainerlite.functions.fixed_batch_normalization` with
    the running averages.

    Args:
        size (int, tuple of int or None): Shape of the parameters and
            statistics (the axes not normalized over); ``None`` infers it
            from the first input (the axes not in ``axis``), which needs
            ``axis``.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variance for numerical stability.
        dtype: Data type of the parameters and statistics;
            ``chainerlite.config.dtype`` when ``None``.
        use_gamma (bool): Whether to learn the scale ``gamma`` (else 1).
        use_beta (bool): Whether to learn the shift ``beta`` (else 0).
        initial_gamma: Initializer of ``gamma`` (see
            :func:`~chainerlite.initializers._get_initializer`); ones when
            ``None``.
        initial_beta: Initializer of ``beta``; zeros when ``None``.
        axis (int, tuple of int or None): Axes to normalize over, sorted;
            ``None`` for axis 0 and the axes after those of the parameters
            (per channel for images).
        initial_avg_mean: Initializer of ``avg_mean``; zeros when ``None``.
        initial_avg_var: Initializer of ``avg_var``; ones when ``None``.

    Raises:
        RuntimeError: If neither ``size`` nor ``axis`` is given.
        ValueError: If ``initial_avg_mean`` or ``initial_avg_var`` has a
            ``dtype`` other than the link's (when the statistics are made:
            here with ``size``, else at the first call).

    Attributes:
        gamma (Parameter): Scale, or ``None`` without ``use_gamma``.
        beta (Parameter): Shift, or ``None`` without ``use_beta``.
        avg_mean (numpy.ndarray or cupy.ndarray): Running mean
            (persistent).
        avg_var (numpy.ndarray or cupy.ndarray): Running variance
            (persistent).
        N (int): Number of batches seen in fine-tuning mode (persistent).
        decay (float): The ``decay`` given.
        eps (float): The ``eps`` given.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite
        >>> import chainerlite.links as L
        >>> bn = L.BatchNormalization(2)
        >>> x = np.array([[0, 1], [2, 5]], np.float32)
        >>> bn(x).array.round(3)
        array([[-1., -1.],
               [ 1.,  1.]], dtype=float32)
        >>> bn.avg_mean
        array([0.1, 0.3], dtype=float32)
        >>> with chainerlite.using_config('train', False):
        ...     y = bn(x)

    """

    def __init__(
        self,
        size: int | tuple[int, ...] | None = None,
        decay: float = 0.9,
        eps: float = 2e-5,
        dtype: types.DTypeSpec | None = None,
        use_gamma: bool = True,
        use_beta: bool = True,
        initial_gamma: types.InitializerSpec | None = None,
        initial_beta: types.InitializerSpec | None = None,
        axis: int | tuple[int, ...] | None = None,
        initial_avg_mean: types.InitializerSpec | None = None,
        initial_avg_var: types.InitializerSpec | None = None,
    ) -> None:
        super().__init__()
        if size is None and axis is None:
            # Chainer's exception type for this misuse
            raise RuntimeError(
                'BatchNormalization: size or axis is required (with axis '
                'given, size=None infers the size from the first input)'
            )
        self._dtype = chainerlite.get_dtype(dtype, map_mixed16='float32')
        self.avg_mean = None
        self.register_persistent('avg_mean')
        self.avg_var = None
        self.register_persistent('avg_var')
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        self.axis = (axis,) if isinstance(axis, int) else axis
        # the statistics' initializers keep their dtype: one other than the
        # link's is a ValueError when the statistics are made, as in Chainer
        self._initial_avg_mean = initializers._get_initializer(
            0 if initial_avg_mean is None else initial_avg_mean
        )
        self._initial_avg_var = initializers._get_initializer(
            1 if initial_avg_var is None else initial_avg_var
        )
        with self.init_scope():
            self.gamma = None
            if use_gamma:
                self.gamma = variable.Parameter(
                    _initializer(initial_gamma, 1, self._dtype)
                )
            self.beta = None
            if use_beta:
                self.beta = variable.Parameter(
                    _initializer(initial_beta, 0, self._dtype)
                )
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, shape):
        device = self.device
        self.avg_mean = initializers.generate_array(
            self._initial_avg_mean, shape, device.xp, dtype=self._dtype, device=device
        )
        self.avg_var = initializers.generate_array(
            self._initial_avg_var, shape, device.xp, dtype=self._dtype, device=device
        )
        for param in (self.gamma, self.beta):
            if param is not None:
                self._initialize_param(param, shape)

    def _param_shape(self, x):
        # reached with size=None, which the constructor allows only with axis
        return tuple(n for i, n in enumerate(x.shape) if i not in self.axis)

    @property
    def printable_specs(self):
        """What ``str`` shows: ``size`` (the first axis of the statistics;
        None before a lazy link's first call), ``decay``, ``eps``, ``dtype``
        and whether ``gamma`` and ``beta`` are learned."""
        mean = self.avg_mean
        yield 'size', None if mean is None else mean.shape[0]
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', numpy.dtype(self._dtype) if mean is None else mean.dtype
        yield 'use_gamma', self.gamma is not None
        yield 'use_beta', self.beta is not None

    def start_finetuning(self):
        """Resets the batch count ``N`` before fine-tuning."""
        self.N = 0

    def forward(self, x, *, finetune=False, **kwargs):
        """Normalizes ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input batch.
            finetune (bool): In training mode, average the statistics over
                all the batches seen since :meth:`start_finetuning` (decay
                ``1 - 1 / N``) instead of decaying by ``decay``.

        Returns:
            Variable: Output of the shape and dtype of ``x``.

        Raises:
            ValueError: If the removed ``test`` argument is given.
            TypeError: If another keyword argument is given.

        """
        if 'test' in kwargs:
            raise ValueError(
                'test argument is not supported anymore. Use '
                'chainerlite.using_config(\'train\', False)'
            )
        if kwargs:
            raise TypeError(
                'forward() got unexpected keyword argument(s) {}'.format(
                    ', '.join(sorted(kwargs))
                )
            )
        if self.avg_mean is None:
            self._initialize_params(self._param_shape(x))
        xp = self.xp
        gamma, beta = self.gamma, self.beta
        if gamma is None:
            gamma = xp.ones(self.avg_mean.shape, self._dtype)
        if beta is None:
            beta = xp.zeros(self.avg_mean.shape, self._dtype)
        config = configuration.config
        if not config.train:
            return batch_normalization.fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps, axis=self.axis
            )
        mean = var = None
        decay = self.decay
        if not config.in_recomputing:
            mean, var = self.avg_mean, self.avg_var
            if finetune:
                self.N += 1
                decay = 1.0 - 1.0 / self.N
        return batch_normalization.batch_normalization(
            x,
            gamma,
            beta,
            eps=self.eps,
            running_mean=mean,
            running_var=var,
            decay=decay,
            axis=self.axis,
        )
