"""An iterator over the batches of an NVIDIA DALI pipeline (experimental in
Chainer too).

The iterator needs only the pipeline's interface: ``build()``, ``run()``
(one batch: the pipeline's outputs), ``batch_size`` and ``epoch_size()``
(a dict from reader name to the number of samples, DALI's form, or an int).
Turning the outputs into arrays is the converter's job, as in Chainer.
"""

from chainerlite import utils
from chainerlite.dataset import iterator
from chainerlite.serializers import _checks


class DaliIterator(iterator.Iterator):
    """Iterates over the batches a DALI pipeline produces.

    The pipeline is built at the first batch. An epoch is
    ``epoch_size`` samples of the pipeline's (first) reader.

    Args:
        pipeline: A DALI pipeline (``nvidia.dali.pipeline.Pipeline``) or an
            object with its ``build``, ``run``, ``batch_size`` and
            ``epoch_size`` members.
        repeat (bool): Whether to go on after the first epoch; otherwise
            iteration stops at its end.
    """

    def __init__(self, pipeline, repeat=True):
        utils.experimental('DaliIterator')
        self.pipeline = pipeline
        self._repeat = repeat
        self._is_build = False
        self.epoch_size = 1  # until the pipeline is built
        self.reset()

    def __next__(self):
        if not self._is_build:
            self.pipeline.build()
            self._is_build = True
            self.epoch_size = self._read_epoch_size()
        if not self._repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        batch = self.pipeline.run()
        self.current_position += self.batch_size
        self.is_new_epoch = self.current_position >= self.epoch_size
        if self.is_new_epoch:
            self.epoch += 1
            # without repeat the last epoch ends at position 0, as in Chainer
            self.current_position = (
                self.current_position - self.epoch_size if self._repeat else 0
            )
        return batch

    next = __next__

    def _read_epoch_size(self):
        size = self.pipeline.epoch_size()
        if isinstance(size, dict):
            if not size:
                raise ValueError('DaliIterator: the pipeline has no reader')
            size = next(iter(size.values()))
        size = int(size)
        if size <= 0:
            raise ValueError(
                'DaliIterator: the epoch size must be positive, not {}'.format(size)
            )
        return size

    @property
    def batch_size(self):
        """int: The pipeline's batch size."""
        return self.pipeline.batch_size

    @property
    def epoch_detail(self):
        """float: Epochs done, with the fraction of the current one."""
        return self.epoch + self.current_position / self.epoch_size

    @property
    def previous_epoch_detail(self):
        """float or None: ``epoch_detail`` before the latest batch (None
        before the first)."""
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    @property
    def repeat(self):
        """bool: Whether the iterator goes on after the first epoch."""
        return self._repeat

    def reset(self):
        """Starts again from the first epoch (the pipeline is not rewound)."""
        self.current_position = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.0

    def serialize(self, serializer):
        """Saves or loads the position in the epochs."""
        owner = 'DaliIterator.serialize'
        self.current_position = _checks.load_count(
            serializer, 'current_position', self.current_position, owner
        )
        self.epoch = _checks.load_count(serializer, 'epoch', self.epoch, owner)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail
            )
        except KeyError:
            # a snapshot of an older Chainer: inferred as Chainer does
            previous = self.epoch + (
                (self.current_position - self.batch_size) / self.epoch_size
            )
            self._previous_epoch_detail = (
                max(previous, 0.0) if self.epoch_detail > 0 else -1.0
            )
