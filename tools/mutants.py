"""Mutation check of the derivatives of the Python function nodes.

Every ``backward`` defined by a FunctionNode subclass under
``chainerlite.functions``, and the ``forward`` of each grad node (a class
named ``<Op>Grad``: it computes the gradient arrays), is mutated in turn by
each operator of :mod:`tools.mutant_ops`, and the tests of its module are
run against the mutant (``-x``, one pytest session per mutant, many
sessions per process, see :mod:`tools.mutant_worker`). A mutant is *killed*
when the tests fail, *survived* when they pass, *not applicable* when the
operator never changed a gradient although the method ran, *no tests* when
no test file was found.
Kill rate = killed / (killed + survived)::

    .venv/bin/python -m tools.mutants [--only PATTERN] [--operators scale,drop]
        [--jobs 2] [--timeout 300] [--batch 8] [--json build/mutants.json]

The exit status is 0 whatever the results; the report is printed and written
as JSON.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

from tools import mutant_ops
from tools import mutant_plugin
from tools import mutant_targets

ROOT = pathlib.Path(__file__).resolve().parents[1]
PREFIX = mutant_targets.PACKAGE + '.'


def _parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument(
        '--only',
        action='append',
        default=[],
        metavar='PATTERN',
        help='substring of module:Class to mutate (repeatable)',
    )
    p.add_argument(
        '--operators',
        default=','.join(mutant_ops.OPERATORS),
        help='comma-separated operators (default: all)',
    )
    p.add_argument('--jobs', type=int, default=2, help='parallel processes')
    p.add_argument('--timeout', type=int, default=300, help='seconds per pytest run')
    p.add_argument('--batch', type=int, default=8, help='most mutants one process runs')
    p.add_argument('--json', default=str(ROOT / 'build' / 'mutants.json'))
    args = p.parse_args(argv)
    args.operators = args.operators.split(',')
    unknown = set(args.operators) - set(mutant_ops.OPERATORS)
    if unknown:
        p.error('unknown operators: %s' % ', '.join(sorted(unknown)))
    return args


def plan(only, operators, finder):
    """Mutant specs grouped by the tuple of test files that judge them."""
    groups = collections.defaultdict(list)
    for t in mutant_targets.targets():
        if only and not any(o in '%s:%s' % (t.module, t.cls) for o in only):
            continue
        files = tuple(finder.files(t.module, t.cls))
        for method in t.methods:
            for op in operators:
                groups[files].append(
                    mutant_plugin.Mutant(t.module, t.cls, method, op).spec
                )
    return groups


def _chunks(groups, batch):
    jobs = [
        (files, specs[i : i + batch])
        for files, specs in groups.items()
        if files
        for i in range(0, len(specs), batch)
    ]
    return sorted(jobs, key=lambda job: -len(job[1]))


def _run_job(files, specs, timeout, tmp):
    job = pathlib.Path(tempfile.mkstemp(suffix='.json', dir=tmp)[1])
    out = job.with_suffix('.out.json')
    job.write_text(
        json.dumps({'files': list(files), 'mutants': specs, 'timeout': timeout})
    )
    env = dict(os.environ, OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1')
    cmd = [sys.executable, '-m', 'tools.mutant_worker', str(job), str(out)]
    try:
        proc = subprocess.run(
            cmd,
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout * (len(specs) + 1) + 60,
        )
        if proc.returncode == 0:
            return json.loads(out.read_text())
        note = 'worker rc %d: %s' % (proc.returncode, proc.stderr[-500:])
    except subprocess.TimeoutExpired:
        note = 'worker timed out'
    return [
        {'mutant': s, 'result': 'error', 'calls': 0, 'changed': 0, 'note': note}
        for s in specs
    ]


def run(groups, jobs, timeout, batch):
    """Runs every mutant; one result dict per spec, in plan order."""
    results = {
        s: {'mutant': s, 'result': 'no tests', 'calls': 0, 'changed': 0}
        for s in groups.get((), [])
    }
    work = _chunks(groups, batch)
    (ROOT / 'build').mkdir(exist_ok=True)
    with (
        tempfile.TemporaryDirectory(dir=ROOT / 'build') as tmp,
        concurrent.futures.ThreadPoolExecutor(jobs) as pool,
    ):
        futures = {
            pool.submit(_run_job, files, specs, timeout, tmp): files
            for files, specs in work
        }
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            done = future.result()
            counts = collections.Counter(r['result'] for r in done)
            print(
                '[%d/%d] %s: %s'
                % (n, len(work), ' '.join(futures[future]), dict(counts)),
                file=sys.stderr,
                flush=True,
            )
            results.update((r['mutant'], r) for r in done)
    for files, specs in groups.items():
        for s in specs:
            results[s]['tests'] = list(files)
    return [results[s] for specs in groups.values() for s in specs]


def summarize(results):
    """Counts per result and the kill rate (None when nothing was judged)."""
    counts = collections.Counter(r['result'] for r in results)
    judged = counts['killed'] + counts['survived']
    return dict(counts), (counts['killed'] / judged if judged else None)


def _label(spec):
    m = mutant_plugin.Mutant.parse(spec)
    return '%s.%s' % (m.module.removeprefix(PREFIX), m.cls), m.method, m.operator


def _result(r):
    if r['result'] == 'survived' and not r['calls']:
        return 'survived (never called)'
    return r['result']


def report(results, compiled, elapsed):
    """Prints the table, the compiled nodes and the summary."""
    rows = [(*_label(r['mutant']), _result(r)) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(3)] if rows else []
    for row in rows:
        print('  '.join(c.ljust(w) for c, w in zip(row, widths)), row[3])
    print(
        'not mutated (compiled): %s'
        % ', '.join(c.removeprefix('chainerlite._core.') for c in compiled)
    )
    counts, rate = summarize(results)
    print('summary: %s' % ', '.join('%s %d' % kv for kv in sorted(counts.items())))
    print('kill rate: %s' % ('n/a' if rate is None else '%.1f%%' % (100 * rate)))
    print('run time: %.0f s' % elapsed)


def main(argv=None):
    args = _parse(argv)
    start = time.monotonic()
    groups = plan(args.only, args.operators, mutant_targets.TestFinder(ROOT))
    results = run(groups, args.jobs, args.timeout, args.batch)
    elapsed = time.monotonic() - start
    compiled = mutant_targets.compiled_nodes()
    report(results, compiled, elapsed)
    counts, rate = summarize(results)
    path = pathlib.Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                'summary': counts,
                'kill_rate': rate,
                'run_time_s': round(elapsed),
                'survivors': [
                    r['mutant'] for r in results if r['result'] == 'survived'
                ],
                'mutants': results,
                'compiled_not_mutated': compiled,
            },
            indent=1,
        )
    )
    print('written: %s' % path)


if __name__ == '__main__':
    main()
