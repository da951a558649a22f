"""Per-layer times of the 2-d convolution (``--norm``: batch normalization):
chainerlite's own path, oneDNN (``chainerlite._kernels.onednn``) and
PyTorch, side by side in one process.

Each case is a forward, the input gradient and the filter gradient of one
float32 convolution (ResNet-18's CIFAR layers and the small CNN of
``benchmarks/programs.py``), timed as process CPU time (``--clock wall``:
wall time), best of the rounds, the three engines interleaved within each
round. Run it in the oracle venv
(PyTorch), with oneDNN found (``CHAINERLITE_ONEDNN_LIBRARY`` or the
``onednn`` extra) and the threads set in the environment::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 CHAINERLITE_ONEDNN_LIBRARY=... \\
        /work/venv-oracle/bin/python benchmarks/onednn_conv.py --threads 1
"""

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from tools import oracle_tree  # noqa: E402

oracle_tree.use_working_tree()

import chainerlite  # noqa: E402
from chainerlite._kernels import onednn  # noqa: E402
from chainerlite.functions.connection import _conv_utils  # noqa: E402

# (name, in channels, out channels, size, ksize, stride, pad)
LAYERS = [
    ('cnn 16-16 8x8', 16, 16, 8, 3, 1, 1),
    ('r18 conv1 3-64 32x32', 3, 64, 32, 3, 1, 1),
    ('r18 64-64 32x32', 64, 64, 32, 3, 1, 1),
    ('r18 64-128 s2', 64, 128, 32, 3, 2, 1),
    ('r18 1x1 64-128 s2', 64, 128, 32, 1, 2, 0),
    ('r18 128-128 16x16', 128, 128, 16, 3, 1, 1),
    ('r18 256-256 8x8', 256, 256, 8, 3, 1, 1),
    ('r18 512-512 4x4', 512, 512, 4, 3, 1, 1),
]


def _ours(x, W, gy, stride, pad, mode):
    def step():
        with chainerlite.using_config('use_ideep', mode):
            params = _conv_utils.ConvParams(stride, pad, False, 1, 1, 'bench')
            _conv_utils.convolve(x, W, params)
            _conv_utils.convolve_transpose(gy, W, x.shape[2:], params)
            _conv_utils.convolve_grad_weight(x, gy, W.shape[2:], params)

    return step


# batch normalization: (name, channels, size) of ResNet-18's
NORMS = [
    ('bn 64 32x32', 64, 32),
    ('bn 128 16x16', 128, 16),
    ('bn 256 8x8', 256, 8),
    ('bn 512 4x4', 512, 4),
]


def _norm_ours(x, gy, mode):
    import chainerlite.functions as F

    gamma = np.ones(x.shape[1], np.float32)
    beta = np.zeros(x.shape[1], np.float32)

    def step():
        with chainerlite.using_config('use_ideep', mode):
            xv = chainerlite.Variable(x)
            y = F.batch_normalization(xv, gamma, beta)
            y.grad = gy
            y.backward()

    return step


def _norm_torch(torch, x, gy):
    tx = torch.tensor(x, requires_grad=True)
    gamma = torch.ones(x.shape[1], requires_grad=True)
    beta = torch.zeros(x.shape[1], requires_grad=True)
    tgy = torch.tensor(gy)

    def step():
        y = torch.nn.functional.batch_norm(tx, None, None, gamma, beta, training=True)
        torch.autograd.grad(y, (tx, gamma, beta), tgy)

    return step


def _torch(torch, x, W, gy, stride, pad):
    tx = torch.tensor(x, requires_grad=True)
    tW = torch.tensor(W, requires_grad=True)
    tgy = torch.tensor(gy)

    def step():
        y = torch.nn.functional.conv2d(tx, tW, stride=stride, padding=pad)
        torch.autograd.grad(y, (tx, tW), tgy)

    return step


def _time(fn, clock):
    t = clock()
    fn()
    return clock() - t


def _cases(torch, rng, batch, norm):
    # (name, {engine: step}) of each layer
    for name, c, size in NORMS if norm else ():
        x = rng.standard_normal((batch, c, size, size)).astype(np.float32)
        gy = rng.standard_normal(x.shape).astype(np.float32)
        yield (
            name,
            {
                'ours': _norm_ours(x, gy, 'never'),
                'onednn': _norm_ours(x, gy, 'always'),
                'torch': _norm_torch(torch, x, gy),
            },
        )
    for name, cin, cout, size, k, s, p in () if norm else LAYERS:
        if name.startswith('cnn') and batch != 32:
            continue
        x = rng.standard_normal((batch, cin, size, size)).astype(np.float32)
        W = rng.standard_normal((cout, cin, k, k)).astype(np.float32)
        out = (size + 2 * p - k) // s + 1
        gy = rng.standard_normal((batch, cout, out, out)).astype(np.float32)
        yield (
            name,
            {
                'ours': _ours(x, W, gy, s, p, 'never'),
                'onednn': _ours(x, W, gy, s, p, 'always'),
                'torch': _torch(torch, x, W, gy, s, p),
            },
        )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--batches', type=int, nargs='+', default=[32, 128])
    parser.add_argument('--rounds', type=int, default=3)
    # process CPU time counts the threads' spinning too: with two threads
    # the wall clock tells the speed
    parser.add_argument('--clock', choices=('cpu', 'wall'), default='cpu')
    # batch normalization instead of the convolutions
    parser.add_argument('--norm', action='store_true')
    args = parser.parse_args()
    clock = time.process_time if args.clock == 'cpu' else time.perf_counter
    import torch

    torch.set_num_threads(args.threads)
    if not onednn.available():
        sys.exit('oneDNN not found: ' + onednn.unavailable_reason())
    rng = np.random.default_rng(0)
    print('threads', args.threads, '- ms,', args.clock, 'time, best of', args.rounds)
    print('| layer | batch | ours | oneDNN | PyTorch | oneDNN/ours |')
    print('|---|---|---|---|---|---|')
    for batch in args.batches:
        for name, cases in _cases(torch, rng, batch, args.norm):
            for fn in cases.values():
                fn()  # primitives made, caches warm
            best = {key: float('inf') for key in cases}
            for _ in range(args.rounds):
                for key, fn in cases.items():
                    best[key] = min(best[key], _time(fn, clock))
            print(
                '| {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} |'.format(
                    name,
                    batch,
                    *(1e3 * best[k] for k in ('ours', 'onednn', 'torch')),
                    best['onednn'] / best['ours'],
                )
            )


if __name__ == '__main__':
    main()
