"""Peak memory against step time with and without recomputation, chainerlite
against PyTorch (issue 30): the curves of docs/performance/forget_curves.*.

    /work/venv-oracle/bin/python benchmarks/forget/curves.py [--models M ...]
        [--quick] [--out docs/performance]
        [--methods none torch-block torch-selective forget-block plan ...]
        [--append]
    /work/venv-oracle/bin/python benchmarks/forget/curves.py --models M ...
        --interleave torch:torch-block chainerlite:forget-block-release ...
        [--repeats 2]
    python benchmarks/forget/curves.py --plot docs/performance/forget_curves.json

Models: a deep residual MLP (16 blocks, width 512, hidden 1024, batch 1024),
4 Transformer encoder blocks (d 256, seq 128, batch 16) and ResNet-18 for
CIFAR at batch 128 (benchmarks/models: the same parameters in both
libraries). Methods, each a point of the curve:

* ``none``: no recomputation (both libraries);
* ``torch-block``: ``torch.utils.checkpoint`` (``use_reentrant=False``)
  around each block;
* ``torch-selective``: the same with PyTorch's selective checkpointing
  (``create_selective_checkpoint_contexts``), a policy that saves the
  outputs of matmuls, convolutions and attention and recomputes the rest;
* ``forget-block``: chainerlite's ``ForgetHook`` (``F.forget``) on each
  block;
* ``plan-F``: chainerlite's ``plan_forget`` at a budget of ``F`` times the
  traced peak of chainerlite's ``none`` (the planner may forget any block);
* ``release``, ``forget-block-release``, ``plan-release-F``: the same three
  with the graph released during backward (``config.retain_graph`` False,
  as PyTorch's backward does by default; the plan counts on it:
  ``plan_forget(..., release=True)``);
* ``forget-block-keep-release``: ``F.forget`` per block keeping the outputs
  of the nodes that ``torch-selective`` saves (``keep=``: LinearFunction,
  MatMul and Convolution2DFunction), released;
* ``plan-keep-release-F``: ``plan_forget(release=True, keep=...)`` with
  that policy: per block the plan runs it, forgets it, or forgets it
  keeping those outputs;
* ``release-update``, ``forget-block-release-update``,
  ``plan-release-update-F``: ``release``, ``forget-block-release`` and
  ``plan-release-F`` with each parameter updated during backward
  (``optimizer.use_update_in_backward()``, the step
  ``optimizer.update(lossfun)``): its gradient is freed once its update
  ran, so the step no longer holds every gradient until the update
  (PyTorch's ``none`` and ``torch-block`` do); the plan is made for it
  (``plan_forget(..., update_in_backward=True)``).

Each point runs in a fresh process, one thread (BLAS, OpenMP and torch),
with ``MALLOC_MMAP_THRESHOLD_=65536`` so that glibc maps each large array
on its own and gives its pages back when it is freed (the resident set then
follows the live arrays of both libraries; chainerlite's cache of freed
array blocks is off, ``CHAINERLITE_BLOCK_CACHE=0``, since it keeps them
resident). After a warm-up step (lazy
allocations, the optimizer's state; and, for a plan, the profiled step),
the peak is the resident set's high-water mark during one step above the
resident set before it (``VmHWM`` reset through ``/proc/self/clear_refs``),
the same measure for both libraries; chainerlite's tracemalloc peak of a
step is recorded as well (tracemalloc does not see torch's tensors). The
step time is the median over ``rounds`` steps of the process's CPU time
(one thread: the load of other processes on a shared machine does not
count); the wall times are recorded too. The parameters' gradients are
freed before each measured step (the step would free them first), so the
peak counts them. Results go to ``forget_curves.json``;
``--plot`` writes its table (``forget_curves.md``) and, where matplotlib
imports, its figure (``forget_curves.png``; matplotlib is not in the oracle
venv: run that step with the project's venv). Set
``CHAINERLITE_ONEDNN_LIBRARY`` (e.g. ``.venv-onednn/lib/libdnnl.so.3``) so
that chainerlite's convolutions run on oneDNN where it is faster
(``use_ideep`` 'auto'), as PyTorch's do; each chainerlite point records its
``use_ideep``.
"""

import argparse
import functools
import gc
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time
import tracemalloc

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MiB = 2**20
# model -> (batch, timed rounds)
MODELS = {'residual_mlp': (1024, 3), 'transformer': (16, 3), 'resnet18': (128, 2)}
FRACTIONS = (0.85, 0.7, 0.55)
RELEASE_FRACTIONS = (0.85, 0.7, 0.55, 0.45, 0.3)
TORCH_METHODS = ('none', 'torch-block', 'torch-selective')
METHODS = TORCH_METHODS + (
    'forget-block',
    'plan',
    'release',
    'forget-block-release',
    'plan-release',
    'forget-block-keep-release',
    'plan-keep-release',
    'release-update',
    'forget-block-release-update',
    'plan-release-update',
)


def build(library, model, batch, size):
    """The step of ``model`` (a callable with ``.model``) in ``library``."""
    import importlib

    module = importlib.import_module(f'models.{model}')
    dims = dict(module.SIZES[size])
    arrays = module.arrays(dims, 0)
    data = module.data(dims, batch, 1)
    if library == 'torch':
        return module.torch_step(dims, arrays, data)
    return module.chainer_step(importlib.import_module(library), dims, arrays, data)


def blocks(library, model, net):
    """The blocks each method may recompute: the residual blocks, the encoder
    blocks, ResNet-18's eight basic blocks."""
    if library == 'torch':
        return list(net)[:-1] if model == 'transformer' else list(net.blocks)
    if model == 'resnet18':
        return [block for stage in net.stages for block in stage]
    return list(net.blocks)


def plan_blocks(model, net):
    """The links chainerlite's planner may choose from: the blocks and, for
    ResNet-18, the stem's convolution and batch normalization (forgotten
    both, the second chained to the first, the stem keeps only its ReLU's
    output; the torch methods and forget-block leave the stem alone)."""
    found = blocks('chainerlite', model, net)
    if model == 'resnet18':
        return [net.stem, net.bn] + found
    return found


def torch_checkpoint(modules, selective):
    """Wraps the forward of each module in torch.utils.checkpoint."""
    import torch
    from torch.utils import checkpoint as ckpt

    options = {}
    if selective:
        aten = torch.ops.aten
        saved = {aten.mm.default, aten.addmm.default, aten.bmm.default}
        saved.add(aten.convolution.default)
        for name in ('_scaled_dot_product_flash_attention_for_cpu',):
            if hasattr(aten, name):
                saved.add(getattr(aten, name).default)

        def policy(ctx, op, *args, **kwargs):
            if op in saved:
                return ckpt.CheckpointPolicy.MUST_SAVE
            return ckpt.CheckpointPolicy.PREFER_RECOMPUTE

        options['context_fn'] = functools.partial(
            ckpt.create_selective_checkpoint_contexts, policy
        )
    for module in modules:
        inner = module.forward

        def forward(*args, _inner=inner, **kwargs):
            return ckpt.checkpoint(
                _inner, *args, use_reentrant=False, **options, **kwargs
            )

        module.forward = forward


def keep_policy():
    """The ``keep`` of the keep methods: the outputs of the nodes whose
    outputs ``torch-selective`` saves (matmuls, convolutions; attention is
    a MatMul in chainerlite's Transformer)."""
    from chainerlite.functions.connection import convolution_2d
    from chainerlite.functions.connection import linear
    from chainerlite.functions.math import matmul

    return (linear.LinearFunction, matmul.MatMul, convolution_2d.Convolution2DFunction)


def updating_in_backward(step):
    """The chainerlite ``step`` (models._common.chainer_step) with each
    parameter updated during backward: ``optimizer.update(lossfun)``."""
    optimizer, loss_of = step.optimizer, step.loss_of
    optimizer.use_update_in_backward()

    def step_updating():
        value = []

        def lossfun():  # the loss is held by update alone, as usual
            loss = loss_of()
            value.append(float(loss.array))
            return loss

        optimizer.update(lossfun)
        return value[0]

    step_updating.model = step.model
    return step_updating


def apply(method, library, model, step, budget):
    """Applies ``method`` to the model of ``step``; what it reports (the
    step of a ``-update`` method updates during backward already)."""
    net = step.model
    found = blocks(library, model, net)
    release = 'release' in method
    keep = keep_policy() if '-keep-' in method else None
    if release and not method.startswith('plan'):
        import chainerlite

        chainerlite.config.retain_graph = False  # this thread runs the steps
    if method in ('torch-block', 'torch-selective'):
        torch_checkpoint(found, selective=method == 'torch-selective')
    elif method.startswith('forget-block'):
        from chainerlite.link_hooks import ForgetHook

        for block in found:
            block.add_hook(ForgetHook(keep))
    elif method.startswith('plan'):
        from chainerlite.link_hooks import plan_forget

        try:
            plan = plan_forget(
                net,
                step,
                budget,
                blocks=plan_blocks(model, net),
                release=release,
                keep=keep,
                update_in_backward='-update' in method,
            )
            plan.apply()
        except ValueError as e:
            return {'unreachable': str(e)}
        return {
            'budget_mib': budget / MiB,
            'forgotten': plan.names,
            'kept': plan.kept,
            'chained': plan.chained,
            'predicted_traced_mib': plan.predicted_peak / MiB,
            'predicted_traced_wall_ms': plan.predicted_seconds * 1e3,
            'profiled_traced_mib': plan.profiled_peak / MiB,
        }
    return {}


def clear_grads(library, step):
    """Frees the parameters' gradients, so that a step starts without them
    (it frees them itself first: a baseline with them would hide their
    bytes from the peak)."""
    if library == 'torch':
        for param in step.model.parameters():
            param.grad = None
    else:
        step.model.cleargrads()
    gc.collect()


def measure_point(args):
    """One point, in this (fresh) process."""
    from models import measure

    measure.set_threads(1)
    if args.library == 'torch':
        import torch

        torch.set_num_threads(1)
    step = build(args.library, args.model, args.batch, args.size)
    if '-update' in args.method:
        step = updating_in_backward(step)
    step()
    clear_grads(args.library, step)
    point = apply(args.method, args.library, args.model, step, args.budget)
    if 'unreachable' in point:
        return point
    step()
    clear_grads(args.library, step)
    if not (measure.reset_high_water() and measure.rss_status()):
        raise RuntimeError('curves: VmHWM cannot be reset on this machine')
    before = measure.rss_status()[0]
    step()
    point['rss_peak_mib'] = (measure.rss_status()[1] - before) / MiB
    walls, cpus = [], []
    for _ in range(args.rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        step()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    point['step_ms'] = statistics.median(cpus) * 1e3
    point['step_ms_all'] = [t * 1e3 for t in cpus]
    point['wall_ms_all'] = [t * 1e3 for t in walls]
    if args.library == 'chainerlite':
        import chainerlite

        point['use_ideep'] = chainerlite.config.use_ideep
        clear_grads(args.library, step)
        tracemalloc.start()
        start = tracemalloc.get_traced_memory()[0]
        wall = time.perf_counter()
        step()
        wall = time.perf_counter() - wall
        point['traced_peak_mib'] = (tracemalloc.get_traced_memory()[1] - start) / MiB
        tracemalloc.stop()
        if 'forgotten' in point:  # timed as plan_forget predicts: traced, wall
            point['measured_traced_wall_ms'] = wall * 1e3
    return point


def run_point(model, library, method, rounds, size, budget=0):
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_='65536', CHAINERLITE_BLOCK_CACHE='0')
    command = [sys.executable, __file__, '--point', model, library, method]
    command += ['--rounds', str(rounds), '--size', size, '--budget', str(budget)]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f'curves: {model} {library} {method}:\n{done.stderr}')
    point = json.loads(done.stdout.splitlines()[-1])
    point.update(model=model, library=library, method=method)
    print(json.dumps(point), file=sys.stderr)
    return point


def run_all(args, earlier):
    """The points of ``args.models`` and ``args.methods``, with those of
    ``earlier`` (a previous result) that are not measured again."""
    import platform

    points = {(p['model'], p['library'], p['method']): p for p in earlier['points']}
    wanted = set(args.methods)
    for model in args.models:
        batch, rounds = MODELS[model]
        rounds = 1 if args.quick else rounds
        methods = [('torch', m) for m in TORCH_METHODS if m in wanted]
        if not importlib_available('torch'):
            methods = []
        methods += [
            ('chainerlite', m)
            for m in ('none', 'forget-block', 'release', 'forget-block-release')
            + ('forget-block-keep-release', 'release-update')
            + ('forget-block-release-update',)
            if m in wanted
        ]
        if 'plan' in wanted:
            methods += [('chainerlite', f'plan-{f}') for f in FRACTIONS]
        for name in ('plan-release', 'plan-keep-release', 'plan-release-update'):
            if name in wanted:
                methods += [('chainerlite', f'{name}-{f}') for f in RELEASE_FRACTIONS]
        for library, method in methods:
            budget = 0
            if method.startswith('plan'):
                plain = points[(model, 'chainerlite', 'none')]
                fraction = float(method.rsplit('-', 1)[1])
                budget = int(plain['traced_peak_mib'] * MiB * fraction)
            point = run_point(model, library, method, rounds, args.size, budget)
            points[(model, library, method)] = point
    batches = dict(earlier.get('batches', {}))
    batches.update({m: MODELS[m][0] for m in args.models})
    return {
        'machine': platform.processor() or platform.machine(),
        'threads': 1,
        'batches': batches,
        'size': args.size,
        'points': list(points.values()),
    }


def interleave(args, result):
    """Each point of ``args.interleave`` on each model, in turn, repeated
    (the load of a shared machine then weighs on all of them alike)."""
    nones = {
        p['model']: p['traced_peak_mib']
        for p in result['points']
        if p['library'] == 'chainerlite' and p['method'] == 'none'
    }
    points = []
    for repeat in range(args.repeats):
        for model in args.models:
            for entry in args.interleave:
                library, method = entry.split(':', 1)
                budget = 0
                if method.startswith('plan'):
                    fraction = float(method.rsplit('-', 1)[1])
                    budget = int(nones[model] * MiB * fraction)
                rounds = 1 if args.quick else MODELS[model][1]
                point = run_point(model, library, method, rounds, args.size, budget)
                points.append(dict(point, repeat=repeat))
    return points


def importlib_available(name):
    import importlib.util

    return importlib.util.find_spec(name) is not None


LABELS = {
    'none': 'no recomputation',
    'torch-block': 'checkpoint per block',
    'torch-selective': 'selective checkpoint',
    'forget-block': 'F.forget per block',
    'release': 'no recomputation, graph released',
    'forget-block-release': 'F.forget per block, released',
    'forget-block-keep-release': 'F.forget per block, keep=, released',
    'release-update': 'no recomputation, released, update in backward',
    'forget-block-release-update': 'F.forget per block, released, update in backward',
}


def plot(path):
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    result = json.loads(pathlib.Path(path).read_text())
    models = list(result['batches'])
    fig, axes = plt.subplots(1, len(models), figsize=(5.5 * len(models), 5))
    for ax, model in zip(axes if len(models) > 1 else [axes], models):
        for library, colour in (('torch', '#ff7f0e'), ('chainerlite', '#d62728')):
            rows = [
                p
                for p in result['points']
                if p['model'] == model and p['library'] == library and 'step_ms' in p
            ]
            for prefix, style, name in (
                ('plan-0', '--o', 'plan_forget'),
                ('plan-release', '-o', 'plan_forget(release=True)'),
                ('plan-keep-release', ':s', 'plan_forget(release=True, keep=)'),
                ('plan-release-update', '-.x', 'plan_forget(release=True), update'),
            ):
                plans = sorted(
                    (
                        p
                        for p in rows
                        if p['method'].startswith(prefix)
                        and ('-update' in p['method']) == ('-update' in prefix)
                    ),
                    key=lambda p: p['rss_peak_mib'],
                )
                if plans:
                    ax.plot(
                        [p['rss_peak_mib'] for p in plans],
                        [p['step_ms'] for p in plans],
                        style,
                        color=colour,
                        mfc='none' if prefix == 'plan-0' else colour,
                        label=f'chainerlite {name}',
                    )
            markers = {'none': 's', 'torch-block': '^', 'torch-selective': 'v'}
            markers.update({'forget-block': '^', 'release': 'D'})
            markers['forget-block-release'] = '>'
            markers['forget-block-keep-release'] = '<'
            markers['release-update'] = 'd'
            markers['forget-block-release-update'] = 'P'
            for p in rows:
                if p['method'] in markers:
                    ax.plot(
                        p['rss_peak_mib'],
                        p['step_ms'],
                        markers[p['method']],
                        color=colour,
                        mfc='none' if library == 'torch' else colour,
                        label=f'{library} {LABELS[p["method"]]}',
                    )
        ax.set_title(f'{model} (batch {result["batches"][model]})')
        ax.set_xlabel('peak resident memory of a step (MiB)')
        ax.set_ylabel('step time (ms)')
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, loc='best', framealpha=0.7)
    fig.tight_layout()
    out = pathlib.Path(path).with_suffix('.png')
    fig.savefig(out, dpi=110)
    return out


def parser():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--models', nargs='+', choices=list(MODELS), default=list(MODELS))
    p.add_argument('--methods', nargs='+', choices=METHODS, default=list(METHODS))
    p.add_argument(
        '--append',
        action='store_true',
        help='keep the points of the result in --out that are not measured again',
    )
    p.add_argument('--quick', action='store_true', help='one timed step per point')
    p.add_argument('--size', choices=('full', 'tiny'), default='full')
    p.add_argument('--out', default=str(ROOT / 'docs' / 'performance'))
    p.add_argument('--plot', metavar='JSON', help='draw the figure of a result')
    p.add_argument('--point', nargs=3, metavar=('MODEL', 'LIBRARY', 'METHOD'))
    p.add_argument('--rounds', type=int, default=3)
    p.add_argument('--budget', type=int, default=0)
    p.add_argument(
        '--interleave',
        nargs='+',
        metavar='LIBRARY:METHOD',
        help='measure these points of --models again, in turn, --repeats times, '
        'into the "interleaved" entry of the result in --out (plans take '
        "their budget from its chainerlite none point)",
    )
    p.add_argument('--repeats', type=int, default=2)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    if args.plot:
        report(args.plot)
        return 0
    sys.path.insert(0, str(HERE.parent))
    sys.path.insert(0, str(ROOT / 'tools'))
    import oracle_tree

    oracle_tree.use_working_tree()
    if args.point:
        args.model, args.library, args.method = args.point
        args.batch = MODELS[args.model][0] if args.size == 'full' else 4
        print(json.dumps(measure_point(args)))
        return 0
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / 'forget_curves.json'
    earlier = {'points': []}
    if (args.append or args.interleave) and path.exists():
        earlier = json.loads(path.read_text())
    if args.interleave:
        result = dict(earlier, interleaved=interleave(args, earlier))
    else:  # the note and the points measured in turn before stay
        result = dict(earlier, **run_all(args, earlier))
    path.write_text(json.dumps(result, indent=1) + '\n')
    report(path)
    return 0


def report(path):
    """Writes the table (``.md``) of a result, and its figure (``.png``)
    where matplotlib imports."""
    result = json.loads(pathlib.Path(path).read_text())
    pathlib.Path(path).with_suffix('.md').write_text(table(result))
    try:
        print(plot(path))
    except ImportError:
        print('matplotlib is not installed here: run --plot with another Python')


def table(result):
    """The points as a Markdown table per model."""
    lines = [
        '# Peak memory against step time, with and without recomputation',
        '',
        'Written by `benchmarks/forget/curves.py` (its docstring gives the method);'
        ' one thread, CPU time per step (median), peak resident memory of a step'
        ' above the resident set before it (both libraries), tracemalloc peak'
        " (chainerlite's arrays), and for plans the budget, the predicted"
        ' tracemalloc peak, the predicted and measured time of a traced step'
        ' (wall clock, as plan_forget predicts it) and the blocks forgotten'
        ' ("(keep)": forgotten keeping what keep= picks).',
        '',
        '![peak memory against step time](forget_curves.png)',
        '',
    ]
    if 'note' in result:  # how this run differs (load, points left out)
        lines += [result['note'], '']
    for model, batch in result['batches'].items():
        lines += [
            f'## {model}, batch {batch}',
            '',
            '| library | method | peak RSS MiB | step ms | traced MiB |'
            ' budget MiB | predicted MiB | traced wall ms predicted / measured |'
            ' forgotten |',
            '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
        ]
        for p in result['points']:
            if p['model'] != model:
                continue
            if 'unreachable' in p:
                lines.append(
                    f'| {p["library"]} | {p["method"]} | | | | | | |'
                    f' unreachable: {p["unreachable"]} |'
                )
                continue

            def num(key, p=p):
                return f'{p[key]:.1f}' if key in p else ''

            kept = set(p.get('kept', ()))
            chained = set(p.get('chained', ()))
            forgotten = ' '.join(
                name
                + (' (keep)' if name in kept else '')
                + (' (chained)' if name in chained else '')
                for name in p.get('forgotten', ())
            )
            walls = ''
            if 'measured_traced_wall_ms' in p:
                walls = '{predicted_traced_wall_ms:.0f} / {measured_traced_wall_ms:.0f}'
                walls = walls.format(**p)
            lines.append(
                f'| {p["library"]} | {p["method"]} | {num("rss_peak_mib")} |'
                f' {num("step_ms")} | {num("traced_peak_mib")} |'
                f' {num("budget_mib")} | {num("predicted_traced_mib")} |'
                f' {walls} | {forgotten} |'
            )
        lines.append('')
        lines += interleaved_table(result, model)
    return '\n'.join(lines)


def interleaved_table(result, model):
    """The points measured in turn (``--interleave``), one row per method
    with the step times of each repeat."""
    rows = {}
    for p in result.get('interleaved', ()):
        if p['model'] == model and 'step_ms' in p:
            row = rows.setdefault((p['library'], p['method']), [p['rss_peak_mib'], []])
            row[1].append(p['step_ms'])
    if not rows:
        return []
    lines = [
        f'Measured again in turn ({model}, each repeat runs every row once):',
        '',
        '| library | method | peak RSS MiB | step ms, each repeat |',
        '| --- | --- | ---: | ---: |',
    ]
    for (library, method), (rss, times) in rows.items():
        steps = ' / '.join(f'{t:.0f}' for t in times)
        lines.append(f'| {library} | {method} | {rss:.1f} | {steps} |')
    return lines + ['']


if __name__ == '__main__':
    sys.exit(main())
