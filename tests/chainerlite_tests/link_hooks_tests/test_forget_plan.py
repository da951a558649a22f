"""link_hooks.plan_forget and ForgetPlan on a synthetic chain."""

import itertools
import math

import numpy
import pytest

import chainerlite
from chainerlite import functions as F
from chainerlite import link_hooks
from chainerlite import links as L
from chainerlite.link_hooks import _forget_dp

# The measured peak may pass the budget by this much: the plan predicts from
# one traced step, and a few small objects (nodes, variables, the hooks'
# own bookkeeping) are not in its model.
SLACK = 0.03


class Block(chainerlite.Chain):
    def __init__(self, width, layers):
        super().__init__()
        with self.init_scope():
            self.layers = chainerlite.ChainList(
                *[L.Linear(width, width) for _ in range(layers)]
            )

    def forward(self, x):
        for layer in self.layers:
            x = F.tanh(layer(x))
        return x


def _chain(blocks=8, width=32, layers=4):
    numpy.random.seed(0)
    return chainerlite.Sequential(*[Block(width, layers) for _ in range(blocks)])


def _step(model, x):
    def step():
        model.cleargrads()
        loss = F.sum(model(x) ** 2)
        loss.backward()
        return float(loss.array)

    return step


def _setup():
    model = _chain()
    x = numpy.random.RandomState(1).randn(2048, 32).astype(numpy.float32)
    step = _step(model, x)
    step()
    return model, x, step


@pytest.mark.parametrize('fraction', [0.8, 0.5])
def test_plan_meets_the_budget_with_the_same_gradients(fraction):
    model, x, step = _setup()
    free = link_hooks.plan_forget(model, step, budget=2**40)
    assert free.names == [] and free.predicted_peak == free.profiled_peak
    budget = free.profiled_peak * fraction
    plan = link_hooks.plan_forget(model, step, budget=budget)
    assert plan.names and plan.predicted_peak <= budget
    loss = step()
    plain = [p.grad.copy() for _, p in sorted(model.namedparams())]
    peak, seconds = plan.measure(step)
    assert peak <= budget * (1 + SLACK), (peak, budget)
    assert seconds > 0 and plan.measured_peak == peak
    with plan:
        assert step() == pytest.approx(loss, rel=1e-6)
        for (_, p), want in zip(sorted(model.namedparams()), plain):
            numpy.testing.assert_allclose(p.grad, want, rtol=1e-5, atol=1e-7)
    # a tighter budget forgets more
    if fraction < 0.9:
        looser = link_hooks.plan_forget(model, step, budget=free.profiled_peak * 0.9)
        assert len(plan.names) > len(looser.names)


def test_a_plan_with_release_reaches_further_and_keeps_gradients():
    model, x, step = _setup()
    free = link_hooks.plan_forget(model, step, budget=2**40)
    loss = step()
    plain = [p.grad.copy() for _, p in sorted(model.namedparams())]
    lowest = link_hooks.plan_forget(model, step, budget=2**40, release=True)
    # the release alone lowers the predicted peak
    assert lowest.names == [] and lowest.predicted_peak < free.profiled_peak
    budget = free.profiled_peak * 0.45
    with pytest.raises(ValueError, match='no choice'):
        link_hooks.plan_forget(model, step, budget=budget)
    plan = link_hooks.plan_forget(model, step, budget=budget, release=True)
    assert plan.release and plan.predicted_peak <= budget
    # at a budget both reach, the release forgets fewer blocks
    half = free.profiled_peak * 0.6
    assert len(link_hooks.plan_forget(model, step, half, release=True).names) < len(
        link_hooks.plan_forget(model, step, half).names
    )
    peak, _ = plan.measure(step)
    assert peak <= budget * (1 + SLACK), (peak, budget)
    assert chainerlite.config.retain_graph is True  # measure restored it
    with plan:
        assert chainerlite.config.retain_graph is False
        assert step() == pytest.approx(loss, rel=1e-6)
        for (_, p), want in zip(sorted(model.namedparams()), plain):
            numpy.testing.assert_allclose(p.grad, want, rtol=1e-5, atol=1e-7)
    assert chainerlite.config.retain_graph is True
    assert 'release' in repr(plan)


def test_removing_the_plan_leaves_nothing_behind():
    model, x, step = _setup()
    before = {name: dict(link.__dict__) for name, link in model.namedlinks()}
    free = link_hooks.plan_forget(model, step, budget=2**40)
    plan = link_hooks.plan_forget(model, step, budget=free.profiled_peak * 0.6)
    assert plan.names
    plan.apply()
    plan.apply()  # applying twice adds nothing
    assert all(list(link.local_link_hooks) == ['ForgetPlan'] for link in plan.links)
    labels = [node.label for node in _creators(model(x))]
    assert labels.count('Forget') == len(plan.names)
    plan.remove()
    after = {name: dict(link.__dict__) for name, link in model.namedlinks()}
    assert before.keys() == after.keys()
    for name in before:
        assert before[name].keys() == after[name].keys(), name
    assert all(not link.local_link_hooks for link in model.links())
    assert 'Forget' not in [node.label for node in _creators(model(x))]


def _creators(y):
    seen, todo = [], [y.creator_node]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.append(node)
        todo.extend(v.creator_node for v in node.inputs)
    return seen


@pytest.mark.parametrize('budget', [0, -1.0, float('nan'), float('inf')])
def test_bad_budgets_raise_value_error(budget):
    model, x, step = _setup()
    with pytest.raises(ValueError, match='plan_forget: budget'):
        link_hooks.plan_forget(model, step, budget=budget)


@pytest.mark.parametrize('budget', ['1', None, True, [1]])
def test_budgets_that_are_no_numbers_raise_type_error(budget):
    model, x, step = _setup()
    with pytest.raises(TypeError, match='plan_forget: budget'):
        link_hooks.plan_forget(model, step, budget=budget)


def test_a_budget_no_plan_reaches_raises_value_error():
    model, x, step = _setup()
    with pytest.raises(ValueError, match='plan_forget: no choice .* predicted to peak'):
        link_hooks.plan_forget(model, step, budget=1024)
    assert all(not link.local_link_hooks for link in model.links())


def test_bad_blocks_raise_value_error_and_leave_no_probe():
    model, x, step = _setup()
    with pytest.raises(
        ValueError, match='plan_forget: each block must be a link of the model'
    ):
        link_hooks.plan_forget(model, step, 2**20, blocks=[L.Linear(2, 2)])
    with pytest.raises(ValueError, match='given twice'):
        link_hooks.plan_forget(model, step, 2**20, blocks=[model[0], model[0]])
    with pytest.raises(ValueError, match='did not call'):
        link_hooks.plan_forget(model, lambda: model[0](x), 2**20, blocks=[model[1]])
    with pytest.raises(ValueError, match='called none of the blocks'):
        link_hooks.plan_forget(model, lambda: None, 2**20)
    with pytest.raises(ValueError, match='called more than once'):
        link_hooks.plan_forget(
            model, lambda: model[1](model[1](x)), 2**20, blocks=[model[1]]
        )
    assert all(not link.local_link_hooks for link in model.links())
    with pytest.raises(TypeError, match='plan_forget: model must be a Link'):
        link_hooks.plan_forget(step, step, 2**20)


def test_nested_blocks_can_be_chosen():
    flat = _chain()
    model = chainerlite.Sequential(
        chainerlite.Sequential(*list(flat)[:4]), chainerlite.Sequential(*list(flat)[4:])
    )
    x = numpy.random.RandomState(1).randn(2048, 32).astype(numpy.float32)
    step = _step(model, x)
    step()
    inner = [block for stage in model for block in stage]
    free = link_hooks.plan_forget(model, step, 2**40, blocks=inner)
    plan = link_hooks.plan_forget(model, step, free.profiled_peak * 0.7, blocks=inner)
    assert plan.names and all(name.count('/') == 2 for name in plan.names)
    peak, _ = plan.measure(step)
    assert peak <= free.profiled_peak * 0.7 * (1 + SLACK)


class Encoder(chainerlite.Chain):
    # Blocks in a ChainList the forward iterates, a child it never calls.
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.blocks = chainerlite.ChainList(*_chain(blocks=4))
            self.unused = L.Linear(2, 2)
            self.head = L.Linear(32, 1)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def test_default_blocks_look_into_chain_lists():
    model = Encoder()
    x = numpy.random.RandomState(1).randn(2048, 32).astype(numpy.float32)
    step = _step(model, x)
    step()
    free = link_hooks.plan_forget(model, step, 2**40)
    plan = link_hooks.plan_forget(model, step, free.profiled_peak * 0.75)
    assert plan.names and set(plan.names) <= {'/blocks/%d' % i for i in range(4)}


def _brute(blocks, budget, base, tail, release):
    best = None
    for r in range(len(blocks) + 1):
        for subset in itertools.combinations(range(len(blocks)), r):
            if _forget_dp.peak_of(blocks, set(subset), base, tail, release) <= budget:
                cost = sum(blocks[i].seconds for i in subset)
                if best is None or cost < best - 1e-12:
                    best = cost
    return best


@pytest.mark.parametrize('release', [False, True])
def test_the_dp_finds_the_cheapest_plan_that_fits(release):
    rng = numpy.random.RandomState(0)
    for _ in range(60):
        n = rng.randint(1, 8)
        blocks = []
        for _ in range(n):
            out = int(rng.randint(1, 40))
            kept = out + int(rng.randint(0, 120))
            blocks.append(
                _forget_dp.Block(
                    kept=kept,
                    out=out,
                    peak=kept + int(rng.randint(0, 30)),
                    grads=int(rng.randint(0, 20)),
                    seconds=float(rng.rand()),
                )
            )
        base, tail = int(rng.randint(0, 20)), int(rng.randint(0, 100))
        budget = int(rng.randint(50, 1200))  # under 4096: bytes counted exactly
        chosen = _forget_dp.choose(blocks, budget, base, tail, release)
        best = _brute(blocks, budget, base, tail, release)
        if best is None:
            assert chosen is None
        else:
            assert _forget_dp.peak_of(blocks, chosen, base, tail, release) <= budget
            assert math.isclose(
                sum(blocks[i].seconds for i in chosen), best, abs_tol=1e-9
            )
