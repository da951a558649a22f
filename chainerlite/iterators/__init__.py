"""Iterators over datasets (``chainer.iterators``)."""

from chainerlite.iterators.dali_iterator import DaliIterator  # NOQA
from chainerlite.iterators.multiprocess_iterator import MultiprocessIterator  # NOQA
from chainerlite.iterators.multithread_iterator import MultithreadIterator  # NOQA
from chainerlite.iterators.order_samplers import OrderSampler  # NOQA
from chainerlite.iterators.order_samplers import ShuffleOrderSampler  # NOQA
from chainerlite.iterators.serial_iterator import SerialIterator  # NOQA
