"""The shared-memory mean of gradients (every rank on one node)."""

import copy
import gc

import numpy
import pytest

import chainerlite
from chainerlite import links
import chainerlite.chainermn
from chainerlite.chainermn.communicators import _shared_memory


def _model(*sizes):
    model = chainerlite.Chain()
    with model.init_scope():
        for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
            setattr(model, 'l{}'.format(i), links.Linear(n_in, n_out))
    return model


def _random_grads(model, rank, step, dtype=numpy.float32):
    rng = numpy.random.RandomState(100 * step + rank)
    for _, p in sorted(model.namedparams()):
        if p.dtype != dtype:
            p.grad = None
            p.array = p.array.astype(dtype)
        p.grad = rng.uniform(-1, 1, p.shape).astype(dtype)


def _expected(model, size, step, dtype=numpy.float32):
    """The mean of what :func:`_random_grads` gives each rank, by name."""
    others = [copy.deepcopy(model) for _ in range(size)]
    for rank, other in enumerate(others):
        _random_grads(other, rank, step, dtype)
    return {
        name: sum(dict(o.namedparams())[name].grad for o in others) / size
        for name, _ in model.namedparams()
    }


@pytest.fixture
def shared(comm2):
    if comm2._shared_memory() is None:
        pytest.skip('the ranks are not all on one node')
    return comm2


def _in_window(comm, model):
    segments = [w.mine for w in comm._node_mean._all]
    return all(
        any(numpy.shares_memory(p.grad, s) for s in segments) for p in model.params()
    )


@pytest.mark.parametrize('wire', [None, numpy.float16, numpy.float64])
def test_same_values_as_the_allreduce(shared, wire):
    plain = chainerlite.chainermn.create_communicator('naive')
    plain._node_mean = False
    for comm in (shared, plain):
        comm.set_config('allreduce_grad_dtype', wire)
    first, second = _model(5, 7, 3), _model(5, 7, 3)
    for step in range(3):
        _random_grads(first, shared.rank, step)
        _random_grads(second, shared.rank, step)
        shared.multi_node_mean_grad(first)
        plain.multi_node_mean_grad(second)
        # float32 gradients are views of the window; others are copied out
        assert _in_window(shared, first) == (wire is None)
        assert shared._node_mean._windows[first].dtype == (wire or numpy.float32)
        expected = _expected(first, shared.size, step)
        tolerance = 2e-3 if wire == numpy.float16 else 1e-6
        for (name, p), (_, q) in zip(
            sorted(first.namedparams()), sorted(second.namedparams())
        ):
            assert p.grad.dtype == numpy.float32
            if shared.size == 2:  # two addends: the same sum in any order
                numpy.testing.assert_array_equal(p.grad, q.grad)
            numpy.testing.assert_allclose(p.grad, expected[name], atol=tolerance)


def test_float64_gradients_keep_their_dtype(shared):
    model = _model(3, 2)
    for step in range(2):
        _random_grads(model, shared.rank, step, numpy.float64)
        shared.multi_node_mean_grad(model)
        expected = _expected(model, shared.size, step, numpy.float64)
        for name, p in model.namedparams():
            assert p.grad.dtype == numpy.float64
            numpy.testing.assert_allclose(p.grad, expected[name], rtol=1e-12)


def test_parameters_added_and_removed(shared):
    model = _model(4, 3, 2)
    for step, action in enumerate(['keep', 'add', 'keep', 'remove', 'keep']):
        if action == 'add':
            with model.init_scope():
                model.l2 = links.Linear(2, 6)
        elif action == 'remove':
            del model.l1
        _random_grads(model, shared.rank, step)
        shared.multi_node_mean_grad(model)
        expected = _expected(model, shared.size, step)
        for name, p in model.namedparams():
            numpy.testing.assert_allclose(p.grad, expected[name], atol=1e-6)
        if step == 0:
            held = model.l0.W.grad  # a view of the first window, kept
            value = held.copy()
    node_mean = shared._node_mean
    assert len(node_mean._all) == 1 and len(node_mean._retired) == 1
    numpy.testing.assert_array_equal(held, value)  # its window is not freed
    del held
    with model.init_scope():
        model.l3 = links.Linear(6, 1)
    _random_grads(model, shared.rank, 5)
    shared.multi_node_mean_grad(model)
    assert len(node_mean._all) == 1 and not node_mean._retired


def test_windows_of_dead_models_are_freed(shared):
    for step in range(3):
        model = _model(3, 2)
        _random_grads(model, shared.rank, step)
        shared.multi_node_mean_grad(model)
        del model
        gc.collect()
    node_mean = shared._node_mean
    # the last model's window, and the one before, retired at the last call
    assert len(node_mean._all) == 1 and len(node_mean._retired) == 1


def test_mismatch_is_an_error_on_every_rank(shared):
    model = _model(3, 2)
    for step in range(2):  # before and after the window exists
        _random_grads(model, shared.rank, step)
        if shared.rank == 1:
            model.l0.b.grad = None
        with pytest.raises(ValueError, match='rank 1 differ'):
            shared.multi_node_mean_grad(model)
        _random_grads(model, shared.rank, step)
        shared.multi_node_mean_grad(model)  # agreeing again works
        numpy.testing.assert_allclose(
            model.l0.W.grad, _expected(model, shared.size, step)['/l0/W'], atol=1e-6
        )


def test_zero_fill_and_other_parameters_of_the_same_sizes(shared):
    model = _model(3, 2)
    _random_grads(model, shared.rank, 0)
    shared.multi_node_mean_grad(model)
    old = model.l0.W
    views, value = old.grad, old.grad.copy()
    with model.l0.init_scope():
        model.l0.W = chainerlite.Parameter(numpy.zeros((2, 3), numpy.float32))
    if shared.rank == 0:
        model.l0.W.grad = numpy.full((2, 3), 2.0, numpy.float32)
    shared.multi_node_mean_grad(model, zero_fill=True)
    numpy.testing.assert_allclose(model.l0.W.grad, 2.0 / shared.size)
    # the replaced parameter got its own copy of its gradient
    assert old.grad is not views and not _in_window(shared, _single(old))
    numpy.testing.assert_array_equal(old.grad, value)


def _single(param):
    link = chainerlite.Link()
    with link.init_scope():
        link.p = param
    return link


def test_finalize_copies_out_the_gradients(shared):
    model = _model(3, 2)
    _random_grads(model, shared.rank, 0)
    shared.multi_node_mean_grad(model)
    before = {name: p.grad.copy() for name, p in model.namedparams()}
    shared.finalize()
    for name, p in model.namedparams():
        numpy.testing.assert_array_equal(p.grad, before[name])
    _random_grads(model, shared.rank, 1)
    shared.multi_node_mean_grad(model)  # a new window
    numpy.testing.assert_allclose(
        model.l0.b.grad, _expected(model, shared.size, 1)['/l0/b'], atol=1e-6
    )


def test_one_process_needs_no_window(comm):
    node_mean = _shared_memory.create(comm.mpi_comm)
    assert (node_mean is None) == (comm.size == 1)
    if node_mean is not None:
        node_mean.free()
