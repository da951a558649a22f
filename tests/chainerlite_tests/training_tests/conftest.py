"""Fixtures of the training tests: an in-order iterator, a linear model
and its data."""

import numpy as np
import pytest

import chainerlite
from chainerlite import dataset
import chainerlite.functions as F
import chainerlite.links as L


class ListIterator(dataset.Iterator):
    """Yields ``batch_size`` examples at a time, in order, repeating."""

    def __init__(self, data, batch_size, repeat=True):
        self.dataset = data
        self.batch_size = batch_size
        self.repeat = repeat
        self.reset()

    def reset(self):
        self.current = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.0
        self.finalized = False

    def __next__(self):
        if not self.repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        n = len(self.dataset)
        size = self.batch_size
        if not self.repeat:
            size = min(size, n - self.current)
        batch = [self.dataset[(self.current + i) % n] for i in range(size)]
        self.current += self.batch_size
        self.is_new_epoch = self.current >= n
        if self.is_new_epoch:
            self.epoch += 1
            self.current -= n
            if not self.repeat:
                self.current = n
        return batch

    @property
    def epoch_detail(self):
        return self.epoch + self.current / len(self.dataset)

    @property
    def previous_epoch_detail(self):
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    def finalize(self):
        self.finalized = True

    def serialize(self, serializer):
        self.current = serializer('current', self.current)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)


def regression_data(n=8, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
    t = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    return [(x[i], t[i]) for i in range(n)]


class Regressor(chainerlite.Chain):
    """A linear model whose call returns (and reports) the squared error."""

    def __init__(self):
        super(Regressor, self).__init__()
        with self.init_scope():
            self.l = L.Linear(3, 1)

    def forward(self, x, t):
        loss = F.mean_squared_error(self.l(x), t)
        chainerlite.report({'loss': loss}, self)
        return loss


@pytest.fixture(name='ListIterator')
def list_iterator_class():
    return ListIterator


@pytest.fixture(name='Regressor')
def regressor_class():
    return Regressor


@pytest.fixture
def data():
    return regression_data()
