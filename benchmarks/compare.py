"""Side-by-side benchmark: chainerlite vs raw NumPy, Chainer 7.8.1 and PyTorch.

One process, interleaved rounds (each round runs every contestant once, in a
rotating order; gc stays enabled, gc.collect() between rounds); medians.
Programs: ``h = h * 1.0001`` 200 times on 10x10 float32, sum, backward (per
op), also under three FunctionHooks (paired delta in ns/op); and a tiny MLP
(batch 1, width 16, depth 8; per layer). Chainer and PyTorch are optional.

    python benchmarks/compare.py --quick | --rounds 100 --json results.json
"""
import argparse
import contextlib
import gc
import importlib
import json
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

N_OPS, SHAPE, FACTOR = 200, (10, 10), 1.0001
WIDTH, DEPTH = 16, 8
OPS = {'chain': N_OPS, 'mlp': DEPTH}
UNIT = {'chain': 'us/op', 'mlp': 'us/layer'}
DESCRIPTION = {'chain': f'h * {FACTOR} x{N_OPS} on 10x10 float32, sum, backward',
               'mlp': f'relu(linear), batch 1, width {WIDTH}, depth {DEPTH}, sum, backward'}
REFERENCES = (('NumPy', 'numpy'), ('PyTorch', 'torch'), ('Chainer', 'chainer'))
HOOK_KINDS = ('empty hook', 'trivial hook', 'TimerHook')
CALLBACKS = ('forward_preprocess', 'forward_postprocess',
             'backward_preprocess', 'backward_postprocess')

# (label, group, contestant, reference row for a ratio or None for a hook delta, limit)
TARGETS = (
    ('chainerlite <= 1.5x NumPy', 'chain', 'chainerlite', 'numpy', 1.5),
    ('chainerlite <= 0.33x PyTorch', 'chain', 'chainerlite', 'torch', 0.33),
    ('chainerlite <= 0.05x Chainer', 'chain', 'chainerlite', 'chainer', 0.05),
    ('empty hook <= +20 ns/op', 'chain', 'chainerlite + empty hook', None, 20),
    ('trivial hook <= +400 ns/op', 'chain', 'chainerlite + trivial hook', None, 400),
    ('TimerHook <= +1.5 us/op', 'chain', 'chainerlite + TimerHook', None, 1500),
    ('tiny MLP <= 0.5x PyTorch', 'mlp', 'chainerlite', 'torch', 0.5),
)


@dataclass
class Bench:
    group: str                                  # 'chain' or 'mlp'
    name: str                                   # row label; plain rows: the engine name
    run: Callable                               # the timed program; returns a gradient
    context: Callable = contextlib.nullcontext  # entered untimed around it (a hook)
    reset: Callable = lambda: None              # untimed, before each sample
    base: Optional[str] = None                  # plain row a hook row is a delta against

    @property
    def key(self):
        return f'{self.group}:{self.name}'


@dataclass
class Engine:
    """What the shared programs need from an autodiff library."""
    name: str
    leaf: Callable      # ndarray -> leaf that requires grad
    input: Callable     # ndarray -> input that needs no grad
    sum: Callable
    linear: Callable
    relu: Callable
    grad: Callable      # leaf -> its gradient as an ndarray
    cleargrad: Callable


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    x1 = rng.standard_normal((1, WIDTH)).astype(np.float32)
    Ws = [rng.standard_normal((WIDTH, WIDTH)).astype(np.float32) * np.float32((2 / WIDTH) ** 0.5)
          for _ in range(DEPTH)]
    bs = [np.full(WIDTH, 0.1, np.float32) for _ in range(DEPTH)]
    return x, (x1, Ws, bs)


def numpy_programs(x, mlp):
    """The ufunc calls an engine makes, with nothing around them."""
    def chain():
        h = x
        for _ in range(N_OPS):
            h = h * FACTOR
        h.sum()
        g = np.ones_like(h)             # sum's grad, broadcast
        for _ in range(N_OPS):
            g = g * FACTOR
        return g

    x1, Ws, bs = mlp

    def tiny_mlp():
        hs = [x1]
        for W, b in zip(Ws, bs):
            hs.append(np.maximum(hs[-1].dot(W.T) + b, 0))
        hs[-1].sum()
        g = np.ones_like(hs[-1])
        for i in reversed(range(DEPTH)):
            g = g * (hs[i + 1] > 0)
            gW, _gb = g.T.dot(hs[i]), g.sum(axis=0)
            if i:                        # the input needs no grad
                g = g.dot(Ws[i])
        return gW

    return [Bench('chain', 'numpy', chain), Bench('mlp', 'numpy', tiny_mlp)]


def engine_programs(e, x, mlp):
    """The same two programs for every autodiff engine."""
    def chain():
        h = x0 = e.leaf(x)
        for _ in range(N_OPS):
            h = h * FACTOR
        e.sum(h).backward()
        return e.grad(x0)

    x1, Ws, bs = mlp
    h0 = e.input(x1)
    params = [e.leaf(a) for a in Ws + bs]
    layers = list(zip(params[:DEPTH], params[DEPTH:]))

    def tiny_mlp():
        h = h0
        for W, b in layers:
            h = e.relu(e.linear(h, W, b))
        e.sum(h).backward()
        return e.grad(params[0])

    def clear():
        for p in params:
            e.cleargrad(p)

    return [Bench('chain', e.name, chain), Bench('mlp', e.name, tiny_mlp, reset=clear)]


def chainer_like(mod):
    """chainerlite and Chainer 7.8.1: one API, also measured under hooks."""
    F = importlib.import_module(mod.__name__ + '.functions')
    engine = Engine(mod.__name__, mod.Variable, lambda a: a, F.sum, F.linear, F.relu,
                    lambda v: v.grad, lambda v: v.cleargrad())
    return engine, hook_factories(mod)


def pytorch(torch):
    engine = Engine('torch', lambda a: torch.tensor(a, requires_grad=True), torch.tensor,
                    torch.sum, torch.nn.functional.linear, torch.relu,
                    lambda t: t.grad.numpy(), lambda t: setattr(t, 'grad', None))
    return engine, {}


def hook_factories(mod):
    class EmptyHook(mod.FunctionHook):
        pass

    def noop(self, function, in_data, out_grad=None):  # the four callbacks' trivial body
        pass
    TrivialHook = type('TrivialHook', (mod.FunctionHook,), dict.fromkeys(CALLBACKS, noop))
    factories = dict(zip(HOOK_KINDS, (EmptyHook, TrivialHook)))
    try:
        factories['TimerHook'] = importlib.import_module(
            mod.__name__ + '.function_hooks').TimerHook
    except (ImportError, AttributeError) as e:
        note(f'{mod.__name__} + TimerHook skipped ({type(e).__name__}: {e})')
    return factories


def note(msg):
    print(f'note: {msg}')


def collect_benches():
    x, mlp = make_data()
    benches = numpy_programs(x, mlp)
    for modname, adapt in (('chainerlite', chainer_like), ('chainer', chainer_like),
                           ('torch', pytorch)):
        try:
            engine, hooks = adapt(importlib.import_module(modname))
        except Exception as e:  # an optional column must never break the script
            note(f'{modname} skipped ({type(e).__name__}: {e})')
            continue
        plain = engine_programs(engine, x, mlp)
        benches += plain + [Bench('chain', f'{engine.name} + {kind}', plain[0].run,
                                  context=factory, base=engine.name)
                            for kind, factory in hooks.items()]
    return benches


def sample(bench):
    bench.reset()
    with bench.context():
        t0 = time.perf_counter()
        result = bench.run()
        return time.perf_counter() - t0, result


def checked(benches):
    """Run each contestant once; drop those that raise, warn on wrong grads."""
    expected = {b.group: sample(b)[1] for b in benches if b.name == 'numpy'}
    kept = []
    for b in benches:
        try:
            grad = sample(b)[1]
        except Exception as e:
            note(f'{b.key} skipped: it raised {type(e).__name__}: {e}')
            continue
        if grad is None or not np.allclose(grad, expected[b.group], rtol=1e-4, atol=1e-5):
            note(f'WARNING {b.key}: gradient differs from NumPy')
        kept.append(b)
    return kept


def measure(benches, rounds, warmup):
    times = {b.key: [] for b in benches}
    for r in range(warmup + rounds):
        gc.collect()
        for b in benches[r % len(benches):] + benches[:r % len(benches)]:
            elapsed = sample(b)[0]
            if r >= warmup:
                times[b.key].append(elapsed)
    return times


def summarise(benches, times):
    """Median us per op; for hook rows, the median of per-round paired deltas (ns/op)."""
    us = {b.key: statistics.median(times[b.key]) / OPS[b.group] * 1e6 for b in benches}
    delta = {b.key: statistics.median(
                 t - t0 for t, t0 in zip(times[b.key], times[f'{b.group}:{b.base}'])
             ) / OPS[b.group] * 1e9 for b in benches if b.base}
    return us, delta


def ratio(us, group, name, ref):
    a, b = us.get(f'{group}:{name}'), us.get(f'{group}:{ref}')
    return None if a is None or b is None else a / b


def fmt(value, spec):
    return '-' if value is None else format(value, spec)


def print_table(group, benches, us, delta):
    head = f'{"contestant":<28}{UNIT[group]:>10}' + ''.join(
        f'{"x " + label:>11}' for label, _ in REFERENCES) + f'{"hook ns/op":>12}'
    print(f'\n[{group}] {DESCRIPTION[group]}\n{head}\n' + '-' * len(head))
    for b in (b for b in benches if b.group == group):
        cells = ''.join(f'{fmt(ratio(us, group, b.name, ref), ".3f"):>11}'
                        for _, ref in REFERENCES)
        print(f'{b.name:<28}{us[b.key]:>10.3f}{cells}{fmt(delta.get(b.key), "+.0f"):>12}')


def evaluate_targets(us, delta):
    print('\ntargets')
    rows = []
    for label, group, name, ref, limit in TARGETS:
        value = ratio(us, group, name, ref) if ref else delta.get(f'{group}:{name}')
        verdict = 'n/a' if value is None else ('PASS' if value <= limit else 'MISS')
        unit = 'x' if ref else 'ns/op'
        print(f'  {label:<32}{fmt(value, ".3f" if ref else "+.0f"):>10} {unit:<6} {verdict}')
        rows.append({'target': label, 'value': value, 'limit': limit,
                     'unit': unit, 'verdict': verdict})
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--quick', action='store_true', help='smoke run: few rounds (CI)')
    p.add_argument('--rounds', type=int, help='timed rounds (default 60, 5 with --quick)')
    p.add_argument('--json', metavar='PATH', help='write the results as JSON')
    args = p.parse_args(argv)
    rounds = args.rounds or (5 if args.quick else 60)
    warmup = 1 if args.quick else 3
    benches = checked(collect_benches())
    env = {'python': platform.python_version(), 'numpy': np.__version__}
    env.update((m, getattr(sys.modules[m], '__version__', '?'))
               for m in ('chainerlite', 'chainer', 'torch') if m in sys.modules)
    print(', '.join(f'{k} {v}' for k, v in env.items()) +
          f'; {rounds} interleaved rounds (+{warmup} warm-up), medians')
    times = measure(benches, rounds, warmup)
    us, delta = summarise(benches, times)
    for group in OPS:
        print_table(group, benches, us, delta)
    targets = evaluate_targets(us, delta)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'versions': env, 'rounds': rounds, 'warmup': warmup,
                       'us_per_op': us, 'hook_delta_ns_per_op': delta,
                       'targets': targets, 'samples_s': times}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
