"""The ``models`` section of ``benchmarks/compare.py``: the step times of
``measure.py time`` (one subprocess per thread count, so that the thread
settings precede NumPy and torch) and the peaks of ``measure.py peak`` (a
fresh subprocess per library, model and batch size)."""

import json
import pathlib
import subprocess
import sys

from models import BATCHES, LIBRARIES, MODELS

MEASURE = pathlib.Path(__file__).resolve().parent / 'measure.py'
THREADS = (1, 2)
MiB = 2**20


def measure(*argv, tree=None):
    """One ``measure.py`` run's JSON (chainerlite from the checkout ``tree``,
    else the installed one); its notes (a skipped library) echoed."""
    cmd = [sys.executable, str(MEASURE), *map(str, argv)]
    done = subprocess.run(
        cmd + (['--tree', str(tree)] if tree else []),
        capture_output=True,
        text=True,
        check=False,
    )
    sys.stderr.write(done.stderr)
    if done.returncode:
        raise RuntimeError(f'{" ".join(cmd)} failed ({done.returncode})')
    return json.loads(done.stdout)


def run(quick=False, rounds=None, tree=None, size='full'):
    """Times (1 and 2 threads; with ``quick``: one thread, the smaller batch,
    one round) and peaks (one thread) of every model (``size`` 'tiny': the
    small versions, for the tests)."""
    rounds = rounds or (1 if quick else 2)
    batches = 'small' if quick else 'both'
    times = []
    for threads in THREADS[:1] if quick else THREADS:
        times += measure(
            'time',
            '--threads',
            threads,
            '--rounds',
            rounds,
            '--batches',
            batches,
            '--size',
            size,
            tree=tree,
        )['rows']
    peaks = [
        measure('peak', lib, model, batch, '--size', size, tree=tree)
        for model in MODELS
        for batch in BATCHES[model][: 1 if quick else 2]
        for lib in LIBRARIES
    ]
    return {
        'rounds': rounds,
        'times': times,
        'peaks': [p for p in peaks if 'skipped' not in p],
    }


def row_name(library, model, batch, threads=None):
    """The name of a row in compare.py's statistics."""
    tail = '' if threads is None else f' {threads}T'
    return f'{library} {model} b{batch}{tail}'


def stats(result):
    """compare.py's statistics: median CPU us per step, peak RSS bytes."""
    us = {
        'models:' + row_name(r['library'], r['model'], r['batch'], r['threads']): r[
            'cpu median'
        ]
        * 1e6
        for r in result['times']
    }
    peak = {
        'models:' + row_name(r['library'], r['model'], r['batch']): r['rss_peak']
        for r in result['peaks']
    }
    return us, peak


def targets():
    """(label, row, reference row, limit, metric) of issue 29's goals: step
    time and peak RSS at most PyTorch's."""
    goals = []
    for model in MODELS:
        for batch in BATCHES[model]:
            for threads in THREADS:
                goals.append(
                    (
                        f'{model} b{batch} {threads}T <= 1.0x PyTorch',
                        row_name('chainerlite', model, batch, threads),
                        row_name('torch', model, batch, threads),
                        1.0,
                        'us',
                    )
                )
            goals.append(
                (
                    f'{model} b{batch} peak <= PyTorch',
                    row_name('chainerlite', model, batch),
                    row_name('torch', model, batch),
                    1.0,
                    'peak',
                )
            )
    return goals


def _ratio(a, b):
    return '-' if a is None or b is None else f'{a / b:.3f}'


def _row(first, cells, width):
    """Prints a table row: the model's name, then right-aligned cells."""
    print(f'{first:<13}' + ''.join(f'{c:>{width}}' for c in cells))


def _ms(value):
    return '-' if value is None else f'{value * 1e3:.1f}'


def print_tables(result):
    """The times (median CPU ms per step, ratios of the CPU and wall medians)
    and the peaks (RSS and traced MiB)."""
    keyed = {
        (r['library'], r['model'], r['batch'], r['threads']): r for r in result['times']
    }
    print(
        f'\n[models] one training step (forward, backward, update); '
        f'{result["rounds"]} rounds (+1 warm-up), medians; process CPU time'
    )
    head = (
        'model',
        'batch',
        'threads',
        'chainerlite ms',
        'torch ms',
        'x cpu',
        'x wall',
    )
    _row(head[0], head[1:], 15)
    for (lib, model, batch, threads), row in keyed.items():
        if lib != 'chainerlite':
            continue
        ref = keyed.get(('torch', model, batch, threads), {})
        cells = (
            batch,
            threads,
            _ms(row['cpu median']),
            _ms(ref.get('cpu median')),
            _ratio(row['cpu median'], ref.get('cpu median')),
            _ratio(row['wall median'], ref.get('wall median')),
        )
        _row(model, cells, 15)
    peaks = {(r['library'], r['model'], r['batch']): r for r in result['peaks']}
    print(
        '\n[models] peak memory of a step: RSS high-water over two steps above '
        'the RSS before them (fresh process each; the common measure: '
        "tracemalloc does not see torch's tensors), tracemalloc peak of a third"
    )
    head = ('model', 'batch', 'chainerlite MiB', 'torch MiB', 'x RSS', 'traced MiB')
    _row(head[0], head[1:], 16)
    for (lib, model, batch), row in peaks.items():
        if lib != 'chainerlite':
            continue
        ref = peaks.get(('torch', model, batch), {}).get('rss_peak')
        cells = (
            batch,
            f'{row["rss_peak"] / MiB:.0f}',
            '-' if ref is None else f'{ref / MiB:.0f}',
            _ratio(row['rss_peak'], ref),
            f'{row["traced_peak"] / MiB:.0f}',
        )
        _row(model, cells, 16)


def print_gpu_table(times, peaks):
    """The GPU run of ``.ci/gpu``: median wall ms per step (the device is
    waited for) and the allocator's peak, chainerlite against PyTorch CUDA.

    Args:
        times (dict): ``measure.py time --device gpu``'s JSON.
        peaks (list): ``measure.py peak ... --device gpu``'s JSON objects.

    """
    keyed = {(r['library'], r['model'], r['batch']): r for r in times['rows']}
    peak = {(p['library'], p['model'], p['batch']): p['gpu_peak'] for p in peaks}
    print('\n[models, GPU] one training step; median wall time; allocator peak')
    head = ('model', 'batch', 'chainerlite ms', 'torch ms', 'x wall', 'x peak')
    _row(head[0], head[1:], 15)
    for (lib, model, batch), row in keyed.items():
        if lib != 'chainerlite':
            continue
        ref = keyed.get(('torch', model, batch), {}).get('wall median')
        ours, theirs = peak.get((lib, model, batch)), peak.get(('torch', model, batch))
        cells = (
            batch,
            _ms(row['wall median']),
            _ms(ref),
            _ratio(row['wall median'], ref),
            _ratio(ours, theirs),
        )
        _row(model, cells, 15)


if __name__ == '__main__':
    if sys.argv[1:2] != ['--gpu'] or len(sys.argv) != 4:
        sys.exit('usage: section.py --gpu TIMES.json PEAKS.jsonl')
    with open(sys.argv[2]) as f:
        gpu_times = json.load(f)
    with open(sys.argv[3]) as f:
        gpu_peaks = [json.loads(line) for line in f if line.strip()]
    print_gpu_table(gpu_times, gpu_peaks)
