"""The segment DP of :func:`~chainerlite.link_hooks.plan_forget`.

The blocks form a chain, run in order. Block ``i`` leaves ``kept[i]`` bytes
alive when it runs normally, ``out[i]`` (its outputs) when it runs under
``F.forget``, and ``peak[i]`` bytes above what was alive before it at the
highest while its forward runs. As in Chainer, what the forward pass leaves
stays alive through the whole backward pass, on top of which come the
gradients of the parameters (``grads[i]`` bytes per block, accumulated from
the last block back to the first), ``rest`` bytes of the step's own at the
worst (the loss and the gradients flowing back), and, while a forgotten
block is recomputed, the ``kept[i]`` bytes of its graph again and the
gradient of its outputs (``out[i]`` bytes; the profiled step's worst after
the last block, ``rest``, is measured where the gradients flowing back are
those of the last blocks, smaller in a network that narrows). Forgetting
block ``i`` costs ``seconds[i]`` (its forward runs twice).

The peak during backward is then the bytes kept by the forward pass plus
the largest of (all the gradients) and (for each forgotten block, its graph
plus the gradients present when it is recomputed). For each bound on that
largest term, the DP walks the blocks in call order with the bytes kept so
far as its state and the recompute time as its cost, allowing only the
blocks whose recomputation stays under the bound; each block's forward
constraint depends only on the state, so the cheapest choice per state is
enough (a state with more bytes and more time than another is dropped).

When the step releases the graph as backward goes (``retain_graph=False``),
what a block kept is freed once its backward ran, so while block ``i``'s
backward runs only the bytes kept by blocks ``0..i`` are alive, with the
gradients of the parameters of blocks ``i..`` and, if ``i`` is forgotten,
its recomputed graph. That bound involves only the state after block ``i``,
so one walk checks it block by block.
"""

import dataclasses
import math


@dataclasses.dataclass(frozen=True)
class Block:
    """What the profile says of one block (bytes and seconds)."""

    kept: int
    out: int
    peak: int
    grads: int
    seconds: float


def _recompute_extra(blocks):
    # For each block: its graph, the gradient of its outputs that its
    # backward receives, and the parameters' gradients present when it is
    # recomputed (its own and those of the blocks after it).
    extra, grads = [0] * len(blocks), 0
    for i in reversed(range(len(blocks))):
        grads += blocks[i].grads
        extra[i] = grads + blocks[i].kept + blocks[i].out
    return extra, grads


def _released_extra(blocks, forgotten):
    # With the graph released as backward goes: what comes on top of the
    # bytes kept by blocks 0..i while block i's backward runs (the gradients
    # of the parameters of blocks i.., and its recomputed graph if it is
    # forgotten).
    extra, _ = _recompute_extra(blocks)
    return [
        extra[i] if forgotten(i) else extra[i] - block.kept - block.out
        for i, block in enumerate(blocks)
    ]


def peak_of(blocks, forgotten, base, tail, release=False):
    """The predicted peak of a step in which the blocks whose indexes are in
    ``forgotten`` run under ``F.forget``.

    Args:
        blocks (list of Block): The chain, in call order.
        forgotten (set of int): Indexes of the forgotten blocks.
        base (int): Bytes allocated by the step before the first block.
        tail (int): What the step adds at its worst after the last block
            (the loss, backward's gradients).
        release (bool): Whether backward releases the graph as it goes.

    """
    extra, grads = _recompute_extra(blocks)
    rest = max(0, tail - grads)
    on_top = _released_extra(blocks, forgotten.__contains__) if release else None
    prefix, worst = base, base
    for i, block in enumerate(blocks):
        worst = max(worst, prefix + block.peak)
        prefix += block.out if i in forgotten else block.kept
        if release:
            worst = max(worst, prefix + rest + on_top[i])
    if release:
        return worst
    largest = max([grads] + [extra[i] for i in forgotten])
    return max(worst, prefix + rest + largest)


def choose(blocks, budget, base, tail, release=False):
    """The blocks to forget so that :func:`peak_of` stays within ``budget``
    with the least recompute time.

    Returns:
        frozenset of int or None: The indexes to forget, or None when no
        choice fits the budget.

    """
    extra, grads = _recompute_extra(blocks)
    rest = max(0, tail - grads)
    if release:
        kept_on_top = _released_extra(blocks, lambda i: False)
        found = _walk(
            blocks,
            set(range(len(blocks))),
            budget,
            budget,
            base,
            lambda i, forget: rest + (extra[i] if forget else kept_on_top[i]),
        )
        return None if found is None else found[1]
    best = None
    for bound in sorted({grads, *extra}):
        if bound < grads:
            continue
        allowed = {i for i in range(len(blocks)) if extra[i] <= bound}
        found = _walk(blocks, allowed, budget - rest - bound, budget, base)
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    return None if best is None else best[1]


def _walk(blocks, allowed, end_limit, budget, base, on_top=None):
    # The cheapest (seconds, forgotten) whose forward fits ``budget`` and
    # whose bytes kept at the end are at most ``end_limit``; or None.
    # ``on_top(i, forgotten)``: bytes that must fit in ``budget`` on top of
    # those kept by blocks 0..i (None: no such bound).
    if end_limit < 0:
        return None
    # Bytes are counted in units of 1/4096 of the budget, rounded up, so
    # that the states stay few; the rounding only overestimates.
    unit = max(1, budget // 4096)

    def units(n):
        return -(-n // unit)

    limit = budget // unit
    states = {units(base): (0.0, frozenset())}
    for i, block in enumerate(blocks):
        following = {}
        for prefix, (cost, chosen) in states.items():
            if prefix + units(block.peak) > limit:
                continue
            options = [(prefix + units(block.kept), cost, chosen, False)]
            if i in allowed:
                options.append(
                    (
                        prefix + units(block.out),
                        cost + block.seconds,
                        chosen | {i},
                        True,
                    )
                )
            for key, c, ch, forget in options:
                if on_top is not None and key + units(on_top(i, forget)) > limit:
                    continue
                if key not in following or c < following[key][0]:
                    following[key] = (c, ch)
        states = _pareto(following)
    fits = [pair for p, pair in states.items() if p <= end_limit // unit]
    if not fits:
        return None
    return min(fits, key=lambda pair: (pair[0], len(pair[1])))


def _pareto(states):
    # Keeps the states that no other beats in both bytes and time.
    kept, best = {}, math.inf
    for prefix in sorted(states):
        cost, chosen = states[prefix]
        if cost < best:
            kept[prefix] = (cost, chosen)
            best = cost
    return kept
