"""Discriminative margin-based clustering loss (De Brabandere et al.)."""

from chainerlite import backend
from chainerlite import variable
from chainerlite.functions.activation import relu
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import expand_dims
from chainerlite.functions.array import transpose
from chainerlite.functions.math import absolute
from chainerlite.functions.math import matmul
from chainerlite.functions.math import sqrt
from chainerlite.functions.math import sum as sum_mod


def _norm(diff, norm):
    # L1 or L2 norm over the last axis. The L2 norm of a zero vector (two
    # empty clusters) is 0 with a zero gradient, not a 0 / 0.
    if norm == 1:
        return sum_mod.sum(absolute.absolute(diff), axis=-1)
    squared = sum_mod.sum(diff * diff, axis=-1)
    zero = squared.array == 0
    return sqrt.sqrt(squared + zero.astype(squared.dtype)) * (~zero).astype(
        squared.dtype
    )


def discriminative_margin_based_clustering_loss(
    embeddings,
    labels,
    delta_v,
    delta_d,
    max_embedding_dim,
    norm=1,
    alpha=1.0,
    beta=1.0,
    gamma=0.001,
):
    """Discriminative margin-based clustering loss for instance segmentation.

    From De Brabandere et al., *Semantic Instance Segmentation with a
    Discriminative Loss Function* (2017). Each pixel has an embedding
    vector; in image ``b`` the pixels labelled ``c`` (for ``c`` in ``1 ...
    K``, with ``K = max_embedding_dim``; label ``0`` is the background and
    other labels are ignored) form cluster ``c``, with mean
    :math:`\\mu_{bc}` (the zero vector where it has no pixel). With
    :math:`[\\cdot]_+ = \\max(\\cdot, 0)`, the L1 or L2 norm, ``n`` images and
    :math:`N_c` pixels labelled ``c`` in the whole batch:

    - the pull (variance) term draws pixels to their cluster mean,
      :math:`\\frac{1}{K} \\sum_c \\frac{1}{N_c} \\sum_b \\sum_{i \\in c}
      [\\|\\mu_{bc} - x_{bi}\\| - \\delta_v]_+^2` over the clusters with
      pixels;
    - the push (distance) term drives the means of an image apart,
      :math:`\\frac{1}{n K(K-1)} \\sum_b \\sum_{c \\ne c'}
      [2\\delta_d - \\|\\mu_{bc} - \\mu_{bc'}\\|]_+^2` over all ``K``
      clusters;
    - the regularization term keeps the means small,
      :math:`\\frac{1}{n K} \\sum_c \\|(\\mu_{1c}, \\dots, \\mu_{nc})\\|`, the
      norm of a cluster's means in all images taken as one vector.

    The three terms are weighted by ``alpha``, ``beta`` and ``gamma``. A
    zero vector has the norm's gradient 0, also for the L2 norm.

    Args:
        embeddings (Variable or numpy.ndarray or cupy.ndarray): Embeddings
            of shape ``(n, d, h, w)``, of a floating point dtype.
        labels (numpy.ndarray or cupy.ndarray): Instance labels of shape
            ``(n, h, w)``, of an integer dtype.
        delta_v (float): Margin of the pull term: pixels closer than it
            to their mean are not pulled.
        delta_d (float): Margin of the push term: means farther apart than
            ``2 * delta_d`` are not pushed.
        max_embedding_dim (int): Number of clusters ``K``.
        norm (int): ``1`` (L1) or ``2`` (L2).
        alpha (float): Weight of the pull term.
        beta (float): Weight of the push term.
        gamma (float): Weight of the regularization term.

    Returns:
        tuple of Variable: The pull term, the push term and the
        regularization term, in this order (Chainer's), each a scalar.

    Raises:
        ValueError: If ``norm`` is not 1 or 2, or the shapes do not match.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> emb = np.array([[[[0., 1.], [4., 5.]], [[0., 0.], [0., 0.]]]])
        >>> lab = np.array([[[1, 1], [2, 2]]], np.int32)
        >>> pull, push, reg = F.discriminative_margin_based_clustering_loss(
        ...     emb, lab, 0.2, 3., 2, alpha=1, beta=1, gamma=1)
        >>> float(pull.array), float(push.array), float(reg.array)
        (0.09, 4.0, 2.5)

    """
    if norm not in (1, 2):
        raise ValueError(
            'discriminative_margin_based_clustering_loss: norm '
            'must be 1 or 2, not {!r}'.format(norm)
        )
    embeddings = variable.as_variable(embeddings)
    labels = variable.as_array(labels)
    if (
        embeddings.ndim != 4
        or labels.shape != embeddings.shape[:1] + embeddings.shape[2:]
    ):
        raise ValueError(
            'discriminative_margin_based_clustering_loss: embeddings of '
            'shape (n, d, h, w) and labels of shape (n, h, w) are needed, '
            'not {} and {}'.format(embeddings.shape, labels.shape)
        )
    xp = backend.get_array_module(labels)
    n, d = embeddings.shape[:2]
    k = max_embedding_dim
    if k < 1:  # (Chainer's check)
        raise ValueError(
            'discriminative_margin_based_clustering_loss: max_embedding_dim '
            'must be positive, not {}'.format(k)
        )
    dtype = embeddings.dtype
    # masks[b, c, i]: whether pixel i of image b is in cluster c + 1.
    ids = xp.arange(1, k + 1).reshape(1, k, 1)
    masks = (labels.reshape(n, 1, -1) == ids).astype(dtype)
    counts = masks.sum(axis=2, keepdims=True)
    pixels = transpose.transpose(embeddings.reshape(n, d, -1), (0, 2, 1))
    means = matmul.matmul(masks, pixels) / xp.maximum(counts, 1)  # (n, k, d)

    # Each pixel against the mean of its own cluster (pixels of no cluster
    # get the zero vector and have no weight). A cluster's pull is the mean
    # over its pixels of the whole batch, as in Chainer.
    own_means = matmul.matmul(transpose.transpose(masks, (0, 2, 1)), means)
    pull = relu.relu(_norm(pixels - own_means, norm) - delta_v) ** 2
    pull = matmul.matmul(masks, expand_dims.expand_dims(pull, 2))  # (n, k, 1)
    pull = sum_mod.sum(pull, axis=0) / xp.maximum(counts.sum(axis=0), 1)
    l_pull = sum_mod.sum(pull) / k

    shape = (n, k, k, d)
    pair_diff = broadcast.broadcast_to(
        expand_dims.expand_dims(means, 2), shape
    ) - broadcast.broadcast_to(expand_dims.expand_dims(means, 1), shape)
    push = relu.relu(2 * delta_d - _norm(pair_diff, norm)) ** 2
    off_diagonal = 1 - xp.eye(k, dtype=dtype)
    l_push = sum_mod.sum(push * off_diagonal) / (n * max(k * (k - 1), 1))

    # A cluster's size is the norm of its means in all images together.
    per_cluster = transpose.transpose(means, (1, 0, 2)).reshape(k, n * d)
    l_reg = sum_mod.sum(_norm(per_cluster, norm)) / (n * k)
    return alpha * l_pull, beta * l_push, gamma * l_reg
