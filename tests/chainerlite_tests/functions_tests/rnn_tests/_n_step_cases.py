"""Cases of the n-step RNN functions shared by their tests and by the script
that records Chainer 7.8.1's results of them.

Run as a script in a venv with Chainer 7.8.1 (``/work/venv-oracle/bin/python
_n_step_cases.py``) to write ``data/n_step_chainer.npz``: for each case, the
outputs and the gradients of all inputs of a weighted sum of the outputs.
"""

import os

import numpy

# name: (function name, n_layers, units, weights per layer, states,
# bidirectional, dropout ratio, lengths, keyword arguments)
CASES = {
    'lstm': ('n_step_lstm', 2, 3, 8, 2, False, 0.0, [4, 2, 2, 1], {}),
    'bilstm': ('n_step_bilstm', 2, 3, 8, 2, True, 0.0, [3, 3, 1], {}),
    'gru': ('n_step_gru', 2, 3, 6, 1, False, 0.0, [4, 2, 1], {}),
    'bigru': ('n_step_bigru', 2, 2, 6, 1, True, 0.0, [3, 1, 1], {}),
    'rnn_tanh': ('n_step_rnn', 2, 3, 2, 1, False, 0.0, [3, 2], {}),
    'birnn_relu': (
        'n_step_birnn',
        2,
        3,
        2,
        1,
        True,
        0.0,
        [3, 2, 2],
        {'activation': 'relu'},
    ),
    'lstm_dropout': ('n_step_lstm', 3, 3, 8, 2, False, 0.5, [3, 2, 1], {}),
    'bigru_dropout': ('n_step_bigru', 2, 3, 6, 1, True, 0.4, [2, 2, 1], {}),
}

IN_SIZE = 4
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')


def inputs(name):
    """The arguments of case ``name`` (float64 arrays, seeded) and the
    weights of the outputs in the loss, as a dict of arrays."""
    _, n_layers, units, n_w, n_states, bi, _, lengths, _ = CASES[name]
    rand = numpy.random.RandomState(sorted(CASES).index(name)).uniform
    n_dirs = 2 if bi else 1
    a = {}
    for k in range(n_states):
        a['state%d' % k] = rand(-1, 1, (n_layers * n_dirs, len(lengths), units))
    for t in range(max(lengths)):
        a['x%d' % t] = rand(-1, 1, (sum(n > t for n in lengths), IN_SIZE))
    for i in range(n_layers * n_dirs):
        below = IN_SIZE if i < n_dirs else units * n_dirs
        for j in range(n_w):
            cols = below if j < n_w // 2 else units
            a['w%d_%d' % (i, j)] = rand(-1, 1, (units, cols))
            a['b%d_%d' % (i, j)] = rand(-1, 1, units)
    return a


def call(module, name, a, seed=7):
    """Calls the function of case ``name`` of ``module`` (``chainer`` or
    ``chainerlite``) on the Variables ``a``, with NumPy's global generator
    seeded with ``seed`` (the dropout masks); returns the outputs as a flat
    list (final states, then the outputs per step)."""
    fname, n_layers, _, n_w, n_states, bi, ratio, lengths, kwargs = CASES[name]
    n = n_layers * (2 if bi else 1)
    ws = [[a['w%d_%d' % (i, j)] for j in range(n_w)] for i in range(n)]
    bs = [[a['b%d_%d' % (i, j)] for j in range(n_w)] for i in range(n)]
    xs = [a['x%d' % t] for t in range(max(lengths))]
    states = [a['state%d' % k] for k in range(n_states)]
    numpy.random.seed(seed)
    out = getattr(module.functions, fname)(
        n_layers, ratio, *states, ws, bs, xs, **kwargs
    )
    return list(out[:-1]) + list(out[-1])


def _record():
    import chainer

    recorded = {}
    for name in sorted(CASES):
        a = {k: chainer.Variable(v) for k, v in inputs(name).items()}
        with chainer.using_config('train', True):
            outs = call(chainer, name, a)
        rand = numpy.random.RandomState(100)
        loss = sum(
            chainer.functions.sum(y * rand.uniform(-1, 1, y.shape)) for y in outs
        )
        loss.backward()
        for i, y in enumerate(outs):
            recorded['%s/out%d' % (name, i)] = y.array
        for k, v in a.items():
            recorded['%s/grad_%s' % (name, k)] = v.grad
    numpy.savez_compressed(os.path.join(DATA, 'n_step_chainer.npz'), **recorded)


if __name__ == '__main__':
    _record()
