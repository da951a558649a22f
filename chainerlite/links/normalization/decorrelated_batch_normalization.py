"""Decorrelated batch normalization layer."""

import operator
import warnings

import chainerlite
from chainerlite import configuration
from chainerlite import link
from chainerlite import serializer as serializer_module
from chainerlite.functions.normalization import decorrelated_batch_normalization as dbn
from chainerlite.utils import _chainer_errors


def _with_group_axis(name, array, groups, ndim):
    # Statistics saved before Chainer added the group axis lack it; each
    # group gets a copy (with a warning when there are several).
    if array.ndim == ndim:
        return array
    if array.ndim != ndim - 1:
        raise ValueError(
            'DecorrelatedBatchNormalization: unexpected shape of {}: {}'.format(
                name, array.shape
            )
        )
    if groups != 1:
        warnings.warn(
            'DecorrelatedBatchNormalization: {} was saved without its group '
            'axis; it is copied to each of the {} groups'.format(name, groups),
            UserWarning,
        )
    xp = chainerlite.backend.get_array_module(array)
    return xp.broadcast_to(array, (groups,) + array.shape)


def check_groups(groups):
    """Raises unless ``groups`` is a positive int. A ``groups`` that does
    not divide ``size`` is accepted, as Chainer 7.8.1 accepts it: each
    group then has ``size // groups`` channels and the first call refuses
    every input (an InvalidType in training).

    Raises:
        ValueError: Naming the link; of Chainer's type as well (a
            ``TypeError`` for what is not an int, a ``ZeroDivisionError``
            for zero).
    """
    try:
        operator.index(groups)
    except TypeError:
        error = _chainer_errors.TypedValueError
    else:
        error = _chainer_errors.ZeroError if groups == 0 else ValueError
        if groups > 0:
            return
    raise error(
        'DecorrelatedBatchNormalization: groups must be a positive int, but '
        '{!r} is given'.format(groups)
    )


def fix_avg_mean(avg_mean, groups):
    """Returns a running mean of shape ``(groups, C)``: ``avg_mean`` itself,
    or a 1-D one (as saved by older versions) repeated for each group.

    Raises:
        ValueError: If ``avg_mean`` is neither 1-D nor 2-D.
    """
    return _with_group_axis('avg_mean', avg_mean, groups, 2)


def fix_avg_projection(avg_projection, groups):
    """Returns a running projection of shape ``(groups, C, C)``:
    ``avg_projection`` itself, or a 2-D one (as saved by older versions)
    repeated for each group.

    Raises:
        ValueError: If ``avg_projection`` is neither 2-D nor 3-D.
    """
    return _with_group_axis('avg_projection', avg_projection, groups, 3)


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization layer (Huang et al., CVPR 2018).

    In training it whitens each channel group with the batch statistics
    (:func:`~chainerlite.functions.decorrelated_batch_normalization`) and
    updates the running averages ``avg_mean`` and ``avg_projection``;
    otherwise it applies them
    (:func:`~chainerlite.functions.fixed_decorrelated_batch_normalization`).

    Args:
        size (int): Number of channels.
        groups (int): Number of channel groups; inputs are refused unless
            it divides ``size``.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the diagonal of the covariances.
        dtype: Dtype of the running statistics; ``config.dtype`` when
            ``None`` (float32 under ``mixed16``). Chainer's default is
            float32 (docs/differences.rst).

    Attributes:
        avg_mean: Running mean, of shape ``(groups, size // groups)``
            (zeros at first).
        avg_projection: Running projection, of shape ``(groups, size //
            groups, size // groups)`` (identities at first).
        N (int): Number of batches seen while fine-tuning.

    Files saved before the statistics had a group axis (one mean and
    projection shared by all groups) load with a ``UserWarning`` when
    ``groups`` is not 1, the statistics being copied to every group.

    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5, dtype=None):
        super().__init__()
        check_groups(groups)
        dtype = chainerlite.get_dtype(dtype, map_mixed16='float32')
        cg = size // groups
        xp = self.xp
        self.avg_mean = xp.zeros((groups, cg), dtype)
        self.register_persistent('avg_mean')
        self.avg_projection = xp.broadcast_to(
            xp.eye(cg, dtype=dtype), (groups, cg, cg)
        ).copy()
        self.register_persistent('avg_projection')
        self.N = 0
        self.register_persistent('N')
        self.groups = groups
        self.decay = decay
        self.eps = eps

    def serialize(self, serializer):
        if not isinstance(serializer, serializer_module.Deserializer):
            super().serialize(serializer)
            return
        for name, fix in (
            ('avg_mean', fix_avg_mean),
            ('avg_projection', fix_avg_projection),
        ):
            loaded = serializer(name, None)
            if loaded is not None:
                getattr(self, name)[...] = self.xp.asarray(fix(loaded, self.groups))
        self.N = serializer('N', self.N)

    def forward(self, x, **kwargs):
        """Normalizes ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(n, size, ...)``.
            finetune (bool): In training mode, average the statistics over
                the batches seen since :meth:`start_finetuning`.

        Returns:
            Variable: Output of the shape and dtype of ``x``.

        """
        finetune = kwargs.pop('finetune', False)
        if kwargs:
            raise TypeError(
                'forward() got unexpected keyword argument(s) {}'.format(
                    ', '.join(sorted(kwargs))
                )
            )
        if not configuration.config.train:
            return dbn.fixed_decorrelated_batch_normalization(
                x, self.avg_mean, self.avg_projection, groups=self.groups
            )
        decay = self.decay
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        recomputing = configuration.config.in_recomputing
        return dbn.decorrelated_batch_normalization(
            x,
            groups=self.groups,
            eps=self.eps,
            running_mean=None if recomputing else self.avg_mean,
            running_projection=None if recomputing else self.avg_projection,
            decay=decay,
        )

    def start_finetuning(self):
        """Resets the batch count ``N`` before fine-tuning."""
        self.N = 0
