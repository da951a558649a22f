"""Chainer's module path of the discriminative margin-based clustering
loss."""

from chainerlite.functions.loss.discriminative_margin_based_clustering_loss import (  # NOQA
    discriminative_margin_based_clustering_loss,
)
