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
from chainerlite.link_hooks import _forget_profile

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
    # without the release, only blocks chained to the ones before reach it
    assert link_hooks.plan_forget(model, step, budget=budget).chained
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


def test_the_release_prediction_follows_what_the_engine_frees():
    # Every block forgotten, the graph released: the outputs each forget
    # node kept are freed before its block runs again, so the prediction
    # counts them once (it counted them twice and the backward of the loss
    # on top of each block's: 18% over the traced peak here).
    numpy.random.seed(0)
    model = chainerlite.Sequential(*[Block(128, 3) for _ in range(6)])
    x = numpy.random.RandomState(1).randn(2048, 128).astype(numpy.float32)
    step = _step(model, x)
    step()
    profiled = _forget_profile.profile(step, list(model), True, release=True)
    blocks, _, base, tail, finish, _, _ = profiled
    every = set(range(len(blocks)))
    predicted = _forget_dp.peak_of(blocks, every, base, tail, True, finish=finish)
    for block in model:
        block.add_hook(link_hooks.ForgetHook())
    with chainerlite.using_config('retain_graph', False):
        measured, _ = _forget_profile.measure_step(step)
    assert measured <= predicted * (1 + SLACK) and predicted <= measured * 1.1, (
        predicted,
        measured,
    )


@pytest.mark.parametrize('release', [False, True])
def test_a_plan_chains_blocks_to_reach_further(release):
    # every block forgotten keeps each block's input; chained to the block
    # before, a block keeps none (its input is made again in backward)
    model, x, step = _setup()
    loss = step()
    plain = [p.grad.copy() for _, p in sorted(model.namedparams())]
    every = _forget_profile.profile(step, list(model), True, release=release)
    blocks, _, base, tail, finish, _, _ = every
    assert all(block.chainable for block in blocks[1:]) and not blocks[0].chainable
    lowest = min(  # without chains
        _forget_dp.peak_of(blocks, set(s), base, tail, release, finish=finish)
        for n in range(len(blocks) + 1)
        for s in itertools.combinations(range(len(blocks)), n)
    )
    budget = lowest * 0.93
    assert _forget_dp.lowest_peak(blocks, base, tail, release, finish) <= budget
    plan = link_hooks.plan_forget(model, step, budget=budget, release=release)
    assert plan.chained and set(plan.chained) <= set(plan.names)
    assert plan.predicted_peak <= budget < lowest
    assert 'chained=' in repr(plan)
    peak, _ = plan.measure(step)
    assert peak <= budget * (1 + SLACK), (peak, budget)
    with plan:
        hooks = [link.local_link_hooks['ForgetPlan'] for link in plan.links]
        assert [h.chain for h in hooks] == [n in plan.chained for n in plan.names]
        assert step() == pytest.approx(loss, rel=1e-6)
        for (_, p), want in zip(sorted(model.namedparams()), plain):
            numpy.testing.assert_allclose(p.grad, want, rtol=1e-5, atol=1e-7)


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
    # the blocks in the list and the head (chained to the last block, it
    # frees that block's output), never the child the step does not call
    blocks = {'/blocks/%d' % i for i in range(4)}
    assert set(plan.names) & blocks and set(plan.names) <= blocks | {'/head'}


def _sets(choices):
    # (forgotten, keep, chained) of choices: run (0), forget (1), forget
    # keeping (2), forget chained to the block before (3)
    return (
        {i for i, c in enumerate(choices) if c},
        {i for i, c in enumerate(choices) if c == 2},
        {i for i, c in enumerate(choices) if c == 3},
    )


def _brute(blocks, budget, base, tail, release, finish):
    # every valid choice per block
    best = None
    for choices in itertools.product(range(4), repeat=len(blocks)):
        if any(
            c == 3 and not (i and blocks[i].chainable and choices[i - 1] == 1)
            for i, c in enumerate(choices)
        ):
            continue
        forgotten, keep, chained = _sets(choices)
        peak = _forget_dp.peak_of(
            blocks, forgotten, base, tail, release, keep, finish, chained
        )
        if peak <= budget:
            cost = _forget_dp.recompute_seconds(blocks, forgotten, keep, chained)
            if best is None or cost < best - 1e-12:
                best = cost
    return best


def _random_block(rng, keeps):
    out = int(rng.randint(1, 40))
    kept = out + int(rng.randint(0, 120))
    seconds = float(rng.rand())
    saved = int(rng.randint(0, kept - out + 1)) if keeps else 0
    return _forget_dp.Block(
        kept=kept,
        out=out,
        peak=kept + int(rng.randint(0, 30)),
        grads=int(rng.randint(0, 20)),
        seconds=seconds,
        saved=saved,
        saved_seconds=seconds * float(rng.rand()) if saved else 0.0,
        back=kept + int(rng.randint(-out, 60)),
        forward=seconds * (1 + float(rng.rand())),
        chainable=bool(rng.rand() < 0.8),
        handed=bool(rng.rand() < 0.5),
    )


@pytest.mark.parametrize('keeps', [False, True])
@pytest.mark.parametrize('release', [False, True])
def test_the_dp_finds_the_cheapest_plan_that_fits(release, keeps):
    rng = numpy.random.RandomState(0)
    planned = 0  # the cases where something is forgotten
    chains = 0  # those where a block is chained
    for _ in range(60):
        blocks = [_random_block(rng, keeps) for _ in range(rng.randint(1, 7))]
        base, tail = int(rng.randint(0, 20)), int(rng.randint(0, 100))
        finish = int(rng.randint(0, 400)) if release else 0
        plain = _forget_dp.peak_of(blocks, set(), base, tail, release, finish=finish)
        # under 4096: bytes counted exactly
        budget = int(plain * rng.uniform(0.4, 1.0))
        chosen = _forget_dp.choose(blocks, budget, base, tail, release, finish)
        best = _brute(blocks, budget, base, tail, release, finish)
        if best is None:
            assert chosen is None
        else:
            forgotten, keep, chained = chosen
            planned += bool(forgotten)
            chains += bool(chained)
            assert keep <= forgotten and chained <= forgotten
            peak = _forget_dp.peak_of(
                blocks, forgotten, base, tail, release, keep, finish, chained
            )
            assert peak <= budget
            cost = _forget_dp.recompute_seconds(blocks, forgotten, keep, chained)
            assert math.isclose(cost, best, abs_tol=1e-9)
    assert planned >= 15 and chains >= 1, (planned, chains)


class Bottleneck(chainerlite.Chain):
    # a wide hidden layer between two narrow ones: the output of ``l2``
    # (tagged 'narrow') is small and costs a matmul to recompute
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(32, 256)
            self.l2 = L.Linear(256, 32)

    def forward(self, x):
        h = F.tanh(self.l1(x))
        with chainerlite.forget_tag('narrow'):
            y = self.l2(h)
        return F.tanh(y) + x


def test_a_plan_with_keep_forgets_blocks_keeping_what_the_policy_picks():
    numpy.random.seed(0)
    model = chainerlite.Sequential(*[Bottleneck() for _ in range(6)])
    x = numpy.random.RandomState(1).randn(1024, 32).astype(numpy.float32)
    step = _step(model, x)
    step()
    loss = step()
    plain = [p.grad.copy() for _, p in sorted(model.namedparams())]
    free = link_hooks.plan_forget(model, step, 2**40, keep='narrow')
    assert free.names == [] and free.kept == [] and free.keep == 'narrow'
    plans = [
        link_hooks.plan_forget(
            model, step, free.profiled_peak * f, release=True, keep='narrow'
        )
        for f in (0.85, 0.7, 0.6)
    ]
    assert any(plan.kept for plan in plans), plans
    for plan in plans:
        assert set(plan.kept) <= set(plan.names)
        assert plan.predicted_peak <= plan.budget
        peak, _ = plan.measure(step)
        assert peak <= plan.budget * (1 + SLACK), (peak, plan.budget)
    plan = next(plan for plan in plans if plan.kept)
    with plan:
        hooks = [link.local_link_hooks['ForgetPlan'] for link in plan.links]
        assert [h.keep for h in hooks] == [
            'narrow' if name in plan.kept else None for name in plan.names
        ]
        assert 'keep=' in repr(plan)
        assert step() == pytest.approx(loss, rel=1e-6)
        for (_, p), want in zip(sorted(model.namedparams()), plain):
            numpy.testing.assert_allclose(p.grad, want, rtol=1e-5, atol=1e-7)


def test_a_bad_keep_raises_type_error():
    model, x, step = _setup()
    with pytest.raises(TypeError, match='plan_forget: forget: keep'):
        link_hooks.plan_forget(model, step, 2**40, keep=3)
    with pytest.raises(TypeError, match='keep'):
        link_hooks.ForgetHook(keep=3)


def test_a_plan_for_an_update_in_backward_reaches_below_the_gradients():
    # a step that updates each parameter during backward holds no block's
    # gradients through the backward of the others: the plan reaches
    # budgets below their bytes, which no plan of the ordinary step does
    numpy.random.seed(0)
    model = chainerlite.Sequential(*[Block(256, 2) for _ in range(6)])
    x = numpy.random.RandomState(1).randn(128, 256).astype(numpy.float32)
    opt = chainerlite.optimizers.MomentumSGD()
    opt.setup(model)
    ordinary = _step(model, x)
    ordinary()
    grads = sum(p.array.nbytes for p in model.params())
    budget = grads * 0.6
    with pytest.raises(ValueError, match='no choice of blocks'):
        link_hooks.plan_forget(model, ordinary, budget, release=True)
    opt.use_update_in_backward()

    def step():
        opt.update(lambda: F.sum(model(x) ** 2))

    step()
    plan = link_hooks.plan_forget(
        model, step, budget, release=True, update_in_backward=True
    )
    assert plan.names and plan.predicted_peak <= budget
    peak, _ = plan.measure(step)
    assert peak <= budget * (1 + SLACK), (peak, budget)
