"""Spectral normalization of a link's weight (Miyato et al., 2018)."""

from chainerlite import backend
from chainerlite import configuration
from chainerlite import functions as F
from chainerlite import variable
from chainerlite.link_hooks import _weight_hook


def l2normalize(xp, v, eps):
    """``v`` divided by its L2 norm plus ``eps`` (``xp``: numpy or cupy)."""
    return v / (xp.sqrt(xp.sum(v * v)) + eps)


def update_approximate_vectors(weight_matrix, u, n_power_iteration, eps):
    """Power iteration on a 2-D weight: the approximate first left and
    right singular vectors ``(u, v)``, from the left one ``u``.

    Args:
        weight_matrix (Variable or numpy.ndarray or cupy.ndarray): 2-D weight.
        u (numpy.ndarray or cupy.ndarray): Left vector, of
            ``weight_matrix.shape[0]`` elements.
        n_power_iteration (int): Number of iterations (at least one).
        eps (float): Added to the norms.

    Returns:
        tuple: The new ``u`` and ``v`` (arrays).
    """
    w = variable.as_array(weight_matrix)
    xp = backend.get_array_module(w)
    for _ in range(n_power_iteration):
        v = l2normalize(xp, w.T.dot(u), eps)
        u = l2normalize(xp, w.dot(v), eps)
    return u, v


def calculate_max_singular_value(weight_matrix, u, v):
    """The largest singular value ``u^T W v`` of a 2-D weight, as a
    Variable (the gradient flows to the weight)."""
    xp = backend.get_array_module(u)
    return F.sum(weight_matrix * xp.outer(u, v))


def _as_matrix(weight, axis):
    # The weight as a matrix with one row per output channel.
    if axis != 0:
        weight = F.moveaxis(weight, axis, 0)
    return F.reshape(weight, (weight.shape[0], -1))


class SpectralNormalization(_weight_hook.WeightHook):
    """Link hook that divides a link's weight by its largest singular value.

    The weight, seen as a matrix with one row per output channel, is
    divided by an estimate of its spectral norm :math:`\\sigma(W) = u^T W
    v`, where ``u`` and ``v`` are refined by power iteration at each call
    in training mode (``config.train``). ``u`` is kept on the link as the
    persistent value ``<weight_name>_u`` (so it is saved with the link),
    ``v`` on the hook; neither is updated while recomputing
    (``config.in_recomputing``, see :func:`~chainerlite.functions.forget`)
    or outside training. The gradient flows to the weight through
    :math:`W / \\sigma(W)` with ``u`` and ``v`` held constant.

    The hook is added to one link (``link.add_hook(hook)``); using it as a
    global hook raises NotImplementedError.

    Args:
        n_power_iteration (int): Power-iteration steps per call.
        eps (float): Added to norms before dividing by them.
        use_gamma (bool): If True, the link gets a scalar parameter
            ``gamma``, initialised with the spectral norm of the initial
            weight, that multiplies the normalised weight.
        factor (float): If given, the weight is divided by
            ``sigma / factor`` instead (its spectral norm is ``factor``).
        weight_name (str): The attribute of the weight.
        name (str): The name of the hook (``'SpectralNormalization'`` by
            default).

    Attributes:
        vector_name (str): The attribute of ``u`` on the link.
        v: The last right singular vector estimate (None before the first
            call).

    Raises:
        ValueError: When added to a link without the weight, or whose
            weight has a zero-sized dimension.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> from chainerlite.link_hooks import SpectralNormalization
        >>> layer = chainer.links.Linear(4, 3)
        >>> _ = layer.add_hook(SpectralNormalization())
        >>> y = layer(np.ones((2, 4), np.float32))
        >>> layer.W_u.shape
        (3,)

    """

    name = 'SpectralNormalization'

    def __init__(
        self,
        n_power_iteration=1,
        eps=1e-6,
        use_gamma=False,
        factor=None,
        weight_name='W',
        name=None,
    ):
        super(SpectralNormalization, self).__init__(weight_name, name)
        if n_power_iteration < 1:
            raise ValueError(
                'SpectralNormalization: n_power_iteration must '
                'be positive, not {}'.format(n_power_iteration)
            )
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.vector_name = weight_name + '_u'
        self.v = None

    def prepare(self, link, weight):
        if 0 in weight.shape:
            raise ValueError(
                'SpectralNormalization: the weight {!r} has the '
                'shape {}, with no element'.format(self.weight_name, weight.shape)
            )
        xp = backend.get_array_module(weight.array)
        u = xp.random.normal(size=(weight.shape[self.axis],))
        u = l2normalize(xp, u, self.eps).astype(weight.dtype)
        setattr(link, self.vector_name, u)
        link.register_persistent(self.vector_name)
        if self.use_gamma:
            matrix = _as_matrix(weight, self.axis).array
            sigma = xp.linalg.svd(matrix.astype(xp.float64), compute_uv=False)[0]
            with link.init_scope():
                link.gamma = variable.Parameter(xp.asarray(sigma, dtype=weight.dtype))

    def release(self, link):
        delattr(link, self.vector_name)
        if self.use_gamma:
            delattr(link, 'gamma')

    def reshape_W(self, W):
        """``W`` as a matrix with one row per index of ``axis``."""
        return _as_matrix(W, self.axis)

    def normalize_weight(self, link):
        """The link's weight divided by its approximate largest singular
        value (times ``factor``, over ``gamma``), as at each forward; in
        training this advances the power iteration's vector."""
        return self.compute_weight(link, getattr(link, self.weight_name))

    def compute_weight(self, link, weight):
        matrix = self.reshape_W(weight)
        u = getattr(link, self.vector_name)
        recomputing = configuration.config.in_recomputing
        if recomputing and self.v is not None:
            v = self.v
        else:
            n = self.n_power_iteration
            u, v = update_approximate_vectors(matrix, u, n, self.eps)
            if configuration.config.train and not recomputing:
                getattr(link, self.vector_name)[...] = u
        self.v = v
        sigma = calculate_max_singular_value(matrix, u, v)
        if self.factor is not None:
            sigma = sigma / self.factor
        if self.use_gamma:
            sigma = sigma / link.gamma
        return weight / F.broadcast_to(sigma, weight.shape)
