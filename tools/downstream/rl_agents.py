"""ChainerRL 0.8.0's agents, trained a few hundred steps on both sides.

ChainerRL ships no tests; side/rl_side.py builds each agent from ChainerRL's
own networks and steps it through training on a toy environment. Both
sides start from Chainer's initial parameters and the same seeds, so they
take the same actions and end with the same parameters up to float32
rounding (the agents compute in float32), which ``TOLERANCE`` allows.
gym 0.21 (which ChainerRL imports; its last release with ``Monitor``) and
cached-property are unpacked beside it, not installed.
"""

import os

from tools.downstream import fetch, sides

REQUIREMENTS = {
    'chainerrl==0.8.0': True,
    'gym==0.21.0': True,
    'cached-property==2.0.1': False,
}
AGENTS = (
    'DQN',
    'DoubleDQN',
    'PAL',
    'SARSA',
    'CategoricalDQN',
    'DDPG',
    'TD3',
    'REINFORCE',
    'PPO',
    'TRPO',
)
STEPS = 300
TOLERANCE = 1e-4
SECONDS = 600


def compare_agent(paths, name, outdir, tree=None):
    """One agent, both sides: a record with each side's result and the agreement."""
    args = (name, outdir, str(STEPS))
    record = {'name': name, 'dtype': 'float32'}
    for side in ('chainer', 'chainerlite'):
        record[side] = sides.run_side(
            'rl_side.py',
            args,
            paths,
            side,
            tree if side != 'chainer' else None,
            SECONDS,
        )
        if not record['chainer']['ok']:
            return record
    sides.agreement(record, outdir, TOLERANCE)
    return record


def run(workdir, agents=None, tree=None, log=print):
    """Compares ``agents`` (default: all of ``AGENTS``); returns the records."""
    paths = [fetch.fetch(r, workdir, sdist) for r, sdist in REQUIREMENTS.items()]
    outdir = os.path.join(workdir, 'rl')
    os.makedirs(outdir, exist_ok=True)
    return sides.each(
        agents or AGENTS,
        outdir + '.jsonl',
        log,
        lambda name: compare_agent(paths, name, outdir, tree),
    )
