"""Snapshot writers: how (and in which thread or process) snapshots are
saved.

A writer is called as ``writer(filename, outdir, target)`` where ``target``
is the state to save (a dict of arrays captured when the snapshot was
taken). Every writer saves to a temporary file in ``outdir`` and renames it
into place, so that a crash while writing never leaves a partial file under
the snapshot's name; the temporary file a killed writer leaves is removed
by the next write in ``outdir``.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading

from chainerlite import _parent_watch
from chainerlite.serializers import npz
from chainerlite.training.extensions import _atomic


class Writer(object):
    """Base class of the snapshot writers.

    Args:
        savefun (callable): ``savefun(path, target, **kwds)`` writes the
            state to a file (:func:`~chainerlite.serializers.save_npz` by
            default).
        **kwds: Keyword arguments of ``savefun``.

    """

    def __init__(self, savefun=npz.save_npz, **kwds) -> None:
        self._savefun = savefun
        self._kwds = kwds
        self._started = False
        self._finalized = False

    def __call__(self, filename, outdir, target):
        """Writes ``target`` to ``outdir/filename``."""
        raise NotImplementedError

    def initialize(self, outdir):
        """Creates the output directory."""
        os.makedirs(outdir, exist_ok=True)
        self._started = True

    def finalize(self):
        """Waits for pending writes (called at the end of training)."""
        self._finalized = True

    def save(self, filename, outdir, target, savefun, **kwds):
        """Writes ``target`` through a temporary file renamed into place
        (removing the temporary files that interrupted writes left in
        ``outdir``)."""
        if not self._started:
            self.initialize(outdir)
        _atomic.write_file(
            os.path.join(outdir, filename),
            lambda path: savefun(path, target, **kwds),
            sync=True,
        )


class SimpleWriter(Writer):
    """Writer that saves in the calling thread.

    Args:
        savefun (callable): The saving function.
        **kwds: Keyword arguments of ``savefun``.

    """

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Writer that saves in a worker (thread or process), one at a time.

    A new snapshot waits for the previous worker to finish. Subclasses
    implement :meth:`create_worker`.
    """

    def __init__(self, savefun=npz.save_npz, **kwds) -> None:
        super(StandardWriter, self).__init__(savefun, **kwds)
        self._worker = None

    def __call__(self, filename, outdir, target):
        if self._worker is not None:
            self._worker.join()
        self._worker = self.create_worker(filename, outdir, target, **self._kwds)
        self._worker.start()

    def create_worker(self, filename, outdir, target, **kwds):
        """Returns a worker (with ``start`` and ``join``) that saves."""
        raise NotImplementedError

    def finalize(self):
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        super(StandardWriter, self).finalize()


class ThreadWriter(StandardWriter):
    """Writer that saves in a new thread per snapshot."""

    def create_worker(self, filename, outdir, target, **kwds):
        return threading.Thread(
            target=self.save,
            args=(filename, outdir, target, self._savefun),
            kwargs=kwds,
        )


class ProcessWriter(StandardWriter):
    """Writer that saves in a new process per snapshot.

    Forking from a program that uses MPI or CUDA may be unsafe; prefer
    :class:`ThreadWriter` there.
    """

    def create_worker(self, filename, outdir, target, **kwds):
        return multiprocessing.Process(
            target=self.save,
            args=(filename, outdir, target, self._savefun),
            kwargs=kwds,
        )


class QueueWriter(Writer):
    """Writer that hands the snapshots to one long-lived consumer through a
    queue.

    Subclasses implement :meth:`create_queue` and :meth:`create_consumer`.

    Args:
        savefun (callable): The saving function.
        task (callable): ``task(filename, outdir, target)`` run by the
            consumer; a :class:`SimpleWriter` of ``savefun`` by default.

    """

    def __init__(self, savefun=npz.save_npz, task=None) -> None:
        super(QueueWriter, self).__init__(savefun)
        self._task = self.create_task(savefun) if task is None else task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()

    def __call__(self, filename, outdir, target):
        self._queue.put([self._task, filename, outdir, target])

    def create_task(self, savefun):
        """Returns the task the consumer runs when none is given: a
        :class:`SimpleWriter` of ``savefun``."""
        return SimpleWriter(savefun=savefun)

    def create_queue(self):
        """Returns the queue of the tasks."""
        raise NotImplementedError

    def create_consumer(self, q):
        """Returns the consumer (with ``start`` and ``join``) of ``q``."""
        raise NotImplementedError

    def consume(self, q):
        """Runs the tasks of ``q`` until it gets ``None``."""
        busy = threading.Lock()  # held while a snapshot is written
        self._watch(busy)
        while True:
            task = q.get()
            if task is None:
                q.task_done()
                return
            try:
                with busy:
                    task[0](task[1], task[2], task[3])
            finally:
                q.task_done()

    def _watch(self, busy):
        # Run by the consumer before its first task.
        pass

    def finalize(self):
        if not self._finalized:
            self._queue.put(None)
            self._queue.join()
            self._consumer.join()
        super(QueueWriter, self).finalize()


class ThreadQueueWriter(QueueWriter):
    """Queue writer whose consumer is a thread."""

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        return threading.Thread(target=self.consume, args=(q,))


class ProcessQueueWriter(QueueWriter):
    """Queue writer whose consumer is a process.

    The consumer ends soon after the trainer's process dies, even when it
    is killed, once the snapshot that it is writing is complete.
    """

    def create_queue(self):
        return multiprocessing.JoinableQueue()

    def create_consumer(self, q):
        self._parent = os.getpid()
        return multiprocessing.Process(target=self.consume, args=(q,))

    def _watch(self, busy):
        # The consumer ends soon after the trainer dies, even killed with
        # SIGKILL (no finalize() then), once the snapshot that it is
        # writing is complete.
        _parent_watch.exit_with_parent(self._parent, busy)
