"""Every common function at a model's size, chainerlite against PyTorch.

    python benchmarks/op_survey.py [--threads N] [--rounds R] [--size full|tiny]
        [--tree DIR] [NAME ...]

The micro-benchmarks of ``compare.py`` time 10x10 arrays, where the cost
is the framework's per call; the models of ``models/`` time three networks.
Between them, a function that is slow on large arrays in a model nobody
measured goes unseen (in one run: the sigmoid at 14x PyTorch's time, ELU at
4.6x, depthwise convolutions at 8x). Here each function runs on arrays of a
layer's size (64 x 32 x 32 x 32 images, 2048 x 1024 rows, (64, 256, 512)
batches), forward alone (no graph) and forward with backward, in both
libraries alternately; the table gives the median wall time of each and the
ratio, and ``*`` marks a ratio above 1. Without PyTorch, chainerlite's times
alone. ``--size tiny`` runs every case once on small arrays (the test's
check that each case still runs). One thread by default, set before NumPy
and torch load (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS).
"""

import argparse
import os
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
SIZES = {
    'full': dict(image=(64, 32, 32, 32), rows=(2048, 1024), batch=(64, 256, 512)),
    'tiny': dict(image=(2, 4, 6, 6), rows=(3, 8), batch=(2, 3, 4)),
}


def _cases(np, F, TF, torch, size):
    """{name: (chainerlite function, torch function, input array)}."""
    rng = np.random.default_rng(0)
    image = rng.standard_normal(size['image']).astype(np.float32)
    rows = rng.standard_normal(size['rows']).astype(np.float32)
    batch = rng.standard_normal(size['batch']).astype(np.float32)
    n, c = image.shape[:2]
    rgb = rng.standard_normal((n, 3) + image.shape[2:]).astype(np.float32)
    w5 = (rng.standard_normal((c, 3, 5, 5)) * 0.1).astype(np.float32)
    wdw = (rng.standard_normal((c, 1, 3, 3)) * 0.1).astype(np.float32)
    wpw = (rng.standard_normal((c, c, 1, 1)) * 0.1).astype(np.float32)
    labels = rng.integers(0, rows.shape[1], rows.shape[0]).astype(np.int32)
    bits = (rows > 0).astype(np.int32)
    half = image * 0.5
    ones_c = np.ones(c, np.float32)
    zeros_c = np.zeros(c, np.float32)
    ones_d = np.ones(rows.shape[1], np.float32)
    zeros_d = np.zeros(rows.shape[1], np.float32)

    def t(a):
        return torch.from_numpy(a) if torch is not None else None

    return {
        'relu': (F.relu, TF and TF.relu, image),
        'leaky_relu': (F.leaky_relu, TF and (lambda v: TF.leaky_relu(v, 0.2)), image),
        'elu': (F.elu, TF and TF.elu, image),
        'sigmoid': (F.sigmoid, torch and torch.sigmoid, image),
        'tanh': (F.tanh, torch and torch.tanh, image),
        'softplus': (F.softplus, TF and TF.softplus, image),
        'gelu': (F.gelu, TF and TF.gelu, image),
        'swish': (lambda v: F.swish(v, ones_c), TF and TF.silu, image),
        'clipped_relu': (lambda v: F.clipped_relu(v, 6.0), TF and TF.relu6, image),
        'exp': (F.exp, torch and torch.exp, image),
        'softmax': (F.softmax, TF and (lambda v: TF.softmax(v, 1)), rows),
        'log_softmax': (F.log_softmax, TF and (lambda v: TF.log_softmax(v, 1)), rows),
        'logsumexp': (
            lambda v: F.logsumexp(v, axis=1),
            torch and (lambda v: torch.logsumexp(v, 1)),
            rows,
        ),
        'softmax_cross_entropy': (
            lambda v: F.softmax_cross_entropy(v, labels),
            TF and (lambda v: TF.cross_entropy(v, t(labels).long())),
            rows,
        ),
        'sigmoid_cross_entropy': (
            lambda v: F.sigmoid_cross_entropy(v, bits),
            TF
            and (
                lambda v: TF.binary_cross_entropy_with_logits(
                    v, t(bits.astype(np.float32))
                )
            ),
            rows,
        ),
        'mean_squared_error': (
            lambda v: F.mean_squared_error(v, half),
            TF and (lambda v: TF.mse_loss(v, t(half))),
            image,
        ),
        'huber_loss': (
            lambda v: F.huber_loss(v, half, 1.0),
            TF and (lambda v: TF.huber_loss(v, t(half), reduction='none')),
            image,
        ),
        'dropout': (
            lambda v: F.dropout(v, 0.5),
            TF and (lambda v: TF.dropout(v, 0.5)),
            image,
        ),
        'batch_normalization': (
            lambda v: F.batch_normalization(v, ones_c, zeros_c),
            TF and (lambda v: TF.batch_norm(v, None, None, training=True)),
            image,
        ),
        'layer_normalization': (
            lambda v: F.layer_normalization(v, ones_d, zeros_d),
            TF and (lambda v: TF.layer_norm(v, v.shape[1:])),
            rows,
        ),
        'group_normalization': (
            lambda v: F.group_normalization(v, 4, ones_c, zeros_c),
            TF and (lambda v: TF.group_norm(v, 4)),
            image,
        ),
        'max_pooling_2d': (
            lambda v: F.max_pooling_2d(v, 3, 2, 1),
            TF and (lambda v: TF.max_pool2d(v, 3, 2, 1)),
            image,
        ),
        'average_pooling_2d': (
            lambda v: F.average_pooling_2d(v, 3, 2, 1),
            TF and (lambda v: TF.avg_pool2d(v, 3, 2, 1)),
            image,
        ),
        'unpooling_2d': (
            lambda v: F.unpooling_2d(v, 2, cover_all=False),
            TF and (lambda v: TF.interpolate(v, scale_factor=2, mode='nearest')),
            image,
        ),
        'convolution_2d 3->c 5x5': (
            lambda v: F.convolution_2d(v, w5, pad=2),
            TF and (lambda v: TF.conv2d(v, t(w5), padding=2)),
            rgb,
        ),
        'depthwise convolution': (
            lambda v: F.convolution_2d(v, wdw, pad=1, groups=c),
            TF and (lambda v: TF.conv2d(v, t(wdw), padding=1, groups=c)),
            image,
        ),
        'convolution_2d 1x1': (
            lambda v: F.convolution_2d(v, wpw),
            TF and (lambda v: TF.conv2d(v, t(wpw))),
            image,
        ),
        'matmul (batched)': (
            lambda v: F.matmul(v, v, transb=True),
            torch and (lambda v: torch.matmul(v, v.transpose(1, 2))),
            batch,
        ),
        'sum over channels': (
            lambda v: F.sum(v, axis=1),
            torch and (lambda v: v.sum(1)),
            image,
        ),
        'concat': (
            lambda v: F.concat((v, v), axis=1),
            torch and (lambda v: torch.cat((v, v), 1)),
            image,
        ),
        'transpose': (
            lambda v: F.transpose(v, (0, 2, 3, 1)) * 1.0,
            torch and (lambda v: v.permute(0, 2, 3, 1) * 1.0),
            image,
        ),
        'broadcast add': (
            lambda v: v + ones_c.reshape(1, c, 1, 1),
            torch and (lambda v: v + t(ones_c.reshape(1, c, 1, 1))),
            image,
        ),
        'resize_images': (
            lambda v: F.resize_images(v, (48, 48)),
            TF
            and (
                lambda v: TF.interpolate(
                    v, size=(48, 48), mode='bilinear', align_corners=True
                )
            ),
            image,
        ),
    }


def _runners(chainer, torch, fn, tfn, x):
    """The four timed calls of a case: each library's forward without a
    graph, and forward with backward (the output's gradient all ones)."""
    np = sys.modules['numpy']

    def lite_both():
        v = chainer.Variable(x)
        y = fn(v)
        y.grad = np.ones_like(y.array)
        y.backward()

    def lite_forward():
        with chainer.no_backprop_mode():
            fn(x)

    runners = {'forward': lite_forward, 'both': lite_both}
    if torch is not None:
        tx = torch.from_numpy(x)

        def torch_both():
            v = tx.clone().requires_grad_()
            y = tfn(v)
            y.backward(torch.ones_like(y))

        def torch_forward():
            with torch.no_grad():
                tfn(tx)

        runners.update(torch_forward=torch_forward, torch_both=torch_both)
    return runners


def measure(names, rounds, size, torch_wanted=True):
    """{case: {runner: median seconds}} (each runner warmed up twice)."""
    import numpy as np

    import chainerlite as chainer
    import chainerlite.functions as F

    torch = TF = None
    if torch_wanted:
        try:
            import torch
            import torch.nn.functional as TF

            torch.set_num_threads(int(os.environ.get('OMP_NUM_THREADS', '1')))
        except ImportError:
            torch = TF = None
    cases = _cases(np, F, TF, torch, SIZES[size])
    unknown = sorted(set(names) - set(cases))
    if unknown:
        raise ValueError(f'op_survey: unknown cases {unknown}')
    results = {}
    for name in names or cases:
        fn, tfn, x = cases[name]
        runners = _runners(chainer, torch, fn, tfn, x)
        for run in runners.values():
            run()
            run()
        samples = {key: [] for key in runners}
        for _ in range(rounds):
            for key, run in runners.items():
                start = time.perf_counter()
                run()
                samples[key].append(time.perf_counter() - start)
        results[name] = {key: statistics.median(s) for key, s in samples.items()}
    return results


def table(results):
    """The Markdown table of :func:`measure`'s results (milliseconds)."""
    with_torch = any('torch_both' in r for r in results.values())
    if with_torch:
        lines = [
            '| function | forward ms | x PyTorch | fwd+bwd ms | x PyTorch |',
            '| --- | ---: | ---: | ---: | ---: |',
        ]
    else:
        lines = ['| function | forward ms | fwd+bwd ms |', '| --- | ---: | ---: |']
    for name, r in results.items():
        cells = [name]
        for ours, theirs in (('forward', 'torch_forward'), ('both', 'torch_both')):
            cells.append(f'{r[ours] * 1e3:.2f}')
            if with_torch:
                ratio = r[ours] / r[theirs]
                cells.append(f'{ratio:.2f}' + (' *' if ratio > 1 else ''))
        lines.append('| ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('names', nargs='*', help='cases (default: all)')
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--rounds', type=int, default=7)
    parser.add_argument('--size', choices=sorted(SIZES), default='full')
    parser.add_argument('--tree', help='a checkout whose chainerlite to time')
    parser.add_argument('--no-torch', action='store_true')
    args = parser.parse_args(argv)
    for name in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
        os.environ[name] = str(args.threads)
    if args.tree:
        sys.path.insert(0, str(HERE))
        from side_by_side import use_tree

        use_tree(pathlib.Path(args.tree).resolve())
    results = measure(args.names, args.rounds, args.size, not args.no_torch)
    print(table(results))


if __name__ == '__main__':
    main()
