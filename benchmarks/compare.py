"""Side-by-side benchmark: chainerlite vs raw NumPy, Chainer 7.8.1 and PyTorch.

One process, interleaved rounds (each round runs every contestant of a section
once, in a rotating order, each timed run preceded by an untimed warm-up run;
gc stays enabled, gc.collect() between rounds);
medians. Programs (see programs.py): ``h = h * 1.0001`` 200 times on 10x10
float32, sum, backward (per op), also under three FunctionHooks (paired delta
in ns/op); a tiny MLP (batch 1, width 16, depth 8; per layer); F.forget on a
stack of 12 blocks of 4 tanh(linear) layers (time, and the peak memory that
tracemalloc traces during one more run of each); one 1024x1024 MLP step; the
backward time per node of chains 1e3 and 1e6 deep (1e5 with --quick); a small
CNN step and 20 steps of an LSTM cell (the real-model programs).
Chainer and PyTorch are optional. OMP_WAIT_POLICY defaults to PASSIVE: the
OpenMP threads of PyTorch otherwise spin after each call, which bills the
next contestant in the round for CPU time they take from its BLAS threads.
``--models`` adds the models section (benchmarks/models/: ResNet-18,
Transformer encoder, LSTM language model training steps against PyTorch, 1
and 2 threads, in subprocesses; about 15 minutes on 2 cores, 3 with
--quick); ``--only-models`` runs that section alone.

    python benchmarks/compare.py --quick | --rounds 100 --json results.json
    python benchmarks/compare.py --only-models [--working-tree]
"""

import argparse
import datetime
import gc
import json
import os
import pathlib
import platform
import statistics
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass

import numpy as np

from programs import collect_benches, depth_label, describe, note
from models import section as models_section
from side_by_side import use_tree

ROOT = pathlib.Path(__file__).resolve().parents[1]  # this checkout
SHALLOW = 1000
DEPTHS = {False: (SHALLOW, 1_000_000), True: (SHALLOW, 100_000)}  # by --quick
REFERENCES = (('NumPy', 'numpy'), ('PyTorch', 'torch'), ('Chainer', 'chainer'))
ENGINES = REFERENCES[1:]
# group: (unit, units per microsecond, ratio columns (label, row), extra columns)
TABLES = {
    'chain': ('us/op', 1, REFERENCES, ('hook',)),
    'mlp': ('us/layer', 1, REFERENCES, ('hook',)),
    'forget': ('ms/step', 1e-3, (('chainerlite', 'chainerlite'),), ('peak',)),
    'large': ('ms/step', 1e-3, REFERENCES, ()),
    'cnn': ('ms/step', 1e-3, ENGINES, ()),
    'lstm': ('ms/step', 1e-3, ENGINES, ()),
    'deep': ('ns/node', 1e3, ((f'depth {depth_label(SHALLOW)}',) * 2,), ()),
}
MiB = 2**20
THREAD_VARIABLES = (
    'OMP_WAIT_POLICY',
    'OMP_NUM_THREADS',
    'OPENBLAS_NUM_THREADS',
    'MKL_NUM_THREADS',
)


@dataclass
class Section:
    """Groups measured together in one series of interleaved rounds."""

    groups: tuple
    rounds: int
    warmup: int


@dataclass
class Target:
    label: str
    group: str
    name: str
    ref: str  # the row of a ratio; None for a hook delta (ns/op)
    limit: float
    metric: str = 'us'  # 'us' (time) or 'peak' for a ratio, 'delta' for a hook


def plan(args):
    quick = args.quick
    return [
        Section(
            ('chain', 'mlp'), args.rounds or (5 if quick else 60), 1 if quick else 3
        ),
        Section(('forget',), 3 if quick else 15, 1 if quick else 2),
        Section(('large',), 5 if quick else 30, 1 if quick else 2),
        Section(('cnn', 'lstm'), 5 if quick else 40, 1 if quick else 3),
        Section(('deep',), 3 if quick else 7, 1),
    ]


def targets(depths):
    shallow, deep = (depth_label(d) for d in depths)
    return [
        Target('chainerlite <= 1.5x NumPy', 'chain', 'chainerlite', 'numpy', 1.5),
        Target('chainerlite <= 0.33x PyTorch', 'chain', 'chainerlite', 'torch', 0.33),
        Target('chainerlite <= 0.05x Chainer', 'chain', 'chainerlite', 'chainer', 0.05),
        Target(
            'empty hook <= +20 ns/op',
            'chain',
            'chainerlite + empty hook',
            None,
            20,
            'delta',
        ),
        Target(
            'trivial hook <= +400 ns/op',
            'chain',
            'chainerlite + trivial hook',
            None,
            400,
            'delta',
        ),
        Target(
            'TimerHook <= +1.5 us/op',
            'chain',
            'chainerlite + TimerHook',
            None,
            1500,
            'delta',
        ),
        Target('tiny MLP <= 0.5x PyTorch', 'mlp', 'chainerlite', 'torch', 0.5),
        Target(
            'forget peak <= 0.45x plain',
            'forget',
            'chainerlite + forget',
            'chainerlite',
            0.45,
            'peak',
        ),
        Target(
            'forget peak <= Chainer forget',
            'forget',
            'chainerlite + forget',
            'chainer + forget',
            1.0,
            'peak',
        ),
        Target(
            'forget time <= 1.35x plain',
            'forget',
            'chainerlite + forget',
            'chainerlite',
            1.35,
        ),
        Target('1024x1024 MLP <= 1.05x NumPy', 'large', 'chainerlite', 'numpy', 1.05),
        Target('CNN step <= 1.0x PyTorch', 'cnn', 'chainerlite', 'torch', 1.0),
        Target('LSTM 20 steps <= 1.0x PyTorch', 'lstm', 'chainerlite', 'torch', 1.0),
        Target(
            f'depth {deep} <= 1.3x {shallow} per node',
            'deep',
            f'depth {deep}',
            f'depth {shallow}',
            1.3,
        ),
    ]


def settings_line(quick, sections, depths):
    rounds = ', '.join(
        f'{"/".join(s.groups)} {s.rounds} (+{s.warmup})' for s in sections
    )
    return (
        f'{"quick" if quick else "full"} run: rounds {rounds}; chain depths '
        f'{" and ".join(map(depth_label, depths))}; peaks from one traced run each'
    )


def sample(bench):
    bench.reset()
    with bench.context():
        t0 = time.perf_counter()
        result = bench.run()
        elapsed = time.perf_counter() - t0
    bench.teardown()
    return elapsed, result


def checked(benches):
    """Run each contestant once; drop those that raise, warn on wrong grads.

    A group's first contestant (NumPy where it takes part) gives the expected
    gradient; the absolute tolerance scales with its largest entry (float32
    sums over a thousand terms differ between BLAS libraries).
    """
    expected, kept = {}, []
    for b in benches:
        try:
            grad = sample(b)[1]
        except Exception as e:
            note(f'{b.key} skipped: it raised {type(e).__name__}: {e}')
            continue
        name, reference = expected.setdefault(b.group, (b.name, grad))
        if grad is None or reference is None or not close(grad, reference):
            note(f'WARNING {b.key}: gradient differs from {name}')
        kept.append(b)
    return kept


def close(grad, reference):
    scale = max(1.0, float(np.abs(reference).max()))
    return np.allclose(grad, reference, rtol=1e-4, atol=1e-5 * scale)


def measure(benches, rounds, warmup):
    """Times per row; a hook row's entries are paired deltas (see below)."""
    times = {b.key: [] for b in benches}
    by_key = {b.key: b for b in benches}
    for r in range(warmup + rounds):
        gc.collect()
        for b in benches[r % len(benches) :] + benches[: r % len(benches)]:
            if b.base:
                # A hook row is timed right next to its plain row (in
                # alternating order, after a warm-up run of the plain row),
                # so that what ran just before cannot bias the difference;
                # the delta is stored.
                plain = by_key[f'{b.group}:{b.base}']
                first, second = (plain, b) if r % 2 else (b, plain)
                sample(plain)  # untimed: both start with warm caches
                sample(b)
                t_first, t_second = sample(first)[0], sample(second)[0]
                elapsed = (
                    (t_second - t_first) if first is plain else (t_first - t_second)
                )
            else:
                # untimed warm-up: the contestant that ran just before (another
                # library) left the caches cold, which a user never sees
                sample(b)
                elapsed = sample(b)[0]
            if r >= warmup:
                times[b.key].append(elapsed)
    return times


def measure_peaks(benches):
    """Bytes tracemalloc traces at the peak of one run, above its start."""
    peaks = {}
    tracemalloc.start()
    try:
        for b in benches:
            b.reset()
            gc.collect()
            tracemalloc.reset_peak()
            start = tracemalloc.get_traced_memory()[0]
            with b.context():
                b.run()
            peaks[b.key] = tracemalloc.get_traced_memory()[1] - start
            b.teardown()
    finally:
        tracemalloc.stop()
    return peaks


def summarise(benches, times):
    """Median us per op; hook rows: the median of their paired deltas (ns/op)."""
    us = {
        b.key: statistics.median(times[b.key]) / b.ops * 1e6
        for b in benches
        if not b.base
    }
    delta = {
        b.key: statistics.median(times[b.key]) / b.ops * 1e9 for b in benches if b.base
    }
    for b in benches:
        if b.base:
            us[b.key] = us[f'{b.group}:{b.base}'] + delta[b.key] / 1e3
    return us, delta


def ratio(values, group, name, ref):
    a, b = values.get(f'{group}:{name}'), values.get(f'{group}:{ref}')
    return None if a is None or b is None else a / b


def fmt(value, spec):
    return '-' if value is None else format(value, spec)


EXTRA_HEADS = {'hook': ('hook ns/op',), 'peak': ('peak MiB', 'x peak')}


def extra_cells(kind, group, name, refs, stats):
    """The hook delta column, or the peak memory columns."""
    if kind == 'hook':
        return [fmt(stats['delta'].get(f'{group}:{name}'), '+.0f')]
    peak = stats['peak'].get(f'{group}:{name}')
    return [
        fmt(None if peak is None else peak / MiB, '.1f'),
        fmt(ratio(stats['peak'], group, name, refs[0][1]), '.3f'),
    ]


def table(group, names, stats):
    """A group's results table as strings: the header and one list per row."""
    unit, per_us, refs, extras = TABLES[group]
    head = (
        ['contestant', unit]
        + [f'x {label}' for label, _ in refs]
        + [h for kind in extras for h in EXTRA_HEADS[kind]]
    )
    rows = []
    for name in names:
        cells = [name, f'{stats["us"][f"{group}:{name}"] * per_us:.3f}'] + [
            fmt(ratio(stats['us'], group, name, ref), '.3f') for _, ref in refs
        ]
        rows.append(
            cells
            + [
                c
                for kind in extras
                for c in extra_cells(kind, group, name, refs, stats)
            ]
        )
    return head, rows


def print_table(group, title, names, stats):
    if not names:
        return
    head, rows = table(group, names, stats)
    widths = [10] + [max(11, len(h) + 2) for h in head[2:]]

    def line(cells):
        return f'{cells[0]:<28}' + ''.join(
            f'{c:>{w}}' for c, w in zip(cells[1:], widths)
        )

    header = line(head)
    print(f'\n[{group}] {title}\n{header}\n' + '-' * len(header))
    for cells in rows:
        print(line(cells))


def evaluate_targets(goals, stats, settings):
    print(f'\ntargets ({settings})')
    rows = []
    for t in goals:
        if t.metric == 'delta':
            value = stats['delta'].get(f'{t.group}:{t.name}')
            unit, spec = 'ns/op', '+.0f'
        else:
            value = ratio(stats[t.metric], t.group, t.name, t.ref)
            unit, spec = 'x', '.3f'
        verdict = 'n/a' if value is None else ('PASS' if value <= t.limit else 'MISS')
        print(f'  {t.label:<32}{fmt(value, spec):>10} {unit:<6} {verdict}')
        rows.append(
            {
                'target': t.label,
                'value': value,
                'limit': t.limit,
                'unit': unit,
                'verdict': verdict,
                'group': t.group,
            }
        )
    return rows


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next(
                line.split(':', 1)[1].strip()
                for line in f
                if line.startswith('model name')
            )
    except (OSError, StopIteration):
        pass
    return {
        'cpu': cpu,
        'cores': os.cpu_count(),
        'platform': platform.platform(),
        'load average': os.getloadavg(),
        'date': datetime.datetime.now(datetime.timezone.utc).strftime(
            '%Y-%m-%d %H:%M UTC'
        ),
    }


def run_sections(benches, sections):
    """Time each section's contestants; trace the peaks of the forget programs."""
    times, peaks = {}, {}
    for s in sections:
        members = [b for b in benches if b.group in s.groups]
        if members:
            times.update(measure(members, s.rounds, s.warmup))
        if 'forget' in s.groups:
            peaks = measure_peaks(members)
    return times, peaks


def table_titles(sections, depths):
    """Each group's description; past the first section, with its rounds."""
    titles = describe(depths)
    for s in sections[1:]:
        titles.update(
            (g, f'{titles[g]}; {s.rounds} rounds (+{s.warmup} warm-up)')
            for g in s.groups
        )
    return titles


def write_json(path, results):
    """The results, with the thread settings the libraries have seen."""
    results['machine']['threads'] = {
        k: os.environ[k] for k in THREAD_VARIABLES if k in os.environ
    }
    with open(path, 'w') as f:
        json.dump(results, f, indent=1)


def run_models(args, stats):
    """The models section: its tables, its statistics merged into ``stats``,
    its targets; returns its results."""
    result = models_section.run(
        args.quick, args.model_rounds, ROOT if args.working_tree else None
    )
    us, peak = models_section.stats(result)
    stats['us'].update(us)
    stats['peak'].update(peak)
    models_section.print_tables(result)
    return result


def model_targets():
    return [
        Target(label, 'models', name, ref, limit, metric)
        for label, name, ref, limit, metric in models_section.targets()
    ]


def models_only(args):
    stats = {'us': {}, 'delta': {}, 'peak': {}}
    result = run_models(args, stats)
    settings = f'models section, {result["rounds"]} rounds'
    results = evaluate_targets(model_targets(), stats, settings)
    if args.json:
        write_json(
            args.json,
            {
                'machine': machine(),
                'settings': settings,
                'models': result,
                'targets': results,
            },
        )
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--quick', action='store_true', help='smoke run: few rounds (CI)')
    p.add_argument(
        '--rounds',
        type=int,
        help='timed rounds of the chain and tiny MLP '
        '(default 60, 5 with --quick); the larger programs take fewer',
    )
    p.add_argument('--json', metavar='PATH', help='write the results as JSON')
    p.add_argument(
        '--models',
        action='store_true',
        help='also the models section (real-model steps; minutes)',
    )
    p.add_argument(
        '--only-models', action='store_true', help='the models section alone'
    )
    p.add_argument(
        '--model-rounds',
        type=int,
        help='timed rounds of the models section (default 2, 1 with --quick)',
    )
    p.add_argument(
        '--working-tree',
        action='store_true',
        help="measure this checkout's chainerlite (built in place), e.g. from "
        'a venv that holds torch and Chainer',
    )
    args = p.parse_args(argv)
    if args.working_tree:
        use_tree(ROOT)
    if args.only_models:
        return models_only(args)
    sections, depths, host = plan(args), DEPTHS[args.quick], machine()
    first = sections[0]
    benches = checked(collect_benches(depths))
    env = {'python': platform.python_version(), 'numpy': np.__version__}
    # chainerlite's __version__ is the Chainer API level it answers (7.8.1);
    # its own release is __chainerlite_version__
    attrs = {'chainerlite': '__chainerlite_version__'}
    env.update(
        (m, getattr(sys.modules[m], attrs.get(m, '__version__'), '?'))
        for m in ('chainerlite', 'chainer', 'torch')
        if m in sys.modules
    )
    print(
        ', '.join(f'{k} {v}' for k, v in env.items())
        + f'; {first.rounds} interleaved rounds (+{first.warmup} warm-up), medians'
    )
    times, peaks = run_sections(benches, sections)
    us, delta = summarise(benches, times)
    stats = {'us': us, 'delta': delta, 'peak': peaks}
    titles = table_titles(sections, depths)
    names = {g: [b.name for b in benches if b.group == g] for g in TABLES}
    for group in TABLES:
        print_table(group, titles[group], names[group], stats)
    goals, models = targets(depths), None
    if args.models:
        models = run_models(args, stats)
        goals += model_targets()
    settings = settings_line(args.quick, sections, depths)
    results = evaluate_targets(goals, stats, settings)
    if args.json:
        write_json(
            args.json,
            {
                'versions': env,
                'machine': host,
                'settings': settings,
                'sections': [asdict(s) for s in sections],
                'rounds': first.rounds,
                'warmup': first.warmup,
                'groups': {g: {'title': titles[g], 'rows': names[g]} for g in TABLES},
                'us_per_op': us,
                'hook_delta_ns_per_op': delta,
                'peak_bytes': peaks,
                'targets': results,
                'samples_s': times,
                'models': models,
            },
        )
    return 0


if __name__ == '__main__':
    sys.exit(main())
