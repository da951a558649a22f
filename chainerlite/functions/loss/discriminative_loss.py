"""Chainer's module path of the discriminative margin-based clustering
loss, and its callable loss object."""

from chainerlite.functions.loss.discriminative_margin_based_clustering_loss import (  # NOQA
    discriminative_margin_based_clustering_loss,
)


class DiscriminativeMarginBasedClusteringLoss(object):
    """The discriminative margin-based clustering loss with its parameters
    bound (Chainer's loss object): calling it on ``(embeddings, labels)``
    gives :func:`discriminative_margin_based_clustering_loss` of them, the
    tuple of the variance, distance and regularization terms.

    Args:
        delta_v, delta_d, max_embedding_dim, norm, alpha, beta, gamma: As
            in :func:`discriminative_margin_based_clustering_loss`.

    Raises:
        ValueError: If ``max_embedding_dim`` is not positive or ``norm`` is
            neither 1 nor 2 (when the object is made, as in Chainer).
    """

    def __init__(
        self,
        delta_v=0.5,
        delta_d=1.5,
        max_embedding_dim=10,
        norm=1,
        alpha=1.0,
        beta=1.0,
        gamma=0.001,
    ):
        if max_embedding_dim <= 0:
            raise ValueError(
                'DiscriminativeMarginBasedClusteringLoss: max_embedding_dim '
                'must be positive, not {}'.format(max_embedding_dim)
            )
        if norm not in (1, 2):
            raise ValueError(
                'DiscriminativeMarginBasedClusteringLoss: norm must be 1 or 2, '
                'not {!r}'.format(norm)
            )
        self.delta_v = delta_v
        self.delta_d = delta_d
        self.max_embedding_dim = max_embedding_dim
        self.norm = norm
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma

    def __call__(self, embeddings, labels):
        return discriminative_margin_based_clustering_loss(
            embeddings,
            labels,
            self.delta_v,
            self.delta_d,
            self.max_embedding_dim,
            self.norm,
            self.alpha,
            self.beta,
            self.gamma,
        )
