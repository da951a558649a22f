"""The planner's predicted peaks and recompute times against those
measured, on the models of curves.py (issue 30): every block forgotten with
the graph released, and plans made with ``release=True`` at fractions of
the traced peak of the plain step (the graph kept; an unreachable budget
gives the smallest peak the planner predicts). Recompute times are given as
[the forgotten blocks' whole forward time, the planner's prediction (up to
where each recomputation stops), measured]; measured is the least traced
step time over ``--rounds`` steps less that of the released step without
forget, so it includes F.forget's own costs (its trace, its replay).

    /work/venv-oracle/bin/python benchmarks/forget/prediction.py
        [--models M ...] [--fractions 0.7 0.45 ...] [--size full|tiny]
        [--rounds 3]

Each model runs in a fresh process with chainerlite's cache of freed
blocks off (``CHAINERLITE_BLOCK_CACHE=0``), as the curves run; the
parameters' gradients are freed before each traced step. One JSON line per
model, bytes in MiB.
"""

import argparse
import json
import os
import subprocess
import sys

import curves

MiB = 2**20


def _fresh(step):
    # the step's traced peak and seconds (traced, as plan_forget times
    # them), its gradients freed before
    from chainerlite.link_hooks import _forget_profile

    curves.clear_grads('chainerlite', step)
    return _forget_profile.measure_step(step)


def _against_plain(step, variant, rounds):
    """The traced peak of the step under ``variant`` (a context) and its
    least seconds over ``rounds`` steps less the least of the step without
    it, the two timed in turn (a shared machine's load weighs on both)."""
    plain, peak, seconds = [], 0, []
    for _ in range(rounds):
        plain.append(_fresh(step)[1])
        with variant:
            found = _fresh(step)
        peak = max(peak, found[0])
        seconds.append(found[1])
    return peak, min(seconds) - min(plain)


class _Clock(object):
    # each block's whole forward time in a step: what the planner
    # predicted as its recompute time before the recomputation stopped early

    def __init__(self, found):
        import time

        from chainerlite import link_hook

        self.found = found
        seconds = self.seconds = {}

        class Hook(link_hook.LinkHook):
            name = 'PredictionClock'

            def forward_preprocess(self, args):
                seconds[id(args.link)] = time.perf_counter()

            def forward_postprocess(self, args):
                key = id(args.link)
                seconds[key] = time.perf_counter() - seconds[key]

        self.hook = Hook()

    def __enter__(self):
        for block in self.found:
            block.add_hook(self.hook)

    def __exit__(self, *exc_info):
        for block in self.found:
            block.delete_hook(self.hook.name)


class _ForgetAll(object):
    # F.forget on every block

    def __init__(self, found):
        self.found = found

    def __enter__(self):
        from chainerlite.link_hooks import ForgetHook

        for block in self.found:
            block.add_hook(ForgetHook())

    def __exit__(self, *exc_info):
        for block in self.found:
            block.delete_hook('ForgetHook')


def _profile(step, found, rounds):
    # plan_forget's profile of a released step; each block's time the least
    # over ``rounds`` profiles, and the whole forward's (_Clock)
    import dataclasses

    from chainerlite.link_hooks import _forget_profile

    runs, forwards = [], [float('inf')] * len(found)
    for _ in range(rounds):
        curves.clear_grads('chainerlite', step)
        runs.append(_forget_profile.profile(step, found, required=True, release=True))
        clock = _Clock(found)
        with clock:
            _fresh(step)
        forwards = [min(f, clock.seconds[id(k)]) for f, k in zip(forwards, found)]
    blocks = [
        dataclasses.replace(block, seconds=min(r[0][i].seconds for r in runs))
        for i, block in enumerate(runs[0][0])
    ]
    return (blocks,) + runs[0][1:], forwards


def measure_model(model, fractions, size, rounds):
    """Predicted and traced peaks (MiB) of ``model``, and recompute times
    (ms): the blocks' whole forward time (the prediction before the early
    stop), the planner's prediction, and the measured one (see
    :func:`_against_plain`), in this process."""
    import chainerlite
    from chainerlite.link_hooks import _forget_dp
    from chainerlite.link_hooks import plan_forget

    step = curves.build('chainerlite', model, curves.MODELS[model][0], size)
    found = curves.plan_blocks(model, step.model)
    step()
    plain = _fresh(step)[0]
    profiled, forwards = _profile(step, found, rounds)
    blocks, _, base, tail, finish, released, _ = profiled
    # every block forgotten (not the stem the planner may forget too)
    each = curves.blocks('chainerlite', model, step.model)
    every = _indexes(found, each)
    lowest = _forget_dp.peak_of(blocks, every, base, tail, True, finish=finish)
    with chainerlite.using_config('retain_graph', False):
        peak, measured = _against_plain(step, _ForgetAll(each), rounds)
    row = {
        'model': model,
        'plain_mib': plain / MiB,
        'release_mib': released / MiB,
        'every_predicted_mib': lowest / MiB,
        'every_measured_mib': peak / MiB,
        'every_recompute_ms': [
            sum(forwards) * 1e3,
            _forget_dp.recompute_seconds(blocks, every) * 1e3,
            measured * 1e3,
        ],
    }
    for fraction in fractions:
        curves.clear_grads('chainerlite', step)
        try:
            plan = plan_forget(
                step.model, step, plain * fraction, blocks=found, release=True
            )
        except ValueError as e:
            row[f'plan_{fraction}'] = str(e)
            continue
        with chainerlite.using_config('retain_graph', False):
            measured, seconds = _against_plain(step, plan, rounds)
        chosen = _indexes(found, plan.links)
        chained = [
            link for link, name in zip(plan.links, plan.names) if name in plan.chained
        ]
        row[f'plan_{fraction}'] = {
            'forgotten': len(plan.names),
            'budget_mib': plan.budget / MiB,
            'predicted_mib': plan.predicted_peak / MiB,
            'measured_mib': measured / MiB,
            'chained': len(plan.chained),
            'recompute_ms': [
                sum(forwards[i] for i in chosen) * 1e3,
                _forget_dp.recompute_seconds(
                    blocks, chosen, chained=_indexes(found, chained)
                )
                * 1e3,
                seconds * 1e3,
            ],
        }
    return row


def _indexes(found, links):
    ids = {id(link) for link in links}
    return {i for i, link in enumerate(found) if id(link) in ids}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--models', nargs='+', choices=list(curves.MODELS))
    p.add_argument('--fractions', nargs='+', type=float, default=[0.7, 0.45])
    p.add_argument('--size', choices=('full', 'tiny'), default='full')
    p.add_argument('--rounds', type=int, default=3, help='timed steps per point')
    p.add_argument('--model', help=argparse.SUPPRESS)  # one, in this process
    args = p.parse_args(argv)
    sys.path.insert(0, str(curves.HERE.parent))
    if args.model:
        sys.path.insert(0, str(curves.ROOT / 'tools'))
        import oracle_tree

        oracle_tree.use_working_tree()
        from models import measure

        measure.set_threads(1)
        print(
            json.dumps(
                measure_model(args.model, args.fractions, args.size, args.rounds)
            )
        )
        return
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_='65536', CHAINERLITE_BLOCK_CACHE='0')
    for model in args.models or list(curves.MODELS):
        command = [sys.executable, __file__, '--model', model, '--size', args.size]
        command += ['--rounds', str(args.rounds)]
        command += ['--fractions'] + [str(f) for f in args.fractions]
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f'prediction: {model}:\n{done.stderr}')
        print(done.stdout.splitlines()[-1], flush=True)


if __name__ == '__main__':
    main()
