"""A run resumed from a snapshot in a new process, with shuffling and
dropout, ends with the parameters of a run that was not interrupted, bit
for bit: the snapshot holds NumPy's global random state."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from chainerlite import serializers
from chainerlite.training import _random_states

TRAIN = textwrap.dedent(
    '''
    import sys
    import numpy as np
    import chainerlite
    import chainerlite.functions as F
    import chainerlite.links as L
    from chainerlite import iterators, optimizers, serializers, training
    from chainerlite.training import extensions

    mode, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    np.random.seed(seed)

    class Net(chainerlite.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(4, 8)
                self.l2 = L.Linear(8, 1)

        def forward(self, x, t):
            h = F.dropout(F.relu(self.l1(x)), 0.5)
            return F.mean_squared_error(self.l2(h)[:, 0], t)

    rng = np.random.RandomState(0)  # the data are fixed
    x = rng.uniform(-1, 1, (10, 4)).astype(np.float32)
    data = list(zip(x, x.sum(axis=1)))
    model = Net()
    optimizer = optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    # shuffled, and batches of 3 of 10 examples cross the epochs
    updater = training.updaters.StandardUpdater(
        iterators.SerialIterator(data, 3), optimizer)
    stop = 8 if mode == 'first' else 16
    trainer = training.Trainer(updater, (stop, 'iteration'), out=out)
    if mode != 'straight':
        trainer.extend(extensions.snapshot(filename='snap', autoload=True),
                       trigger=(8, 'iteration'))
    trainer.run()
    serializers.save_npz(out + '/params.npz', model)
    '''
)


def _train(mode, out, seed):
    subprocess.run(
        [sys.executable, '-c', TRAIN, mode, str(out), str(seed)],
        check=True,
        timeout=120,
    )
    with np.load(os.path.join(str(out), 'params.npz')) as f:
        return {key: f[key] for key in f.files}


def _assert_params(a, b, equal):
    same = a.keys() == b.keys() and all(a[k].tobytes() == b[k].tobytes() for k in a)
    assert same == equal


def test_a_resumed_run_is_bitwise_the_straight_run(tmp_path):
    straight = _train('straight', tmp_path / 'straight', seed=3)
    _train('first', tmp_path / 'resumed', seed=3)
    # the new process seeds otherwise: the snapshot's state must win
    resumed = _train('resume', tmp_path / 'resumed', seed=12345)
    _assert_params(resumed, straight, equal=True)

    # the same without the random state (a snapshot of Chainer's kind)
    # loads, and then differs: the state is what made them equal
    _train('first', tmp_path / 'chainer', seed=3)
    snap = str(tmp_path / 'chainer' / 'snap')
    with np.load(snap) as f:
        assert f['updater/iteration'] == 8
        state = {k: f[k] for k in f.files if not k.startswith('_random_state/')}
    np.savez(snap, **state)
    os.replace(snap + '.npz', snap)
    other = _train('resume', tmp_path / 'chainer', seed=12345)
    _assert_params(other, straight, equal=False)


class _Holder:
    def serialize(self, serializer):
        _random_states.serialize(serializer)


def test_a_bad_random_state_is_refused_and_changes_nothing():
    saved = serializers.npz.serialize(_Holder())
    np.random.seed(0)
    expected = np.random.get_state(legacy=False)
    for data in (
        np.frombuffer(b'not json', np.uint8),
        np.frombuffer(b'{"bit_generator": "MT19937", "state": {}}', np.uint8),
        np.frombuffer(b'{"bit_generator": "PCG64"}', np.uint8),
        np.array([0.5, 2.0]),
    ):
        with pytest.raises((ValueError, TypeError), match="'numpy'"):
            serializers.NpzDeserializer({'numpy': data}).load(_Holder())
        state = np.random.get_state(legacy=False)
        assert state['state']['pos'] == expected['state']['pos']
        np.testing.assert_array_equal(state['state']['key'], expected['state']['key'])
    serializers.NpzDeserializer(saved).load(_Holder())  # the saved one loads
    serializers.NpzDeserializer({}, strict=True).load(_Holder())  # none: kept
