"""Where the time and the memory of a training epoch go."""

import sys
import tracemalloc

from chainerlite.function_hooks import TimerHook


def time_functions(run, file=sys.stdout, top=3):
    """Runs a callable under a TimerHook and prints the hook's report.

    After the report table, one line names the ``top`` functions with the
    largest self time and their share of the measured time.

    Args:
        run (callable): Called once with no arguments, e.g. a training
            epoch.
        file: Text stream the report is written to.
        top (int): Number of functions named in the closing line.

    Returns:
        ~chainerlite.function_hooks.TimerHook: The hook, for its
        :meth:`~chainerlite.function_hooks.TimerHook.summary`.

    """
    with TimerHook() as hook:
        run()
    hook.print_report(file=file, details=True)
    summary = hook.summary()
    total = hook.total_time()
    ranked = sorted(summary, key=lambda name: -summary[name]['self_time'])
    file.write(
        'Most expensive (self time): {}\n'.format(
            ', '.join(
                '{} {:.0%}'.format(name, summary[name]['self_time'] / total)
                for name in ranked[:top]
            )
        )
    )
    return hook


def peak_memory(run):
    """Runs a callable and measures the peak of the memory it allocates.

    The memory is traced with :mod:`tracemalloc` (NumPy reports its array
    buffers to it). The peak is counted from the traced size when ``run``
    starts, so memory held before does not count. An active trace (e.g.
    ``python -X tracemalloc``) is kept running.

    Args:
        run (callable): Called once with no arguments.

    Returns:
        tuple: What ``run`` returned, and the peak in bytes.

    """
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = run()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        if started:
            tracemalloc.stop()
    return result, peak
