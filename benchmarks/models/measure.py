"""Times and peak memory of the model steps, chainerlite against PyTorch.

    python benchmarks/models/measure.py time [--threads N] [--rounds R]
        [--models M ...] [--batches small|both] [--size full|tiny]
        [--device cpu|gpu]
    python benchmarks/models/measure.py peak LIBRARY MODEL BATCH [--threads N]
        [--device cpu|gpu]
    python benchmarks/models/measure.py profile MODEL BATCH [--top K]

``time``: for each model and batch size, one step of each library is built,
run once untimed, then timed ``R`` rounds, the libraries alternating (the
first of a round rotates); per step the median and the best of the process
CPU time (all threads' CPU, so that other processes' load is not counted)
and of the wall time. ``peak``: in this (fresh) process, the library runs
two steps of the model's tiny version (its start-up memory: thread pools,
kernels loaded on first use), the step is built, then the resident set's
high-water mark over two steps is read above the resident set before them
(``VmHWM`` reset through ``/proc/self/clear_refs``, else ``ru_maxrss``);
then tracemalloc's peak during a third step. RSS is the measure common to
both libraries: tracemalloc sees NumPy's arrays (chainerlite's) but not
torch's tensors.

``--device gpu`` runs the steps on the first CUDA device (CuPy for
chainerlite, CUDA for torch); a step ends by reading its loss, which waits
for the device, so its wall time is the measure there (its CPU time is
reported too). The GPU peak is the high-water mark of the bytes the step
holds in the library's allocator, above what it held before: CuPy's memory
pool (the meter of ``plan_forget``: a ``cupy.cuda.MemoryHook`` adds and
subtracts each block) and torch's
caching allocator (``torch.cuda.max_memory_allocated``).

``profile``: where chainerlite's step spends its time: after a warm-up
step, TimerHook's table of one step (each function's forward and backward
together, by function name) and cProfile's top ``K`` functions by their own
time (the optimizer's update and Python around the nodes included).

The thread count goes to OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and
MKL_NUM_THREADS before NumPy or torch load, and to torch.set_num_threads.
A library that cannot be imported is left out (noted on stderr). Both print
one JSON object on stdout.
"""

import argparse
import gc
import json
import os
import pathlib
import resource
import statistics
import sys
import time
import tracemalloc

HERE = pathlib.Path(__file__).resolve().parent
THREAD_VARIABLES = ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS')
MiB = 2**20


def set_threads(n):
    """Thread settings for the BLAS and OpenMP libraries; call before they load."""
    for name in THREAD_VARIABLES:
        os.environ[name] = str(n)
    # what chainerlite's import sets (_openmp_settings), for PyTorch's
    # OpenMP threads as well where torch loads its runtime first;
    # OPENBLAS_THREAD_TIMEOUT is left to chainerlite's import, which
    # settles the OpenBLAS that NumPy loaded before it
    os.environ.setdefault('OMP_WAIT_POLICY', 'PASSIVE')


def prepare(args):
    """Threads, then the import path of ``models`` (and of the chainerlite of
    the checkout ``--tree``)."""
    set_threads(args.threads)
    sys.path.insert(0, str(HERE.parent))
    if args.tree:
        from side_by_side import use_tree

        use_tree(pathlib.Path(args.tree).resolve())


def available(libraries, threads):
    """The libraries of ``libraries`` that import (torch set to ``threads``)."""
    found = []
    for name in libraries:
        try:
            module = __import__(name)
        except ImportError as e:
            print(f'note: {name} skipped ({e})', file=sys.stderr)
            continue
        if name == 'torch':
            module.set_num_threads(threads)
        found.append(name)
    return found


def time_steps(steps, rounds):
    """{library: {'cpu': [...], 'wall': [...]}} seconds per step."""
    for step in steps.values():
        step()  # untimed: lazy allocations, optimizer state
    samples = {name: {'cpu': [], 'wall': []} for name in steps}
    names = list(steps)
    for r in range(rounds):
        gc.collect()
        for name in names[r % len(names) :] + names[: r % len(names)]:
            c0, w0 = time.process_time(), time.perf_counter()
            steps[name]()
            samples[name]['cpu'].append(time.process_time() - c0)
            samples[name]['wall'].append(time.perf_counter() - w0)
    return samples


def summary(times):
    return {
        f'{kind} {stat.__name__}': stat(values)
        for kind, values in times.items()
        for stat in (statistics.median, min)
    }


def run_time(args):
    import models

    libraries = available(models.LIBRARIES, args.threads)
    rows = []
    for model in args.models:
        sizes = models.BATCHES[model]
        for batch in sizes[:1] if args.batches == 'small' else sizes:
            steps = {
                lib: models.make_step(lib, model, batch, args.size, device=args.device)
                for lib in libraries
            }
            samples = time_steps(steps, args.rounds)
            rows += [
                dict(
                    model=model,
                    batch=batch,
                    library=lib,
                    threads=args.threads,
                    device=args.device,
                    samples=s,
                    **summary(s),
                )
                for lib, s in samples.items()
            ]
            del steps
            gc.collect()
    return {'rows': rows}


def rss_status():
    """(VmRSS, VmHWM) in bytes, or None where /proc is not there."""
    try:
        with open('/proc/self/status') as f:
            fields = dict(line.split(':', 1) for line in f)
    except OSError:
        return None
    return tuple(int(fields[k].split()[0]) * 1024 for k in ('VmRSS', 'VmHWM'))


def reset_high_water():
    """Resets VmHWM to the current RSS; False where the kernel does not allow it."""
    try:
        with open('/proc/self/clear_refs', 'w') as f:
            f.write('5')
    except OSError:
        return False
    return True


def gpu_peak(library, step):
    """Peak bytes the library's allocator holds over two steps, above before."""
    if library == 'torch':
        import torch

        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step(), step()
        return torch.cuda.max_memory_allocated() - before, 'torch.cuda'
    import cupy

    from chainerlite.link_hooks import _forget_profile

    # the planner's meter of CuPy's pool: counted from zero on entry, so the
    # peak is the high-water mark above what the pool held before
    with _forget_profile.traced(cupy) as water:
        step(), step()
    return water.peak, 'cupy pool'


def run_peak(args):
    import models

    if not available([args.library], args.threads):
        return {'skipped': args.library}
    if args.device == 'gpu':
        step = models.make_step(
            args.library, args.model, args.batch, args.size, device='gpu'
        )
        step()  # the optimizer's state and the library's work space
        peak, source = gpu_peak(args.library, step)
        return dict(
            model=args.model,
            batch=args.batch,
            library=args.library,
            device='gpu',
            gpu_peak=peak,
            gpu_source=source,
        )
    warm = models.make_step(args.library, args.model, 2, 'tiny')
    warm(), warm()  # the library's one-time start-up memory, not the step's
    del warm
    step = models.make_step(args.library, args.model, args.batch, args.size)
    gc.collect()
    if reset_high_water() and rss_status():
        before = rss_status()[0]
        step(), step()
        rss, source = rss_status()[1] - before, 'VmHWM'
    else:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        step(), step()
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        rss, source = after - before, 'ru_maxrss'
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    step()
    traced = tracemalloc.get_traced_memory()[1] - start
    tracemalloc.stop()
    return dict(
        model=args.model,
        batch=args.batch,
        library=args.library,
        threads=args.threads,
        rss_peak=rss,
        rss_source=source,
        traced_peak=traced,
    )


def run_profile(args):
    import cProfile
    import pstats

    import chainerlite
    import models

    step = models.make_step('chainerlite', args.model, args.batch, args.size)
    step()
    hook = chainerlite.function_hooks.TimerHook()
    with hook:
        step()
    hook.print_report(unit='ms')
    profile = cProfile.Profile()
    profile.runcall(step)
    pstats.Stats(profile).sort_stats('tottime').print_stats(args.top)


def parser():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = p.add_subparsers(dest='command', required=True)
    timing = sub.add_parser('time', help='step times, libraries interleaved')
    timing.add_argument('--rounds', type=int, default=3)
    timing.add_argument('--models', nargs='+', default=None)
    timing.add_argument('--batches', choices=('small', 'both'), default='both')
    peak = sub.add_parser('peak', help='peak memory of one step (fresh process)')
    peak.add_argument('library')
    peak.add_argument('model')
    peak.add_argument('batch', type=int)
    profile = sub.add_parser('profile', help="where chainerlite's step goes")
    profile.add_argument('model')
    profile.add_argument('batch', type=int)
    profile.add_argument('--top', type=int, default=25)
    for s in (timing, peak):
        s.add_argument('--device', choices=('cpu', 'gpu'), default='cpu')
    for s in (timing, peak, profile):
        s.add_argument('--threads', type=int, default=1)
        s.add_argument('--size', choices=('full', 'tiny'), default='full')
        s.add_argument(
            '--tree',
            metavar='DIR',
            help='import chainerlite from the checkout DIR (its chainerlite/, '
            '_core/ and _kernels/ built in place), e.g. in the venv of torch',
        )
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    prepare(args)
    if args.command == 'time':
        import models

        args.models = args.models or list(models.MODELS)
        result = run_time(args)
    elif args.command == 'profile':
        return run_profile(args)
    else:
        result = run_peak(args)
    print(json.dumps(result))
    return 0


if __name__ == '__main__':
    sys.exit(main())
