"""End-to-end demo: train a small MLP, time a step, recompute with forget.

Run it with ``python -m chainerlite.examples.demo`` (or ``make demo``).
"""

import numpy as np

import chainerlite as chainer
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import link
from chainerlite.function_hooks import TimerHook


class MLP(link.Chain):
    """Two fully-connected layers with a ReLU between them.

    Args:
        n_hidden (int): Width of the hidden layer.
        n_out (int): Number of outputs.

    """

    def __init__(self, n_hidden, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def hidden(self, x):
        """Returns the hidden activations ``relu(l1(x))``."""
        return F.relu(self.l1(x))

    def forward(self, x):
        return self.l2(self.hidden(x))


def make_data(rng, n_samples=64, n_in=4):
    """Draws a noisy linear regression problem.

    Args:
        rng (numpy.random.RandomState): Random number generator.
        n_samples (int): Number of samples.
        n_in (int): Number of input features.

    Returns:
        tuple of numpy.ndarray: Inputs ``(n_samples, n_in)`` and targets
        ``(n_samples, 1)``, both float32.

    """
    x = rng.uniform(-1, 1, (n_samples, n_in)).astype(np.float32)
    w = rng.uniform(-1, 1, (n_in, 1)).astype(np.float32)
    noise = rng.normal(0, 0.01, (n_samples, 1)).astype(np.float32)
    return x, x @ w + noise


def train_step(model, x, t, lr):
    """Runs one step of plain SGD on the squared error.

    Args:
        model (Link): The model to train.
        x (numpy.ndarray): Inputs.
        t (numpy.ndarray): Targets.
        lr (float): Learning rate.

    Returns:
        float: The loss before the update.

    """
    model.cleargrads()
    y = model(x)
    loss = F.sum((y - t) * (y - t))
    loss.backward()
    for param in model.params():
        param.array -= lr * param.grad
    return float(loss.array)


def main():
    """Trains the model, prints the loss, a timing report and a gradient."""
    np.random.seed(0)
    x, t = make_data(np.random.RandomState(1))
    model = MLP(16, 1)

    print('Training a 4-16-1 MLP with SGD on 64 samples')
    for step in range(1, 41):
        loss = train_step(model, x, t, lr=0.005)
        if step == 1 or step % 8 == 0:
            print('  step {:2d}  loss {:.4f}'.format(step, loss))

    print('\nTime spent in each function during one training step:')
    with TimerHook() as hook:
        train_step(model, x, t, lr=0.005)
    hook.print_report()

    print('\nGradient through F.forget (hidden layer recomputed on backward):')
    x_var = chainer.Variable(x[:2])
    y = model.l2(F.forget(model.hidden, x_var))
    F.sum(y).backward()
    print(x_var.grad)


if __name__ == '__main__':
    main()
