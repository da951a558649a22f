import threading

import pytest


def _in_threads(target, n_threads):
    # target() in n_threads threads started together; their results, after
    # checking that none failed
    results = [None] * n_threads
    barrier = threading.Barrier(n_threads)

    def run(i):
        barrier.wait()
        results[i] = target()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r is not None for r in results)  # no thread failed
    return results


@pytest.fixture
def in_threads():
    """``in_threads(target, n)``: the results of target() run in n threads."""
    return _in_threads
