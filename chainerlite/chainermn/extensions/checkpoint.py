"""Per-rank checkpoints that resume from the newest one every rank has."""

import os
import re
import time

from chainerlite.serializers import npz
from chainerlite.training import extension


class _CheckpointStats(object):
    """Durations of the checkpoint writes."""

    def __init__(self):
        self.timings = []
        self._started = None

    def start(self):
        self._started = time.time()

    def end(self):
        self.timings.append(time.time() - self._started)
        self._started = None

    def report(self):
        if not self.timings:
            return 'no checkpoint taken'
        total = sum(self.timings)
        return (
            '{} checkpoints, {:.3f} s in all, {:.3f} s each on average, '
            '{:.3f} s the longest'.format(
                len(self.timings), total, total / len(self.timings), max(self.timings)
            )
        )


class _MultiNodeCheckpointer(extension.Extension):
    """See :func:`create_multi_node_checkpointer`."""

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        if cp_interval < 1 or gc_interval < 1:
            raise ValueError(
                'create_multi_node_checkpointer: cp_interval and gc_interval '
                'must be at least 1, got {} and {}'.format(cp_interval, gc_interval)
            )
        self.name = name
        self.comm = comm
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.path = path
        self.stats = _CheckpointStats()
        self.files = []

    def _filenames(self, iterations):
        return ['{}.{}.{}'.format(self.name, self.comm.rank, i) for i in iterations]

    def _parse_filenames(self, filenames):
        pattern = re.compile(r'^(.*)\.(\d+)\.(\d+)$')
        for filename in filenames:
            match = pattern.match(filename)
            if match is not None:
                yield match.group(1), int(match.group(2)), int(match.group(3))

    def _directory(self, target=None):
        # Fixed at the first use (the trainer's out without a path), so
        # that finalize() removes the files where they were written.
        if self.path is None:
            self.path = target.out if hasattr(target, 'out') else os.getcwd()
        return self.path

    def __call__(self, trainer):
        self.save(trainer, trainer.updater.iteration)

    def save(self, target, iteration):
        """Writes ``target`` as this rank's checkpoint of ``iteration``.

        Once this rank has more than ``gc_interval`` checkpoints beyond the
        newest ``cp_interval``, the older ones are removed.
        """
        directory = self._directory(target)
        os.makedirs(directory, exist_ok=True)
        (filename,) = self._filenames([iteration])
        self.stats.start()
        temporary = os.path.join(directory, '.tmp.' + filename)
        npz.save_npz(temporary, target)
        os.replace(temporary, os.path.join(directory, filename))
        self.stats.end()
        self.files.append(filename)
        if len(self.files) - self.cp_interval > self.gc_interval:
            stale = self.files[: -self.cp_interval]
            del self.files[: -self.cp_interval]
            for name in stale:
                if os.path.exists(os.path.join(directory, name)):
                    os.remove(os.path.join(directory, name))

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Loads the newest iteration that every rank has a checkpoint of.

        Does nothing when there is none. With the multi-node ``optimizer``
        given, its first update after loading is a normal step (every rank
        loaded the same parameters, so no broadcast is needed).
        """
        if self.path is None and path is not None:
            self.path = path
        directory = self._directory(trainer)
        mine = set()
        if os.path.isdir(directory):
            mine = {
                i
                for name, rank, i in self._parse_filenames(os.listdir(directory))
                if name == self.name and rank == self.comm.rank
            }
        common = set.intersection(*self.comm.allgather_obj(mine))
        if not common:
            return
        iteration = max(common)
        (filename,) = self._filenames([iteration])
        npz.load_npz(os.path.join(directory, filename), trainer)
        self.files = sorted(
            self._filenames(mine), key=lambda f: int(f.rsplit('.', 1)[1])
        )
        if optimizer is not None and hasattr(optimizer, 'mark_broadcast'):
            optimizer.mark_broadcast()

    def get_stats(self):
        """A line on the time spent writing checkpoints."""
        return self.stats.report()

    def finalize(self):
        """Removes this rank's checkpoint files (the training ended well:
        a later run starts afresh)."""
        for filename in self.files:
            path = os.path.join(self.path, filename)
            if os.path.exists(path):
                os.remove(path)
        self.files = []


def create_multi_node_checkpointer(name, comm, cp_interval=5, gc_interval=5, path=None):
    """An extension that keeps per-rank checkpoints to resume from.

    Each time it is triggered (every iteration unless the trainer is given
    another trigger) or at each :meth:`save`, each rank writes its own
    ``NAME.RANK.ITERATION`` file under ``path`` (the trainer's ``out`` by
    default). It keeps the newest ``cp_interval`` of them, removing the
    older ones once more than ``gc_interval`` have piled up. :meth:`maybe_load`
    finds the newest iteration saved by every rank and loads it, so a job
    restarted after a failure resumes consistently; when the training ends
    normally, ``finalize`` removes the checkpoints.
    """
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)
