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
block ``i`` costs ``seconds[i]``: its forward runs again up to the last
node its backward needs (``F.forget``'s recomputation stops there; the
profile traces the block as ``F.forget`` does to find that node).

A third choice, where the plan has a ``keep`` policy: forgetting the block
but keeping the outputs the policy picks (``saved[i]`` bytes, whose nodes'
forward took ``saved_seconds[i]``): the block then keeps ``out[i] +
saved[i]`` bytes (at most ``kept[i]``), its recomputation costs
``seconds[i] - saved_seconds[i]``, and the recomputed graph adds
``saved[i]`` bytes less (the kept outputs rejoin it).

A fourth choice, where a block's inputs are the outputs of the block
called before it (``chainable[i]``) and that block is forgotten (keeping
nothing, not chained itself): chaining it to that block (``F.forget``'s
``chain=True``). Its input is then not kept: the block before keeps
``out[i - 1]`` bytes less, and during the block's backward its input is
made again by that block's whole forward without a graph (``forward[i -
1]`` seconds more; at the highest ``peak[i - 1]`` bytes, the input
counted again). The DP's state then also says whether the last block can
be chained to.

The peak during backward is then the bytes kept by the forward pass plus
the largest of (all the gradients) and (for each forgotten block, its graph
plus the gradients present when it is recomputed). For each bound on that
largest term, the DP walks the blocks in call order with the bytes kept so
far as its state and the recompute time as its cost, allowing only the
choices whose recomputation stays under the bound; each block's forward
constraint depends only on the state, so the cheapest choice per state is
enough (a state with more bytes and more time than another is dropped).

When the step releases the graph as backward goes (``retain_graph=False``),
the profile is a released step, and the plan follows what the engine frees
there. What a block kept is freed as its backward runs; an output is freed
when its creator comes up, so the outputs a forgotten block kept (its
``forget`` node's) are gone before the block runs again. While block
``i``'s backward runs, the bytes kept by blocks ``0..i-1`` are alive, with
the gradients of the parameters of blocks ``i+1..`` and the block's own
hump, ``back[i]`` bytes at the highest (measured: its graph going as its
gradients come, the gradients flowing through it, its parameters'); a
forgotten block has the same hump (its graph is recomputed whole) or, if
higher, its recomputed forward (``rerun_peak[i]`` bytes at the highest,
up to the node where the recomputation stops) plus the gradient of its
outputs; where the block has one input and one output (``handed``), the
engine hands that gradient to the recomputed pass, which frees it once
used (the hump counts it), else the ``forget`` node holds it until its
backward returns, on top of the hump too. Before the
blocks' backward, the step adds ``tail`` bytes at the worst above what the
blocks keep (the loss, its graph and backward); after it, the step is at
``finish`` bytes at the worst whatever was forgotten (the graph is gone: the
gradients, an optimizer's update). These bounds involve only the state
before or after block ``i``, so one walk checks them block by block.
"""

import dataclasses
import math


@dataclasses.dataclass(frozen=True)
class Block:
    """What the profile says of one block (bytes and seconds; see the
    module's notes). ``seconds`` is the time of its recomputation when it
    is forgotten, ``rerun_peak`` the recomputation's highest memory (None:
    ``peak``, the whole forward's)."""

    kept: int
    out: int
    peak: int
    grads: int
    seconds: float
    saved: int = 0
    saved_seconds: float = 0.0
    back: int = 0  # the released backward's hump (see the module's notes)
    rerun_peak: int | None = None
    forward: float = 0.0  # seconds of the whole forward
    chainable: bool = False  # its inputs are the outputs of the block before
    # forgotten, one input and one output: the engine hands the output's
    # gradient to F.forget's recomputed pass, which frees it once used
    handed: bool = False

    @property
    def rerun(self):
        """The highest memory of the block's recomputation."""
        return self.peak if self.rerun_peak is None else self.rerun_peak


def _recompute_extra(blocks):
    # For each block: its graph, the gradient of its outputs that its
    # backward receives, and the parameters' gradients present when it is
    # recomputed (its own and those of the blocks after it).
    extra, grads = [0] * len(blocks), 0
    for i in reversed(range(len(blocks))):
        grads += blocks[i].grads
        extra[i] = grads + blocks[i].kept + blocks[i].out
    return extra, grads


# The choices for a block: run it as it is, forget it, forget it keeping
# what the plan's policy picks, forget it chained to the block before it
# (forgotten itself, not chained): its input, that block's output, is not
# kept but computed again from that block's input (F.forget's chain=True).
RUN, FORGET, PARTIAL, CHAIN = 0, 1, 2, 3
# the choices a block can chain to (one that keeps outputs may keep the
# very one a chained block would free)
_PRODUCERS = (FORGET,)


def _options(blocks, i, extra):
    # (choice, bytes kept, recompute seconds, what its recomputation adds on
    # top of the kept bytes (None: none)) for each choice of block ``i``
    block = blocks[i]
    found = [(RUN, block.kept, 0.0, None), (FORGET, block.out, block.seconds, extra)]
    if block.saved > 0:
        kept = min(block.kept, block.out + block.saved)
        seconds = max(0.0, block.seconds - block.saved_seconds)
        found.append((PARTIAL, kept, seconds, extra - block.saved))
    if block.chainable and i > 0:
        before = blocks[i - 1]
        found.append(
            (
                CHAIN,
                block.out - before.out,  # the block before keeps its input only
                block.seconds + before.forward,
                extra + before.out,
            )
        )
    return found


def _option(blocks, i, choice, extra=0):
    return next(o for o in _options(blocks, i, extra) if o[0] == choice)


def _choices(blocks, forgotten, keep, chained):
    # the choice of each block (keeping nothing forgets all)
    found = []
    for i, block in enumerate(blocks):
        if i not in forgotten:
            found.append(RUN)
        elif i in chained:
            if not (block.chainable and i > 0 and found[i - 1] in _PRODUCERS):
                raise ValueError(
                    'block {} cannot be chained to the block before it'.format(i)
                )
            found.append(CHAIN)
        else:
            found.append(PARTIAL if i in keep and block.saved > 0 else FORGET)
    return found


def recompute_seconds(blocks, forgotten, keep=frozenset(), chained=frozenset()):
    """The recompute time of the blocks in ``forgotten`` (those in ``keep``
    keeping what the plan's policy picks, those in ``chained`` chained to
    the block before them)."""
    choices = _choices(blocks, forgotten, keep, chained)
    return sum(_option(blocks, i, c)[2] for i, c in enumerate(choices))


def peak_of(
    blocks,
    forgotten,
    base,
    tail,
    release=False,
    keep=frozenset(),
    finish=0,
    chained=frozenset(),
):
    """The predicted peak of a step in which the blocks whose indexes are in
    ``forgotten`` run under ``F.forget``.

    Args:
        blocks (list of Block): The chain, in call order.
        forgotten (set of int): Indexes of the forgotten blocks.
        base (int): Bytes allocated by the step before the first block.
        tail (int): What the step adds at its worst after the last block
            (the loss, backward's gradients).
        release (bool): Whether backward releases the graph as it goes.
        keep (set of int): The forgotten blocks that keep what the plan's
            policy picks.
        finish (int): With ``release``, the step's worst after the blocks'
            backward.
        chained (set of int): The forgotten blocks chained to the block
            before them (which must be forgotten, not chained).

    """
    choices = _choices(blocks, forgotten, keep, chained)
    if release:
        return _released_peak(blocks, choices, base, tail, finish)
    extra, grads = _recompute_extra(blocks)
    rest = max(0, tail - grads)
    prefix, worst, largest = base, base, grads
    for i, choice in enumerate(choices):
        worst = max(worst, prefix + blocks[i].peak)
        _, kept, _, on_top = _option(blocks, i, choice, extra[i])
        prefix += kept
        if on_top is not None:
            largest = max(largest, on_top)
    return max(worst, prefix + rest + largest)


def lowest_peak(blocks, base, tail, release=False, finish=0):
    """The predicted peak with every block forgotten, without chains or
    with each chainable block chained to the one before it where that one
    is not chained (whichever is lower): what a budget must allow."""
    every = set(range(len(blocks)))
    chained = set()
    for i in range(1, len(blocks)):
        if blocks[i].chainable and i - 1 not in chained:
            chained.add(i)
    return min(
        peak_of(blocks, every, base, tail, release, finish=finish, chained=c)
        for c in (frozenset(), chained)
    )


def _released_bounds(blocks):
    # For each block and choice, what its backward needs on top of the
    # bytes kept by the blocks before it: run as it is, forgotten (with the
    # gradients of the parameters of the blocks after it); chained, the
    # block before it runs again without a graph first (its input, counted
    # in the bytes before it, is made again).
    bounds, later = [None] * len(blocks), 0
    for i in reversed(range(len(blocks))):
        block = blocks[i]
        rerun = block.rerun
        if i > 0:  # chained, the block before runs first
            rerun = max(rerun, blocks[i - 1].peak)
        if block.handed:  # the output's gradient is in the hump once used
            forgotten = later + max(block.back, block.rerun + block.out)
            chained = later + max(block.back, rerun + block.out)
        else:
            forgotten = later + max(block.back, block.rerun) + block.out
            chained = later + max(block.back, rerun) + block.out
        bounds[i] = {
            RUN: later + block.back,
            FORGET: forgotten,
            PARTIAL: forgotten,
            CHAIN: chained,
        }
        later += block.grads
    return bounds


def _released_peak(blocks, choices, base, tail, finish):
    bounds = _released_bounds(blocks)
    prefix, worst = base, max(base, finish)
    for i, choice in enumerate(choices):
        worst = max(worst, prefix + blocks[i].peak, prefix + bounds[i][choice])
        prefix += _option(blocks, i, choice)[1]
    return max(worst, prefix + tail)


def choose(blocks, budget, base, tail, release=False, finish=0):
    """The blocks to forget so that :func:`peak_of` stays within ``budget``
    with the least recompute time.

    Returns:
        tuple or None: ``(forgotten, keep, chained)``, frozensets of the
        indexes to forget, of those among them that keep what the policy
        picks (only blocks with ``saved`` bytes) and of those chained to
        the block before them (only ``chainable`` blocks); or None when no
        choice fits the budget.

    """
    extra, grads = _recompute_extra(blocks)
    rest = max(0, tail - grads)
    options = [_options(blocks, i, extra[i]) for i in range(len(blocks))]
    if release:
        if finish > budget:
            return None
        bounds = _released_bounds(blocks)

        def released(i, option):
            # on top of the bytes kept by blocks 0..i
            return bounds[i][option[0]] - option[1]

        found = _walk(blocks, options, budget - tail, budget, base, released)
        return None if found is None else found[:3]
    best = None
    bounds = {o[3] for found in options for o in found if o[3] is not None}
    for bound in sorted({grads} | bounds):
        if bound < grads:
            continue
        allowed = [
            [o for o in found if o[3] is None or o[3] <= bound] for found in options
        ]
        found = _walk(blocks, allowed, budget - rest - bound, budget, base)
        if found is not None and (best is None or found[3] < best[3]):
            best = found
    return None if best is None else best[:3]


def _walk(blocks, options, end_limit, budget, base, on_top=None):
    # The cheapest (forgotten, keep, chained, seconds) whose forward fits
    # ``budget`` and whose bytes kept at the end are at most ``end_limit``;
    # or None. ``options[i]``: the choices allowed for block i (see
    # _options); ``on_top(i, option)``: bytes that must fit in ``budget``
    # on top of those kept by blocks 0..i (None: no such bound). A state is
    # the bytes kept so far and whether the last block can be chained to.
    if end_limit < 0:
        return None
    # Bytes are counted in units of 1/4096 of the budget, rounded up, so
    # that the states stay few; the rounding only overestimates.
    unit = max(1, budget // 4096)

    def units(n):
        return -(-n // unit)

    limit = budget // unit
    empty = frozenset()
    states = {(units(base), False): (0.0, empty, empty, empty)}
    for i, block in enumerate(blocks):
        following = {}
        for (prefix, producer), entry in states.items():
            if prefix + units(block.peak) > limit:
                continue
            cost, forgotten, keep, chained = entry
            for option in options[i]:
                choice, kept, seconds, _ = option
                if choice == CHAIN and not producer:
                    continue
                key = (prefix + units(kept), choice in _PRODUCERS)
                if on_top is not None and key[0] + units(on_top(i, option)) > limit:
                    continue
                c = cost + seconds
                if key not in following or c < following[key][0]:
                    following[key] = (
                        c,
                        forgotten | {i} if choice != RUN else forgotten,
                        keep | {i} if choice == PARTIAL else keep,
                        chained | {i} if choice == CHAIN else chained,
                    )
        states = _pareto(following)
    fits = [entry for (p, _), entry in states.items() if p <= end_limit // unit]
    if not fits:
        return None
    cost, forgotten, keep, chained = min(
        fits, key=lambda e: (e[0], len(e[1]), len(e[2]), len(e[3]))
    )
    return forgotten, keep, chained, cost


def _pareto(states):
    # Keeps the states that no other with the same producer flag beats in
    # both bytes and time.
    kept, best = {}, {False: math.inf, True: math.inf}
    for key in sorted(states):
        entry = states[key]
        if entry[0] < best[key[1]]:
            kept[key] = entry
            best[key[1]] = entry[0]
    return kept
