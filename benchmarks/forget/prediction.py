"""The planner's predicted peaks against the traced peaks of the steps, on
the models of curves.py (issue 30): every block forgotten with the graph
released, and plans made with ``release=True`` at fractions of the traced
peak of the plain step (the graph kept; an unreachable budget gives the
smallest peak the planner predicts).

    /work/venv-oracle/bin/python benchmarks/forget/prediction.py
        [--models M ...] [--fractions 0.7 0.45 ...] [--size full|tiny]

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
    # the step's traced peak and seconds, its gradients freed before
    from chainerlite.link_hooks import _forget_profile

    curves.clear_grads('chainerlite', step)
    return _forget_profile.measure_step(step)


def measure_model(model, fractions, size):
    """Predicted and traced peaks (MiB) of ``model``, in this process."""
    import chainerlite
    from chainerlite.link_hooks import ForgetHook
    from chainerlite.link_hooks import _forget_dp
    from chainerlite.link_hooks import _forget_profile
    from chainerlite.link_hooks import plan_forget

    step = curves.build('chainerlite', model, curves.MODELS[model][0], size)
    found = curves.blocks('chainerlite', model, step.model)
    step()
    curves.clear_grads('chainerlite', step)
    plain = _fresh(step)[0]
    curves.clear_grads('chainerlite', step)
    profiled = _forget_profile.profile(step, found, required=True, release=True)
    blocks, _, base, tail, finish, released, _ = profiled
    every = set(range(len(blocks)))
    lowest = _forget_dp.peak_of(blocks, every, base, tail, True, finish=finish)
    row = {
        'model': model,
        'plain_mib': plain / MiB,
        'release_mib': released / MiB,
        'every_predicted_mib': lowest / MiB,
    }
    with chainerlite.using_config('retain_graph', False):
        for block in found:
            block.add_hook(ForgetHook())
        row['every_measured_mib'] = _fresh(step)[0] / MiB
        for block in found:
            block.delete_hook('ForgetHook')
    for fraction in fractions:
        curves.clear_grads('chainerlite', step)
        try:
            plan = plan_forget(
                step.model, step, plain * fraction, blocks=found, release=True
            )
        except ValueError as e:
            row[f'plan_{fraction}'] = str(e)
            continue
        with plan:
            measured = _fresh(step)[0]
        row[f'plan_{fraction}'] = {
            'forgotten': len(plan.names),
            'budget_mib': plan.budget / MiB,
            'predicted_mib': plan.predicted_peak / MiB,
            'measured_mib': measured / MiB,
        }
    return row


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--models', nargs='+', choices=list(curves.MODELS))
    p.add_argument('--fractions', nargs='+', type=float, default=[0.7, 0.45])
    p.add_argument('--size', choices=('full', 'tiny'), default='full')
    p.add_argument('--model', help=argparse.SUPPRESS)  # one, in this process
    args = p.parse_args(argv)
    sys.path.insert(0, str(curves.HERE.parent))
    if args.model:
        sys.path.insert(0, str(curves.ROOT / 'tools'))
        import oracle_tree

        oracle_tree.use_working_tree()
        from models import measure

        measure.set_threads(1)
        print(json.dumps(measure_model(args.model, args.fractions, args.size)))
        return
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_='65536', CHAINERLITE_BLOCK_CACHE='0')
    for model in args.models or list(curves.MODELS):
        command = [sys.executable, __file__, '--model', model, '--size', args.size]
        command += ['--fractions'] + [str(f) for f in args.fractions]
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f'prediction: {model}:\n{done.stderr}')
        print(done.stdout.splitlines()[-1], flush=True)


if __name__ == '__main__':
    main()
