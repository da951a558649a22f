"""Times two chainerlite trees side by side: small ops, hooks and model steps.

    python benchmarks/side_by_side.py OLD_TREE NEW_TREE [--rounds N] [CASE ...]

Each tree is a checkout with its extensions built in place (``setup.py
build_ext --inplace``). One worker process per tree imports that tree's
chainerlite (its ``chainerlite/``, ``_core/`` and, where present,
``_kernels/``), and the workers take turns: every round times each case once
in the old tree, then in the new one, so that load on a shared machine falls
on both alike. A case's figure is its best sample over the rounds, per op (or
per layer, per step) in microseconds of the worker's CPU time (its thread's
clock: time the machine gives to other processes is not counted; run with
OPENBLAS_NUM_THREADS=1).
"""

import argparse
import contextlib
import importlib.abc
import importlib.util
import json
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def use_tree(root):
    """Makes ``import chainerlite`` load the checkout at ``root``."""
    roots = {
        name: root / folder
        for name, folder in (
            ('chainerlite', 'chainerlite'),
            ('chainerlite._core', '_core'),
            ('chainerlite._kernels', '_kernels'),
        )
        if (root / folder).is_dir()
    }

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path=None, target=None):
            folder = roots.get(fullname)
            if folder is None:
                return None
            init = folder / '__init__.py'
            return importlib.util.spec_from_file_location(
                fullname, init, submodule_search_locations=[str(folder)]
            )

    sys.meta_path.insert(0, Finder())


def small_op(F, fn, shape=(10, 10), seed=5):
    """fn on a 10x10 float32 leaf, sum, backward: one op's forward and backward."""
    import numpy as np

    import chainerlite

    x = chainerlite.Variable(
        np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    )

    def run():
        x.grad_var = None
        F.sum(fn(x)).backward()

    return run, 1, contextlib.nullcontext


def cases():
    """name -> (run, ops, context): run() does one repetition of ops ops, timed
    inside context (entered untimed: a hook registered around the sample)."""
    import numpy as np

    import chainerlite
    import chainerlite.functions as F

    sys.path.insert(0, str(HERE))
    import programs

    x = programs.chain_data()
    engine, hooks = programs.chainer_like(chainerlite)
    chain = programs.engine_chain(engine, x)
    mlp = programs.engine_mlp(engine, 'mlp', programs.mlp_data(**programs.TINY))
    cnn, lstm = programs.model_programs('chainerlite', chainerlite)
    units, batch = programs.LSTM['units'], programs.LSTM['batch']
    rng = np.random.default_rng(6)
    c0 = chainerlite.Variable(rng.standard_normal((batch, units)).astype(np.float32))
    gates = chainerlite.Variable(
        rng.standard_normal((batch, 4 * units)).astype(np.float32)
    )

    def lstm_cell():
        c0.grad_var = gates.grad_var = None
        c, h = F.lstm(c0, gates)
        F.sum(h).backward()

    def with_reset(bench):
        def run():
            bench.reset()
            bench.run()

        return run

    plain = contextlib.nullcontext
    table = {
        'chain per op': (chain.run, chain.ops, plain),
        'tiny MLP per layer': (with_reset(mlp), mlp.ops, plain),
        'sigmoid 10x10': small_op(F, F.sigmoid),
        'leaky_relu 10x10': small_op(F, F.leaky_relu),
        'softmax 10x10': small_op(F, F.softmax),
        'sum axis=0 10x10': small_op(F, lambda v: F.sum(v, axis=0)),
        'LSTM cell': (lstm_cell, 1, plain),
        'LSTM 20 steps': (with_reset(lstm), 1, plain),
        'CNN step': (with_reset(cnn), 1, plain),
    }
    for kind in ('trivial hook', 'TimerHook'):
        table[f'chain + {kind}'] = (chain.run, chain.ops, hooks[kind])
    return table


def worker(root):
    use_tree(pathlib.Path(root))
    table = cases()
    for line in sys.stdin:
        name, budget = json.loads(line)
        run, ops, context = table[name]
        with context():
            try:
                run()  # warm
            except Exception as e:  # a tree whose build lacks what a case needs
                print(json.dumps(None), flush=True)
                print(f'{name}: {type(e).__name__}: {e}', file=sys.stderr)
                continue
            start = time.thread_time()
            run()
            once = time.thread_time() - start
            reps = max(1, int(budget / max(once, 1e-6)))
            start = time.thread_time()
            for _ in range(reps):
                run()
            per_op = (time.thread_time() - start) / reps / ops
        print(json.dumps(per_op * 1e6), flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('old')
    p.add_argument('new')
    p.add_argument('cases', nargs='*', help='case names (default: all)')
    p.add_argument('--rounds', type=int, default=20)
    p.add_argument('--sample', type=float, default=0.02, help='seconds per sample')
    args = p.parse_args(argv)
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, '--worker', str(pathlib.Path(t).resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for t in (args.old, args.new)
    ]
    names = args.cases or [
        'chain per op',
        'chain + trivial hook',
        'chain + TimerHook',
        'tiny MLP per layer',
        'sigmoid 10x10',
        'leaky_relu 10x10',
        'softmax 10x10',
        'sum axis=0 10x10',
        'LSTM cell',
        'LSTM 20 steps',
        'CNN step',
    ]
    best = {name: [float('inf')] * 2 for name in names}
    for _ in range(args.rounds):
        for name in names:
            for k, proc in enumerate(procs):
                proc.stdin.write(json.dumps([name, args.sample]) + '\n')
                proc.stdin.flush()
                sample = json.loads(proc.stdout.readline())
                best[name][k] = min(best[name][k], sample or float('nan'))
    for proc in procs:
        proc.stdin.close()
        proc.wait()
    head = f'case (us, best of {args.rounds})'
    print(f'{head:32s} {"old":>9s} {"new":>9s} {"new/old":>8s}')
    for name in names:
        old, new = best[name]
        print(f'{name:32s} {old:9.3f} {new:9.3f} {new / old:8.3f}')
    for kind in ('trivial hook', 'TimerHook'):
        hooked, plain = best.get(f'chain + {kind}'), best.get('chain per op')
        if hooked and plain:
            ns = [1000 * (h - p) for h, p in zip(hooked, plain)]
            print(f'{kind + " ns/op":32s} {ns[0]:9.0f} {ns[1]:9.0f}')


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == '--worker':
        worker(sys.argv[2])
    else:
        main()
