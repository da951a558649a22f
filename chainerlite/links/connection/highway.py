"""Highway layer."""

from chainerlite import link
from chainerlite.functions.activation import relu
from chainerlite.functions.activation import sigmoid
from chainerlite.links.connection import linear


class Highway(link.Chain):
    """Highway layer (Srivastava et al., 2015).

    With the plain path ``h = activate(x W_h^T + b_h)`` and the transform
    gate ``t = sigmoid(x W_t^T + b_t)``, it computes
    ``y = h * t + x * (1 - t)``. Input and output sizes are equal.

    Args:
        in_out_size (int): Dimension of the input and output vectors.
        nobias (bool): If ``True``, neither path has a bias.
        activate (callable): Activation of the plain path.
        init_Wh: Initializer of the plain weight ``plain.W``.
        init_Wt: Initializer of the gate weight ``transform.W``.
        init_bh: Initializer of the plain bias (zeros when ``None``).
        init_bt: Initializer of the gate bias; ``-1`` by default, so that
            the layer starts close to the identity.

    Attributes:
        plain (~chainerlite.links.Linear): The plain path.
        transform (~chainerlite.links.Linear): The transform gate.

    """

    def __init__(
        self,
        in_out_size,
        nobias=False,
        activate=relu.relu,
        init_Wh=None,
        init_Wt=None,
        init_bh=None,
        init_bt=-1,
    ):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = linear.Linear(
                in_out_size,
                in_out_size,
                nobias=nobias,
                initialW=init_Wh,
                initial_bias=init_bh,
            )
            self.transform = linear.Linear(
                in_out_size,
                in_out_size,
                nobias=nobias,
                initialW=init_Wt,
                initial_bias=init_bt,
            )

    def forward(self, x):
        """Applies the layer to ``x`` of shape ``(n, in_out_size)``."""
        out_plain = self.activate(self.plain(x))
        gate = sigmoid.sigmoid(self.transform(x))
        return out_plain * gate + x * (1 - gate)
