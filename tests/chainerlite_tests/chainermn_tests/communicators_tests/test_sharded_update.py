"""The update sharded over the ranks of one node: bitwise the unsharded
update, and the cases that fall back to it."""

import numpy
import pytest

import chainerlite
from chainerlite import functions
from chainerlite import links
from chainerlite import optimizers
import chainerlite.chainermn
from chainerlite.serializers import npz


def _mlp():
    # a weight larger than the summing piece and one across the ranks' slices
    numpy.random.seed(3)
    return chainerlite.Sequential(
        links.Linear(40, 1700), functions.relu, links.Linear(1700, 9)
    )


@pytest.fixture
def shared(comm2):
    if comm2._shared_memory() is None:
        pytest.skip('the ranks are not all on one node')
    return comm2


def _train(comm, optimizer, steps=3, setup=None):
    model = _mlp()
    opt = chainerlite.chainermn.create_multi_node_optimizer(optimizer, comm)
    opt.setup(model)
    if setup is not None:
        setup(opt, comm.rank)
    opt.update()  # the broadcast
    _steps(comm, opt, steps)
    return model, opt


def _unsharded(opt, rank):
    # an optimizer hook (doing nothing) needs the whole update on each rank
    if 'nothing' not in opt._pre_update_hooks:
        opt.add_hook(lambda optimizer: None, name='nothing')


def _states(model):
    return {
        (name, key): value
        for name, p in sorted(model.namedparams())
        for key, value in sorted((p.update_rule.state or {}).items())
    }


def _in_shared_memory(comm, model):
    raws = [w.shards._raw for w in comm._node_mean._all if w.shards is not None]
    states = _states(model).values()
    return bool(states) and all(
        any(numpy.shares_memory(s, raw) for raw in raws) for s in states
    )


def _assert_same(model, opt, reference, ref_opt):
    assert opt.t == ref_opt.t
    for (name, p), (_, q) in zip(
        sorted(model.namedparams()), sorted(reference.namedparams())
    ):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
        numpy.testing.assert_array_equal(p.grad, q.grad, err_msg=name)
        assert p.update_rule.t == q.update_rule.t
    states, expected = _states(model), _states(reference)
    assert states.keys() == expected.keys()
    for key, value in states.items():
        numpy.testing.assert_array_equal(value, expected[key], err_msg=str(key))


@pytest.mark.parametrize(
    'make', [lambda: optimizers.MomentumSGD(lr=0.05), lambda: optimizers.SGD(0.1)]
)
def test_bitwise_the_unsharded_update(shared, make):
    model, opt = _train(shared, make())
    reference, ref_opt = _train(shared, make(), setup=_unsharded)
    _assert_same(model, opt, reference, ref_opt)
    assert _in_shared_memory(shared, model) == bool(_states(model))
    assert not _in_shared_memory(shared, reference)
    # every rank holds the same parameters, mean gradients and states
    mine = [(n, p.array, p.grad) for n, p in sorted(model.namedparams())]
    mine += sorted(_states(model).items())
    for theirs in shared.allgather_obj(mine):
        for a, b in zip(theirs, mine):
            for x, y in zip(a[1:], b[1:]):
                numpy.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(
    'setup',
    [
        lambda opt, rank: opt.add_hook(chainerlite.optimizer_hooks.WeightDecay(1e-3)),
        lambda opt, rank: opt.target[0].W.update_rule.add_hook(
            lambda rule, param: None, name='nothing'
        ),
        lambda opt, rank: setattr(opt.target[2].b.update_rule, 'enabled', False),
        # one rank alone cannot shard: no rank does
        lambda opt, rank: rank == 1 and _unsharded(opt, rank),
    ],
    ids=['optimizer-hook', 'rule-hook', 'disabled-rule', 'one-rank-only'],
)
def test_falls_back_to_the_whole_update(shared, setup):
    def with_hook(opt, rank):
        setup(opt, rank)
        _unsharded(opt, rank)

    model, opt = _train(shared, optimizers.MomentumSGD(), setup=setup)
    reference, ref_opt = _train(shared, optimizers.MomentumSGD(), setup=with_hook)
    assert not _in_shared_memory(shared, model)
    _assert_same(model, opt, reference, ref_opt)


def test_other_optimizers_and_debug_mode_fall_back(shared):
    model, _ = _train(shared, optimizers.Adam())
    assert _states(model) and not _in_shared_memory(shared, model)
    with chainerlite.using_config('debug', True):
        model, _ = _train(shared, optimizers.MomentumSGD())
    assert not _in_shared_memory(shared, model)


def test_states_leave_shared_memory(shared, tmp_path):
    model, opt = _train(shared, optimizers.MomentumSGD())
    reference, ref_opt = _train(shared, optimizers.MomentumSGD(), setup=_unsharded)
    assert _in_shared_memory(shared, model)
    # a snapshot holds the same states on every rank
    path = str(tmp_path / 'opt.npz')
    npz.save_npz(path, opt)
    saved = dict(numpy.load(path))
    for theirs in shared.allgather_obj(saved):
        for key, value in saved.items():
            numpy.testing.assert_array_equal(theirs[key], value)
    # a step that cannot be sharded gives each rank its own states
    opt.add_hook(lambda optimizer: None, name='nothing')
    x = numpy.ones((2, 40), dtype=numpy.float32)
    t = numpy.zeros(2, dtype=numpy.int32)
    for o, m in ((opt, model), (ref_opt, reference)):
        o.update(lambda: functions.softmax_cross_entropy(m(x), t))
    assert not _in_shared_memory(shared, model)
    _assert_same(model, opt, reference, ref_opt)
    # sharded again, then the communicator finalized: own copies again
    opt.remove_hook('nothing')
    opt.update(lambda: functions.softmax_cross_entropy(model(x), t))
    assert _in_shared_memory(shared, model)
    states = {k: v.copy() for k, v in _states(model).items()}
    shared.finalize()
    for key, value in _states(model).items():
        numpy.testing.assert_array_equal(value, states[key])
        value[...] = 0  # writable memory of its own


def _steps(comm, opt, steps):
    rng = numpy.random.RandomState(comm.rank)
    for _ in range(steps):
        x = rng.randn(6, 40).astype(numpy.float32)
        t = rng.randint(0, 9, 6).astype(numpy.int32)
        opt.update(lambda: functions.softmax_cross_entropy(opt.target(x), t))


@pytest.mark.parametrize('sharded', [True, False])
def test_a_link_added_during_training(shared, sharded):
    trained = []
    for setup in (None if sharded else _unsharded, _unsharded):
        model, opt = _train(shared, optimizers.MomentumSGD(), setup=setup)
        with model.init_scope():
            model.append(links.Linear(9, 9))
        opt.setup(model)  # new rules, no hooks: a new window next step
        if setup is not None:
            setup(opt, shared.rank)
        opt.update()  # the broadcast
        _steps(shared, opt, 2)
        trained.append((model, opt))
    assert _in_shared_memory(shared, trained[0][0]) == sharded
    _assert_same(*trained[0], *trained[1])
