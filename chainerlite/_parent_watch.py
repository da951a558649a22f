"""Helper processes that end when the process that started them dies.

A process killed with SIGKILL runs no cleanup, so the helpers it started
(iterator workers, snapshot writers) must notice by themselves: their
parent process id changes when the parent dies and they are adopted.
"""

import os
import threading
import time

#: Seconds between two looks at the parent.
_INTERVAL = 0.2


def exit_with_parent(parent, busy=None):
    """Ends this process soon after the process ``parent`` (a pid) dies.

    Args:
        parent (int): Process id of the parent, read in the parent before
            this process started (after the parent's death it cannot be
            read any more).
        busy (threading.Lock): Held by this process while it does work
            that should be finished (a file being written): the process
            then ends when it releases the lock.

    """
    threading.Thread(
        target=_watch, args=(parent, busy), name='exit_with_parent', daemon=True
    ).start()


def _watch(parent, busy):
    while os.getppid() == parent:
        time.sleep(_INTERVAL)
    if busy is not None:
        busy.acquire()
    os._exit(1)
