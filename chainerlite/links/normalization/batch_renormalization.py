"""Batch renormalization layer."""

from chainerlite import configuration
from chainerlite.functions.normalization import batch_normalization
from chainerlite.functions.normalization import batch_renormalization
from chainerlite.links.normalization import batch_normalization as bn_link


class BatchRenormalization(bn_link.BatchNormalization):
    """Batch renormalization layer (Ioffe, 2017).

    It holds the parameters and running statistics as
    :class:`~chainerlite.links.BatchNormalization` does. In training it
    calls :func:`~chainerlite.functions.batch_renormalization`, which
    updates the running statistics; otherwise it normalizes with them
    (:func:`~chainerlite.functions.fixed_batch_normalization`).

    Args:
        size (int or tuple of int): Shape of the parameters and statistics.
        rmax (float): Upper bound of the scale correction ``r``.
        dmax (float): Bound of the shift correction ``d``.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variances.
        dtype: Dtype of the parameters and statistics.
        use_gamma (bool): Use the scaling parameter ``gamma``.
        use_beta (bool): Use the shifting parameter ``beta``.
        initial_gamma: Initializer of ``gamma`` (ones when ``None``).
        initial_beta: Initializer of ``beta`` (zeros when ``None``).
        initial_avg_mean: Initializer of ``avg_mean`` (zeros).
        initial_avg_var: Initializer of ``avg_var`` (ones).

    """

    def __init__(
        self,
        size,
        rmax=1,
        dmax=0,
        decay=0.9,
        eps=2e-5,
        dtype=None,
        use_gamma=True,
        use_beta=True,
        initial_gamma=None,
        initial_beta=None,
        initial_avg_mean=None,
        initial_avg_var=None,
    ):
        super().__init__(
            size,
            decay,
            eps,
            dtype,
            use_gamma,
            use_beta,
            initial_gamma,
            initial_beta,
            initial_avg_mean=initial_avg_mean,
            initial_avg_var=initial_avg_var,
        )
        self.rmax = rmax
        self.dmax = dmax

    def forward(self, x, finetune=False):
        """Normalizes ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input batch.
            finetune (bool): In training mode, average the statistics over
                all the batches seen since :meth:`start_finetuning`.

        Returns:
            Variable: Output of the shape and dtype of ``x``.

        """
        xp = self.xp
        gamma, beta = self.gamma, self.beta
        if gamma is None:
            gamma = xp.ones(self.avg_mean.shape, self._dtype)
        if beta is None:
            beta = xp.zeros(self.avg_mean.shape, self._dtype)
        if not configuration.config.train:
            return batch_normalization.fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps
            )
        decay = self.decay
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        return batch_renormalization.batch_renormalization(
            x,
            gamma,
            beta,
            self.rmax,
            self.dmax,
            self.eps,
            self.avg_mean,
            self.avg_var,
            decay,
            update_statistics=not configuration.config.in_recomputing,
        )
