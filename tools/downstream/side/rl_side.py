"""One side of a ChainerRL agent comparison, run in its own process.

    DOWNSTREAM_SIDE=chainer|chainerlite python rl_side.py AGENT OUTDIR STEPS

Builds AGENT (chainerrl's own networks, small), steps it through STEPS
steps of training on a toy environment of this file (deterministic given
its seed), and saves the actions it took and its final parameters to
OUTDIR/AGENT.SIDE.npz. Chainer's side saves its initial parameters to
OUTDIR/AGENT.init.npz and chainerlite's side loads them, so both start
from the same network; every random generator is then seeded again.
"""

import os
import random
import sys

import downstream_side
import numpy

OBS, ACTIONS = 4, 3


class ToyEnv:
    """A noisy linear system: 4 observed floats, actions discrete or 1-D continuous."""

    def __init__(self, continuous):
        self.continuous = continuous
        self.rng = numpy.random.RandomState(7)
        self.state = None
        self.t = 0

    def reset(self):
        self.state = self.rng.uniform(-1, 1, OBS).astype(numpy.float32)
        self.t = 0
        return self.state

    def step(self, action):
        push = (
            float(numpy.asarray(action).ravel()[0])
            if self.continuous
            else float(action) - 1.0
        )
        noise = self.rng.normal(0, 0.1, OBS)
        self.state = (0.9 * self.state + 0.2 * push + noise).astype(numpy.float32)
        self.t += 1
        reward = float(-numpy.square(self.state).sum())
        return self.state, reward, self.t >= 20


def _build(name):
    import chainer
    import chainerrl
    from chainer import optimizers
    from gym import spaces

    box = spaces.Box(low=-1.0, high=1.0, shape=(1,), dtype=numpy.float32)
    replay = chainerrl.replay_buffer.ReplayBuffer(1000)
    greedy = chainerrl.explorers.ConstantEpsilonGreedy(
        0.2, lambda: random.randrange(ACTIONS)
    )
    common = dict(replay_start_size=30, minibatch_size=8, target_update_interval=20)

    def adam(link):
        opt = optimizers.Adam(1e-3)
        opt.setup(link)
        return opt

    if name in ('DQN', 'DoubleDQN', 'PAL', 'SARSA'):
        q = chainerrl.q_functions.FCStateQFunctionWithDiscreteAction(
            OBS, ACTIONS, 16, 2
        )
        agent = getattr(chainerrl.agents, name)(
            q, adam(q), replay, 0.9, greedy, **common
        )
        return agent, [q], False
    if name == 'CategoricalDQN':
        q = chainerrl.q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
            OBS, ACTIONS, 11, -10, 10, 16, 2
        )
        return (
            chainerrl.agents.CategoricalDQN(q, adam(q), replay, 0.9, greedy, **common),
            [q],
            False,
        )
    if name in ('DDPG', 'TD3'):
        policy = chainerrl.policies.FCDeterministicPolicy(
            OBS, 1, 16, 1, min_action=box.low, max_action=box.high, bound_action=True
        )
        explorer = chainerrl.explorers.AdditiveGaussian(0.1, low=box.low, high=box.high)
        kw = dict(replay_start_size=30, minibatch_size=8)
        if name == 'DDPG':
            q = chainerrl.q_functions.FCSAQFunction(OBS, 1, 16, 1)
            model = chainerrl.agents.ddpg.DDPGModel(policy=policy, q_func=q)
            agent = chainerrl.agents.DDPG(
                model,
                adam(model['policy']),
                adam(model['q_function']),
                replay,
                0.9,
                explorer,
                target_update_method='soft',
                **kw,
            )
            return agent, [model], True
        q1 = chainerrl.q_functions.FCSAQFunction(OBS, 1, 16, 1)
        q2 = chainerrl.q_functions.FCSAQFunction(OBS, 1, 16, 1)
        agent = chainerrl.agents.TD3(
            policy,
            q1,
            q2,
            adam(policy),
            adam(q1),
            adam(q2),
            replay,
            0.9,
            explorer,
            **kw,
        )
        return agent, [policy, q1, q2], True
    if name == 'REINFORCE':
        policy = chainerrl.policies.FCSoftmaxPolicy(
            OBS, ACTIONS, n_hidden_channels=16, n_hidden_layers=1
        )
        return (
            chainerrl.agents.REINFORCE(policy, adam(policy), batchsize=2),
            [policy],
            False,
        )
    if name == 'PPO':
        model = chainerrl.links.Branched(
            chainerrl.policies.FCSoftmaxPolicy(
                OBS, ACTIONS, n_hidden_channels=16, n_hidden_layers=1
            ),
            chainerrl.v_functions.FCVFunction(
                OBS, n_hidden_channels=16, n_hidden_layers=1
            ),
        )
        agent = chainerrl.agents.PPO(
            model, adam(model), update_interval=40, minibatch_size=10, epochs=2
        )
        return agent, [model], False
    if name == 'TRPO':
        policy = chainerrl.policies.FCGaussianPolicyWithStateIndependentCovariance(
            OBS,
            1,
            n_hidden_channels=16,
            n_hidden_layers=1,
            var_type='diagonal',
            var_func=lambda x: chainer.functions.exp(2 * x),
            var_param_init=0,
        )
        vf = chainerrl.v_functions.FCVFunction(
            OBS, n_hidden_channels=16, n_hidden_layers=1
        )
        agent = chainerrl.agents.TRPO(
            policy, vf, adam(vf), update_interval=40, vf_batch_size=10
        )
        return agent, [policy, vf], True
    raise ValueError('rl_side: unknown agent %r' % name)


def _same_gaussian_draws(chainerrl):
    # chainerlite's F.gaussian draws its noise from a generator seeded by
    # NumPy's global one (so that F.forget can replay it), not from NumPy's
    # global generator itself as Chainer does (docs/differences.rst); the
    # Gaussian policies' actions are sampled here with NumPy's draws on both
    # sides so that the runs can be compared step by step
    import chainer.functions as F

    def sample(self):
        eps = numpy.random.standard_normal(self.mean.shape).astype(self.mean.dtype)
        return self.mean + F.exp(self.ln_var * 0.5) * eps

    chainerrl.distribution.GaussianDistribution.sample = sample


def _run(name, outdir, steps):
    steps = int(steps)
    import chainer
    import chainerrl

    _same_gaussian_draws(chainerrl)

    side = os.environ.get('DOWNSTREAM_SIDE', 'chainer')
    chainerrl.misc.set_random_seed(0)
    agent, links, continuous = _build(name)
    init = os.path.join(outdir, name + '.init.npz')
    holder = chainer.ChainList(*links)
    if side == 'chainer':
        chainer.serializers.save_npz(init, holder)
    else:
        chainer.serializers.load_npz(init, holder)
    # target networks copied at construction start from the loaded weights too
    if hasattr(agent, 'sync_target_network'):
        agent.sync_target_network()
    chainerrl.misc.set_random_seed(1)
    env = ToyEnv(continuous)
    obs, reward, actions = env.reset(), 0.0, []
    for _ in range(steps):
        action = agent.act_and_train(obs, reward)
        actions.append(numpy.asarray(action, dtype=numpy.float64).ravel())
        obs, reward, done = env.step(action)
        if done:
            agent.stop_episode_and_train(obs, reward, done)
            obs, reward = env.reset(), 0.0
    arrays = {'actions': numpy.concatenate(actions)}
    for i, link in enumerate(links):
        for path, param in link.namedparams():
            arrays['param%d%s' % (i, path.replace('/', '|'))] = param.array
    numpy.savez(os.path.join(outdir, '%s.%s.npz' % (name, side)), **arrays)


if __name__ == '__main__':
    downstream_side.report(_run, sys.argv[1:])
