"""The two digit classifiers of the demo: an MLP and a small CNN.

Both are chains of *blocks* (a block is a callable that maps one variable
to the next), the last one being the output layer. With ``forget=True`` each
block before the output layer is called through
:func:`~chainerlite.functions.forget`, so its intermediate results are
dropped after the forward pass and recomputed during the backward pass.
"""

import chainerlite as chainer
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite.datasets import digits


class _BlockChain(chainer.Chain):
    """A chain whose forward pass runs its blocks in order.

    Args:
        forget (bool): Whether to call each block but the output layer
            through ``F.forget``.

    """

    def __init__(self, forget=False):
        super().__init__()
        self.forget = forget

    def blocks(self):
        """Returns the blocks, in the order the forward pass calls them."""
        raise NotImplementedError

    def forward(self, x):
        *hidden, output = self.blocks()
        h = x
        for block in hidden:
            h = F.forget(block, h) if self.forget else block(h)
        return output(h)


class MLP(_BlockChain):
    """Two hidden fully-connected ReLU layers and a linear output layer.

    Args:
        n_hidden (int): Width of each hidden layer.
        n_out (int): Number of classes.
        forget (bool): Whether to call the hidden blocks through
            ``F.forget``.

    """

    def __init__(self, n_hidden=128, n_out=10, forget=False):
        super().__init__(forget)
        with self.init_scope():
            self.l1 = L.Linear(digits.IMAGE_SIZE**2, n_hidden)
            self.l2 = L.Linear(n_hidden, n_hidden)
            self.l3 = L.Linear(n_hidden, n_out)

    def hidden1(self, x):
        """First block: ``relu(l1(x))``."""
        return F.relu(self.l1(x))

    def hidden2(self, h):
        """Second block: ``relu(l2(h))``."""
        return F.relu(self.l2(h))

    def blocks(self):
        return self.hidden1, self.hidden2, self.l3


class CNN(_BlockChain):
    """Two convolution blocks on the 8x8 image and a linear output layer.

    The 64 features of a sample are viewed as a one-channel 8x8 image. Each
    block is a 3x3 convolution (zero-padded, so it keeps the size), a ReLU
    and a 2x2 max pooling: 1x8x8 -> ``c1``x4x4 -> ``c2``x2x2 -> ``n_out``.

    Args:
        c1 (int): Channels of the first convolution.
        c2 (int): Channels of the second convolution.
        n_out (int): Number of classes.
        forget (bool): Whether to call the convolution blocks through
            ``F.forget``.

    """

    def __init__(self, c1=32, c2=64, n_out=10, forget=False):
        super().__init__(forget)
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, c1, 3, pad=1)
            self.conv2 = L.Convolution2D(c1, c2, 3, pad=1)
            self.fc = L.Linear(c2 * (digits.IMAGE_SIZE // 4) ** 2, n_out)

    def conv_block1(self, x):
        """First block: 1x8x8 image -> ``c1`` x 4 x 4 features."""
        size = digits.IMAGE_SIZE
        h = F.reshape(x, (x.shape[0], 1, size, size))
        return F.max_pooling_2d(F.relu(self.conv1(h)), 2)

    def conv_block2(self, h):
        """Second block: ``c1`` x 4 x 4 -> ``c2`` x 2 x 2 features."""
        return F.max_pooling_2d(F.relu(self.conv2(h)), 2)

    def blocks(self):
        return self.conv_block1, self.conv_block2, self.fc
