"""A plain model of where Chainer's iterators stand after each batch.

The examples are visited as one stream: epoch ``e`` contributes the
``size`` indices of its order, and batch ``k`` of an iterator that repeats
is the stream's slice ``[k * batch_size, (k + 1) * batch_size)``, over as
many epochs as it spans. Without ``repeat`` there is one epoch and the last
batch is cut at its end. An order sampler is called once at the start and
once for each epoch end that a batch reaches, with the order that ends and
the position in it where that batch began (0 for a later epoch of the
same batch).

No chainerlite import here: the same model is checked against Chainer
7.8.1 where it is installed.
"""

import zlib

import numpy


def expected_batches(dataset_length, batch_size, repeat, sampler, count):
    """Returns up to ``count`` tuples ``(indices, epoch, epoch_detail,
    is_new_epoch, previous_epoch_detail, current_position)``, fewer when
    the iterator stops (``previous_epoch_detail`` is ``None`` only before
    the first batch)."""
    if sampler is None:
        orders = [numpy.arange(dataset_length)]
    else:
        orders = [numpy.asarray(sampler(numpy.arange(dataset_length), 0))]
    size = len(orders[0])
    consumed = 0
    batches = []
    for _ in range(count):
        if not repeat and consumed >= size:
            break
        end = consumed + batch_size if repeat else min(consumed + batch_size, size)
        for ended in range(consumed // size, end // size):
            began = max(consumed - ended * size, 0)
            if sampler is None:
                orders.append(orders[ended])
            else:
                orders.append(numpy.asarray(sampler(orders[ended], began)))
        indices = [int(orders[t // size][t % size]) for t in range(consumed, end)]
        epoch, position = divmod(end, size)
        previous = consumed // size + consumed % size / size
        batches.append(
            (
                indices,
                epoch,
                epoch + position / size,
                epoch > consumed // size,
                previous,
                position,
            )
        )
        consumed = end
    return batches


def observe(it, count):
    """Runs an iterator for up to ``count`` batches; returns what it
    reports, in the form of :func:`expected_batches`."""
    seen = []
    for _ in range(count):
        try:
            batch = it.next()
        except StopIteration:
            break
        seen.append(
            (
                [int(x) for x in batch],
                it.epoch,
                it.epoch_detail,
                it.is_new_epoch,
                it.previous_epoch_detail,
                it.current_position,
            )
        )
    return seen


class StatelessSampler(object):
    """An order sampler whose order depends only on its arguments, so that
    copies, restored iterators and the model agree on every epoch.

    Args:
        size (int): Length of the orders (the epoch size).
        dataset_length (int): Indices are drawn below it.
        permute (bool): Orders are permutations (``size`` must then be the
            dataset's length) rather than draws with replacement.

    """

    def __init__(self, size, dataset_length, permute):
        self.size = size
        self.dataset_length = dataset_length
        self.permute = permute

    def __call__(self, current_order, current_position):
        seed = zlib.crc32(numpy.asarray(current_order, numpy.int64).tobytes())
        random = numpy.random.RandomState((seed + 7919 * current_position) % 2**32)
        if self.permute:
            return random.permutation(self.dataset_length)
        return random.randint(0, self.dataset_length, self.size)
