"""The worker processes of MultiprocessIterator.

Each worker has two pipes of its own: its tasks go down one and its
results come back up the other. No worker holds a lock that another one,
or the main process, needs, so a worker that dies (killed, out of memory,
a crash in the dataset's code) leaves the others working, and the main
process sees it at once through the worker's sentinel instead of waiting
forever for its examples.

A batch is split into one share per worker; a task is ``(key, offset,
items)`` and its reply ``(key, offset, results, error)``. In the worker a
thread reads the tasks as they come, so the main process never blocks on
sending while the worker blocks on sending its results back.
"""

import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import signal
import threading
import time
import traceback
import warnings

from chainerlite import _parent_watch
from chainerlite.iterators import _dtype_pickle


class WorkerDied(RuntimeError):
    """A worker process ended while it was loading examples."""


class _RemoteTraceback(Exception):
    # The traceback of an error raised in a worker, as its __cause__.
    def __str__(self):
        return self.args[0]


def _serve(tasks, results, parent, work, setup, setup_args):
    # Ctrl-C goes to the whole process group: the main process handles it
    # and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _parent_watch.exit_with_parent(parent)
    setup(*setup_args)
    inbox = queue.SimpleQueue()
    threading.Thread(target=_read_tasks, args=(tasks, inbox), daemon=True).start()
    while True:
        task = inbox.get()
        if task is None:
            return
        key, offset, items = task
        try:
            reply = _dtype_pickle.dumps(
                (key, offset, [work(item) for item in items], None)
            )
        except Exception as error:
            reply = _error_reply(key, offset, error)
        results.send_bytes(reply)


def _read_tasks(tasks, inbox):
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            task = None
        inbox.put(task)
        if task is None:
            return


def _error_reply(key, offset, error):
    text = ''.join(traceback.format_exception(type(error), error, error.__traceback__))
    try:
        pickled = pickle.dumps(error, pickle.HIGHEST_PROTOCOL)
    except Exception:  # sent as its traceback only
        pickled = None
    return pickle.dumps((key, offset, None, (pickled, text)), pickle.HIGHEST_PROTOCOL)


def _rebuild_error(pickled, text):
    try:
        error = pickle.loads(pickled)
    except Exception:
        error = RuntimeError('a worker process raised:\n' + text)
    error.__cause__ = _RemoteTraceback(text)
    return error


def _how_it_ended(process):
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return 'was killed by signal ' + signal.Signals(-code).name
        except ValueError:
            return 'was killed by signal {}'.format(-code)
    return 'exited with code {}'.format(code)


class _Worker(object):
    def __init__(self, process, tasks, results):
        self.process = process
        self.tasks = tasks
        self.results = results
        self.sent = 0
        self.waiting = []  # (key, offset) of the tasks not answered yet
        self.retiring = False  # told to stop after its tasks


class _Batch(object):
    def __init__(self, shares):
        self.missing = shares
        self.parts = {}
        self.error = None


class WorkerPool(object):
    """Worker processes that load examples with ``work(item)``.

    Args:
        context: The multiprocessing context that starts the processes.
        processes (int): Number of workers.
        work (callable): Module-level function run on each item.
        setup (callable): Module-level function run once in each worker,
            with ``setup_args``.
        setup_args (tuple): Arguments of ``setup``.
        max_tasks (int): Replace a worker after this many tasks (``None``:
            never).

    """

    def __init__(self, context, processes, work, setup, setup_args, max_tasks):
        self._context = context
        self._owner = os.getpid()
        self._args = (self._owner, work, setup, setup_args)
        self._max_tasks = max_tasks
        self._workers = []
        self._batches = {}
        self._next_key = 0
        for _ in range(processes):
            self._start_worker()

    def _start_worker(self):
        context = self._context
        task_reader, task_writer = context.Pipe(duplex=False)
        result_reader, result_writer = context.Pipe(duplex=False)
        process = context.Process(
            target=_serve, args=(task_reader, result_writer) + self._args, daemon=True
        )
        with warnings.catch_warnings():
            # Python 3.12+ warns when forking with threads running; the
            # workers only read the dataset.
            warnings.filterwarnings(
                'ignore', message='.*fork', category=DeprecationWarning
            )
            process.start()
        task_reader.close()
        result_writer.close()
        self._workers.append(_Worker(process, task_writer, result_reader))

    def submit(self, items):
        """Starts loading ``items``; returns the key to :meth:`receive`
        them by."""
        key = self._next_key
        self._next_key += 1
        active = [w for w in self._workers if not w.retiring]
        size = -(-len(items) // len(active))
        offsets = range(0, len(items), size)
        self._batches[key] = _Batch(len(offsets))
        for worker, offset in zip(active, offsets):
            self._send(worker, (key, offset, items[offset : offset + size]))
        return key

    def _send(self, worker, task):
        worker.waiting.append(task[:2])
        worker.sent += 1
        try:
            worker.tasks.send(task)
            if self._max_tasks is not None and worker.sent >= self._max_tasks:
                worker.tasks.send(None)
                worker.retiring = True
                self._start_worker()
        except OSError:  # it died: seen by receive(), with its tasks
            pass

    def waiting(self, key):
        """Whether the results of ``key`` are still to be received."""
        return key in self._batches

    def receive(self, key, timeout=None):
        """Returns the results of the items submitted under ``key``, in
        order.

        Raises:
            multiprocessing.TimeoutError: If they did not all arrive within
                ``timeout`` seconds (they can still be received).
            WorkerDied: If a worker ended before sending its share.
            Exception: The first error that ``work`` raised for them.

        """
        batch = self._batches[key]
        deadline = None if timeout is None else time.monotonic() + timeout
        while batch.missing:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._poll(left):
                raise multiprocessing.TimeoutError
        del self._batches[key]
        if batch.error is not None:
            raise _rebuild_error(*batch.error)
        return [
            result for offset in sorted(batch.parts) for result in batch.parts[offset]
        ]

    def _poll(self, timeout):
        # Reads what is ready; False if nothing was within timeout.
        owners = {}
        for worker in self._workers:
            owners[worker.results] = worker
            owners[worker.process.sentinel] = worker
        ready = multiprocessing.connection.wait(list(owners), timeout)
        for handle in ready:
            worker = owners[handle]
            if handle is not worker.results or not self._read(worker):
                self._ended(worker)
        return bool(ready)

    def _read(self, worker):
        # Takes one reply of the worker; False at the end of its pipe.
        try:
            reply = worker.results.recv_bytes()
        except (EOFError, OSError):
            return False
        key, offset, results, error = _dtype_pickle.loads(reply)
        worker.waiting.remove((key, offset))
        batch = self._batches[key]
        batch.missing -= 1
        if error is not None:
            if batch.error is None:
                batch.error = error
        else:
            batch.parts[offset] = results
        return True

    def _ended(self, worker):
        if worker not in self._workers:  # seen through its other handle
            return
        # A worker that stops sends its last results before it ends.
        while worker.waiting and worker.results.poll():
            if not self._read(worker):
                break
        self._workers.remove(worker)
        worker.process.join()
        worker.tasks.close()
        worker.results.close()
        if worker.waiting:
            self.terminate()
            raise WorkerDied(
                'MultiprocessIterator: worker process {} {} while loading '
                'examples; the batch is lost (the next call to next() '
                'starts new workers and loads it again)'.format(
                    worker.process.pid, _how_it_ended(worker.process)
                )
            )
        if not worker.retiring:  # killed while idle: nothing was lost
            self._start_worker()

    @property
    def running(self):
        """False once the workers stopped (closed, terminated, or one
        died with tasks)."""
        return bool(self._workers)

    def _inherited(self):
        # a process forked from the owner (a worker) holds a copy of the pool;
        # its garbage collector may run the owner's finalizer there, and the
        # workers are not its children to stop
        return os.getpid() != self._owner

    def close(self):
        """Lets the workers finish their tasks (their results can still be
        received) and stop."""
        if self._inherited():
            return
        for worker in self._workers:
            if not worker.retiring:
                worker.retiring = True
                try:
                    worker.tasks.send(None)
                except OSError:
                    pass
        while self._workers:
            self._poll(None)

    def terminate(self):
        """Stops the workers at once; what they were loading is lost."""
        if self._inherited():
            return
        workers, self._workers = self._workers, []
        self._batches.clear()
        for worker in workers:
            worker.process.terminate()
        for worker in workers:
            worker.process.join(5)
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join()
            worker.tasks.close()
            worker.results.close()
