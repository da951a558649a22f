"""Local response normalization across channels."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions import _grad_of
from chainerlite.functions.normalization import _norm_utils
from chainerlite.utils import type_check


def _window_sum(x, half):
    # s[:, c] = sum of x[:, c - half:c + half + 1] (clipped to the channels)
    xp = backend.get_array_module(x)
    pad = [(0, 0)] * x.ndim
    pad[1] = (half, half)
    padded = xp.pad(x, pad, mode='constant')
    channels = x.shape[1]
    s = padded[:, :channels].copy()
    for offset in range(1, 2 * half + 1):
        s += padded[:, offset : offset + channels]
    return s


class ChannelWindowSum(function_node.FunctionNode):
    """Sum over a window of neighbouring channels (its own transpose).

    Args:
        half (int): The window covers ``half`` channels on each side.

    """

    def __init__(self, half):
        self.half = half

    def forward(self, inputs):
        return (_window_sum(inputs[0], self.half),)

    def backward(self, indexes, grad_outputs):
        return ChannelWindowSum(self.half).apply(grad_outputs)


class LocalResponseNormalization(function_node.FunctionNode):
    """Cross-channel normalization by the sum of squares of neighbours."""

    def __init__(self, n=5, k=2, alpha=1e-4, beta=0.75):
        # a window narrower than one channel (n < 2, negative too) is the
        # channel alone, as in Chainer
        self.n = n
        self.half = max(n // 2, 0)
        self.k = k
        self.alpha = alpha
        self.beta = beta

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)

    def forward(self, inputs):
        # as Chainer's node: x and y are kept, backward reads both
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        (x,) = inputs
        xc = x.astype(_norm_utils.compute_dtype(x.dtype), copy=False)
        scale = self.k + self.alpha * _window_sum(xc * xc, self.half)
        return ((xc * scale**-self.beta).astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        dtype = _norm_utils.compute_dtype(x.dtype)
        xc, yc, gy = (_norm_utils.as_dtype(v, dtype) for v in (x, y, grad_outputs[0]))
        window_sum = ChannelWindowSum(self.half).apply((xc * xc,))[0]
        scale = self.k + self.alpha * window_sum
        # x * scale ** (-beta - 1) is y / scale
        back = ChannelWindowSum(self.half).apply((gy * yc / scale,))[0]
        gx = gy * scale**-self.beta - (2 * self.alpha * self.beta) * xc * back
        return (_norm_utils.as_dtype(gx, x.dtype),)


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=0.75):
    """Local response normalization across neighbouring channels.

    With ``N`` channels along the second axis, each element is divided by
    a power of the sum of the squares of the elements at the same position
    in the ``n`` neighbouring channels (``n // 2`` on each side, clipped to
    the existing channels):

    .. math::
        y_i = \\frac{x_i}{\\left(k + \\alpha \\sum_{j=\\max(1, i - n/2)}^
            {\\min(N, i + n/2)} x_j^2\\right)^\\beta}

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(batch, channels, ...)``.
        n (int): Width of the normalization window.
        k (float): Smoothing constant.
        alpha (float): Scale of the sum of squares.
        beta (float): Exponent.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 2]], np.float32)
        >>> F.local_response_normalization(x, n=3, k=0, alpha=1, beta=1).array
        array([[0.2       , 0.22222222, 0.25      ]], dtype=float32)

    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]


class LocalResponseNormalizationGrad(_grad_of.GradOf):
    """Gradient of :func:`local_response_normalization` with ``n``, ``k``,
    ``alpha`` and ``beta``, by Chainer's constructor: applied to ``(x, y,
    gy)`` (the input, the output and its gradient), the input's gradient.
    The output ``y`` is computed again from ``x`` (so it gets no gradient),
    and so are the sums Chainer may pass (``scale``, ``indexes``,
    ``unit_scale``); ``use_ideep`` is kept. Its backward is the second
    order (which Chainer's node refuses)."""

    def __init__(
        self, n, k, alpha, beta, use_ideep, scale=None, indexes=None, unit_scale=None
    ):
        self.n = n
        self.k = k
        self.alpha = alpha
        self.beta = beta
        self.use_ideep = use_ideep

    def _like(self, xs):
        return xs[:1]

    def gradients(self, xs):
        x, _, gy = xs
        return _grad_of.grads_of(
            lambda v: local_response_normalization(
                v, self.n, self.k, self.alpha, self.beta
            ),
            [x],
            gy,
        )
