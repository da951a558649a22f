"""The programs that compare.py times, written once for every engine.

chain   ``h = h * 1.0001`` 200 times on 10x10 float32, sum, backward
mlp     relu(linear) layers, sum, backward (the tiny MLP: batch 1, width 16,
        depth 8; the large one: one 1024x1024 layer on a batch of 1024)
forget  12 blocks of 4 tanh(linear) layers (batch 2048, width 128), sum,
        backward, with or without ``F.forget`` around each block
deep    ``h = h * 1.0`` chains of a given depth; only the backward is timed
cnn     one step of a small CNN: conv 3x3 16->16 with bias on 32x16x8x8, relu,
        2x2 max pooling, linear to 10, softmax cross entropy, backward
lstm    20 steps of an LSTM cell (batch 16, 64 units, ``F.lstm`` on two
        ``F.linear``), sum of the last output, backward

Each program is a :class:`Bench`; the ones written for autodiff engines take an
:class:`Engine` (chainerlite, Chainer 7.8.1, PyTorch) or a Chainer-like module.
"""

import contextlib
import functools
import importlib
import os
from dataclasses import dataclass
from typing import Callable

import numpy as np

N_OPS, SHAPE, FACTOR = 200, (10, 10), 1.0001
TINY = dict(batch=1, width=16, depth=8)
LARGE = dict(batch=1024, width=1024, depth=1)
BLOCKS, LAYERS, BATCH, WIDTH = 12, 4, 2048, 128
SAMPLE_NODES = 100_000
CNN = dict(batch=32, channels=16, size=8, classes=10)
LSTM = dict(batch=16, units=64, steps=20)
HOOK_KINDS = ('empty hook', 'trivial hook', 'TimerHook')
CALLBACKS = (
    'forward_preprocess',
    'forward_postprocess',
    'backward_preprocess',
    'backward_postprocess',
)


def describe(depths):
    """One line per group: what its program does."""
    return {
        'chain': f'h * {FACTOR} x{N_OPS} on 10x10 float32, sum, backward',
        'mlp': 'relu(linear), batch {batch}, width {width}, depth {depth}, sum, '
        'backward'.format(**TINY),
        'large': 'relu(linear), {batch}x{width} input, {width}x{width} weight, sum, '
        'backward (one step)'.format(**LARGE),
        'forget': f'{BLOCKS} blocks of {LAYERS} tanh(linear), B={BATCH}, '
        f'D={WIDTH}, sum, backward; F.forget around each block or not',
        'cnn': 'conv 3x3 {channels}->{channels} + bias on {batch}x{channels}x{size}x'
        '{size}, relu, 2x2 max pooling, linear to {classes}, softmax cross '
        'entropy, backward (one step)'.format(**CNN),
        'lstm': '{steps} steps of lstm(linear(x) + linear(h)), batch {batch}, '
        '{units} units, sum, backward'.format(**LSTM),
        'deep': 'h * 1.0 chains on (1,) float32, backward only (build untimed), '
        'depths '
        + ' and '.join(depth_label(d) for d in depths)
        + f'; a sample: at least {depth_label(SAMPLE_NODES)} nodes',
    }


def depth_label(depth):
    """1000 -> '1e3'; other numbers as they are."""
    exponent = len(str(depth)) - 1
    return f'1e{exponent}' if depth == 10**exponent else str(depth)


def note(msg):
    print(f'note: {msg}')


@dataclass
class Bench:
    group: str  # a key of describe()
    name: str  # row label; plain rows: the engine name
    run: Callable  # the timed program; returns a gradient
    ops: int = 1  # times are reported per op
    context: Callable = contextlib.nullcontext  # entered untimed around it (a hook)
    reset: Callable = lambda: None  # untimed, before each sample
    teardown: Callable = lambda: None  # untimed, after each sample
    base: str = None  # the plain row of a hook row

    @property
    def key(self):
        return f'{self.group}:{self.name}'


@dataclass
class Engine:
    """What the shared programs need from an autodiff library."""

    name: str
    leaf: Callable  # ndarray -> leaf that requires grad
    input: Callable  # ndarray -> input that needs no grad
    sum: Callable
    linear: Callable
    relu: Callable
    grad: Callable  # leaf -> its gradient as an ndarray
    cleargrad: Callable


def chain_data(seed=0):
    return np.random.default_rng(seed).standard_normal(SHAPE).astype(np.float32)


def mlp_data(batch, width, depth, seed=1):
    """Input, weights (He-scaled) and biases of a relu MLP, float32."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, width)).astype(np.float32)
    scale = np.float32((2 / width) ** 0.5)
    Ws = [
        rng.standard_normal((width, width)).astype(np.float32) * scale
        for _ in range(depth)
    ]
    bs = [np.full(width, 0.1, np.float32) for _ in range(depth)]
    return x, Ws, bs


def forget_data(seed=2):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, WIDTH)).astype(np.float32)
    Ws = [
        (rng.standard_normal((WIDTH, WIDTH)) / WIDTH**0.5).astype(np.float32)
        for _ in range(BLOCKS * LAYERS)
    ]
    return x, Ws


def numpy_chain(x):
    """The ufunc calls an engine makes, with nothing around them."""

    def chain():
        h = x
        for _ in range(N_OPS):
            h = h * FACTOR
        h.sum()
        g = np.ones_like(h)  # sum's grad, broadcast
        for _ in range(N_OPS):
            g = g * FACTOR
        return g

    return Bench('chain', 'numpy', chain, ops=N_OPS)


def numpy_mlp(group, data):
    x, Ws, bs = data

    def mlp():
        hs = [x]
        for W, b in zip(Ws, bs):
            hs.append(np.maximum(hs[-1].dot(W.T) + b, 0))
        hs[-1].sum()
        g = np.ones_like(hs[-1])
        for i in reversed(range(len(Ws))):
            g = g * (hs[i + 1] > 0)
            gW, _gb = g.T.dot(hs[i]), g.sum(axis=0)
            if i:  # the input needs no grad
                g = g.dot(Ws[i])
        return gW

    return Bench(group, 'numpy', mlp, ops=len(Ws))


def engine_chain(e, x):
    def chain():
        h = x0 = e.leaf(x)
        for _ in range(N_OPS):
            h = h * FACTOR
        e.sum(h).backward()
        return e.grad(x0)

    return Bench('chain', e.name, chain, ops=N_OPS)


def engine_mlp(e, group, data):
    x, Ws, bs = data
    h0 = e.input(x)
    params = [e.leaf(a) for a in Ws + bs]
    layers = list(zip(params[: len(Ws)], params[len(Ws) :]))

    def mlp():
        h = h0
        for W, b in layers:
            h = e.relu(e.linear(h, W, b))
        e.sum(h).backward()
        return e.grad(params[0])

    def clear():
        for p in params:
            e.cleargrad(p)

    return Bench(group, e.name, mlp, ops=len(Ws), reset=clear)


def forget_programs(mod, data, plain=True):
    """The tanh(linear) stack in a Chainer-like module: with F.forget, and plain."""
    F = importlib.import_module(mod.__name__ + '.functions')
    x, arrays = data
    Ws = [mod.Variable(a) for a in arrays]

    def block(Ws, h):
        for W in Ws:
            h = F.tanh(F.linear(h, W))
        return h

    blocks = [
        functools.partial(block, Ws[i : i + LAYERS]) for i in range(0, len(Ws), LAYERS)
    ]

    def step(forget):
        h = mod.Variable(x)
        for b in blocks:
            h = F.forget(b, h) if forget else b(h)
        F.sum(h).backward()
        return Ws[0].grad

    def clear():
        for W in Ws:
            W.cleargrad()

    rows = [(mod.__name__, False)] * plain + [(f'{mod.__name__} + forget', True)]
    return [
        Bench('forget', name, functools.partial(step, forget), reset=clear)
        for name, forget in rows
    ]


def deep_programs(mod, depths):
    """Backward of built chains per depth; building and freeing them are untimed.

    A sample runs the backward of as many chains as make ``SAMPLE_NODES`` nodes
    (one chain when it is deeper), so that short chains are not timed in bursts
    too brief to rise above the noise.
    """
    F = importlib.import_module(mod.__name__ + '.functions')

    def chain(depth):
        h = x = mod.Variable(np.ones((1,), np.float32))
        for _ in range(depth):
            h = h * 1.0
        return x, F.sum(h)

    def bench(depth):
        count, chains = max(1, SAMPLE_NODES // depth), []

        def build():
            chains.extend(chain(depth) for _ in range(count))

        def backward():
            for _, loss in chains:
                loss.backward()
            return chains[0][0].grad

        return Bench(
            'deep',
            f'depth {depth_label(depth)}',
            backward,
            ops=depth * count,
            reset=build,
            teardown=chains.clear,
        )

    return [bench(depth) for depth in depths]


def cnn_data(batch, channels, size, classes, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, channels, size, size)).astype(np.float32)
    W = rng.standard_normal((channels, channels, 3, 3)) / (3 * channels**0.5)
    W2 = rng.standard_normal((classes, channels * size * size // 4))
    t = rng.integers(0, classes, batch).astype(np.int32)
    return (
        x,
        W.astype(np.float32),
        np.zeros(channels, np.float32),
        (W2 / (size * channels**0.5)).astype(np.float32),
        np.zeros(classes, np.float32),
        t,
    )


def lstm_data(batch, units, steps, seed=4):
    rng = np.random.default_rng(seed)
    xs = rng.standard_normal((steps, batch, units)).astype(np.float32)
    Wx, Wh = (
        (rng.standard_normal((4 * units, units)) / units**0.5).astype(np.float32)
        for _ in range(2)
    )
    return xs, Wx, Wh, np.zeros(4 * units, np.float32)


def model_programs(modname, mod):
    """The CNN and LSTM steps; ``mod`` is torch or a Chainer-like module.

    PyTorch's LSTM cell is written from its ops, with the gate layout of
    ``F.lstm`` (unit-major, gates a, i, f, o).
    """
    x, W, b, W2, b2, t = cnn_data(**CNN)
    xs, Wx, Wh, bx = lstm_data(**LSTM)
    batch, units = LSTM['batch'], LSTM['units']
    if modname == 'torch':
        nn = mod.nn.functional
        leaf = functools.partial(mod.tensor, requires_grad=True)
        tx, tt, txs = mod.tensor(x), mod.tensor(t.astype(np.int64)), mod.tensor(xs)
        zeros = functools.partial(mod.zeros, batch, units)

        def conv_pool(W, b):
            return nn.max_pool2d(mod.relu(nn.conv2d(tx, W, b, padding=1)), 2)

        def flat_linear(h, W2, b2):
            return nn.linear(h.reshape(len(h), -1), W2, b2)

        def cell(c, gates):
            a, i, f, o = gates.reshape(batch, units, 4).unbind(2)
            c = mod.tanh(a) * mod.sigmoid(i) + mod.sigmoid(f) * c
            return c, mod.sigmoid(o) * mod.tanh(c)

        grad, clear = (lambda p: p.grad.numpy()), (lambda p: setattr(p, 'grad', None))
        loss_of, linear, total = nn.cross_entropy, nn.linear, mod.sum
    else:
        F = importlib.import_module(modname + '.functions')
        leaf, tx, tt, txs = mod.Variable, x, t, xs
        zeros = functools.partial(np.zeros, (batch, units), np.float32)

        def conv_pool(W, b):
            return F.max_pooling_2d(F.relu(F.convolution_2d(tx, W, b, pad=1)), 2)

        grad, clear = (lambda p: p.grad), (lambda p: p.cleargrad())
        flat_linear, cell = F.linear, F.lstm
        loss_of, linear, total = F.softmax_cross_entropy, F.linear, F.sum
    cnn_params = [leaf(a.copy()) for a in (W, b, W2, b2)]
    lstm_params = [leaf(a.copy()) for a in (Wx, Wh, bx)]

    def cnn():
        W, b, W2, b2 = cnn_params
        loss_of(flat_linear(conv_pool(W, b), W2, b2), tt).backward()
        return grad(W)

    def lstm():
        Wx, Wh, bx = lstm_params
        c, h = zeros(), zeros()
        for x in txs:
            c, h = cell(c, linear(x, Wx, bx) + linear(h, Wh))
        total(h).backward()
        return grad(Wx)

    def resetter(params):
        return lambda: [clear(p) for p in params]

    return [
        Bench('cnn', modname, cnn, reset=resetter(cnn_params)),
        Bench('lstm', modname, lstm, reset=resetter(lstm_params)),
    ]


def chainer_like(mod):
    """chainerlite and Chainer 7.8.1: one API, also measured under hooks."""
    F = importlib.import_module(mod.__name__ + '.functions')
    engine = Engine(
        mod.__name__,
        mod.Variable,
        lambda a: a,
        F.sum,
        F.linear,
        F.relu,
        lambda v: v.grad,
        lambda v: v.cleargrad(),
    )
    return engine, hook_factories(mod)


def pytorch(torch):
    engine = Engine(
        'torch',
        lambda a: torch.tensor(a, requires_grad=True),
        torch.tensor,
        torch.sum,
        torch.nn.functional.linear,
        torch.relu,
        lambda t: t.grad.numpy(),
        lambda t: setattr(t, 'grad', None),
    )
    return engine, {}


def hook_factories(mod):
    class EmptyHook(mod.FunctionHook):
        pass

    def noop(self, function, in_data, out_grad=None):  # each callback's trivial body
        pass

    TrivialHook = type(
        'TrivialHook', (mod.FunctionHook,), dict.fromkeys(CALLBACKS, noop)
    )
    factories = dict(zip(HOOK_KINDS, (EmptyHook, TrivialHook)))
    try:
        factories['TimerHook'] = importlib.import_module(
            mod.__name__ + '.function_hooks'
        ).TimerHook
    except (ImportError, AttributeError) as e:
        note(f'{mod.__name__} + TimerHook skipped ({type(e).__name__}: {e})')
    return factories


def engine_programs(modname, adapt, data, depths):
    """Every program an engine takes part in."""
    x, tiny, large, stack = data
    mod = importlib.import_module(modname)
    engine, hooks = adapt(mod)
    common = [
        engine_chain(engine, x),
        engine_mlp(engine, 'mlp', tiny),
        engine_mlp(engine, 'large', large),
    ] + model_programs(modname, mod)
    common += [
        Bench(
            'chain',
            f'{engine.name} + {kind}',
            common[0].run,
            ops=N_OPS,
            context=factory,
            base=engine.name,
        )
        for kind, factory in hooks.items()
    ]
    if modname == 'chainerlite':  # the subject: every program
        return common + forget_programs(mod, stack) + deep_programs(mod, depths)
    if modname == 'chainer':  # the reference for F.forget's peak memory
        return common + forget_programs(mod, stack, plain=False)
    return common


def collect_benches(depths):
    # Idle OpenMP threads (PyTorch's) would otherwise spin after each call and
    # take the CPU from the next contestant's BLAS threads; set before loading.
    os.environ.setdefault('OMP_WAIT_POLICY', 'PASSIVE')
    data = chain_data(), mlp_data(**TINY), mlp_data(**LARGE), forget_data()
    benches = [
        numpy_chain(data[0]),
        numpy_mlp('mlp', data[1]),
        numpy_mlp('large', data[2]),
    ]
    for modname, adapt in (
        ('chainerlite', chainer_like),
        ('chainer', chainer_like),
        ('torch', pytorch),
    ):
        try:
            benches += engine_programs(modname, adapt, data, depths)
        except Exception as e:  # an optional column must never break the script
            note(f'{modname} skipped ({type(e).__name__}: {e})')
    return benches
