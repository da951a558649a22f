"""Choosing which blocks of a model to run under ``F.forget`` so that a
training step fits a memory budget, with the least recompute time.

The planner profiles one step: for each block (a link the model calls once
per step: the children of a :class:`~chainerlite.Sequential`, a
:class:`~chainerlite.ChainList` or a :class:`~chainerlite.Chain`, or the
links given), the bytes it leaves alive until backward, the bytes of its
outputs, the highest memory while it runs and its forward time, counted on
the device of the model's parameters: with :mod:`tracemalloc` on the CPU,
with a memory hook on CuPy's pool (the bytes of the arrays it hands out) on
a GPU. A forgotten block keeps only its inputs and
outputs and runs its forward again during backward, up to the last node its
backward needs (``F.forget``'s recomputation stops there; the profile traces
each block as ``F.forget`` does to know that node, and predicts the recompute
time and memory up to it). A forgotten block whose inputs are the outputs of
the forgotten block before it (one that keeps nothing) can also be chained to
it (``F.forget``'s ``chain=True``): that input is then made again in backward
rather than kept, for one more forward of the block before
(:attr:`ForgetPlan.chained`).

The choice is a dynamic program over the chain of blocks (segment DP), not
Chen et al.'s sqrt(n) rule: sqrt(n) assumes blocks of equal size and cost,
and the blocks of real models differ (a ResNet's first stage holds four
times the activations of its last one per block, at a similar time), so a
uniform spacing either misses a budget or recomputes more than needed. The
DP walks the blocks in call order; its state is the bytes kept by the
blocks before the current one, its cost the recompute time; the memory
constraints at a block (its forward, and its recomputation during backward
on top of everything kept before it) depend only on that state, so keeping
the cheapest choice per state gives the least recompute time that fits,
under the model's estimate of memory. States are counted in units of
1/4096 of the budget (rounded up), so the DP stays small for any number of
blocks. An exact solver over the whole graph (Checkmate) is left out: it
would also cut inside blocks, which the link-level plan cannot apply.
"""

from chainerlite import configuration
from chainerlite import link as _link
from chainerlite.functions.util import forget_policy
from chainerlite.link_hooks import _forget_dp
from chainerlite.link_hooks import _forget_profile
from chainerlite.link_hooks import forget_hook


class ForgetPlan(object):
    """The blocks :func:`plan_forget` chose, with its predictions.

    Apply the plan with :meth:`apply` (or ``with plan:``), which adds a
    :class:`~chainerlite.link_hooks.ForgetHook` to each chosen block and,
    for a plan made with ``release=True``, sets ``chainerlite.config.
    retain_graph`` to False in the thread that applies it, so that the
    step's backward frees the graph as it goes (the plan's peak counts on
    it); :meth:`remove` takes them away and leaves the model and the
    configuration as they were.

    Attributes:
        budget (int): The budget, in bytes.
        release (bool): Whether the plan counts on the release of the graph
            during backward (and applies it).
        names (list of str): Paths of the forgotten blocks in the model
            (``'/blocks/0'``), in call order.
        links (list of ~chainerlite.Link): The forgotten blocks.
        keep: The ``keep`` policy the plan was made with (None: none).
        kept (list of str): Paths of the forgotten blocks that keep what
            ``keep`` picks (the others keep nothing), in call order.
        chained (list of str): Paths of the forgotten blocks chained to the
            block called before them (``F.forget``'s ``chain=True``: their
            input, that block's output, is computed again rather than kept),
            in call order.
        predicted_peak (int): Predicted peak bytes of a step with the plan,
            above the memory traced when the step starts.
        predicted_seconds (float): Predicted step time with the plan (the
            profiled step plus the recompute time of the forgotten blocks;
            under tracing, as :meth:`measure` times it).
        profiled_peak (int): Peak bytes of the profiled step (no forget;
            for a plan with ``release``, the graph released).
        profiled_seconds (float): Time of the profiled step.
        measured_peak (int or None): Peak bytes of the step :meth:`measure`
            ran, None before.
        measured_seconds (float or None): Its time.

    """

    def __init__(self, budget, names, links, predicted, profiled, release, keep, xp):
        self.budget = budget
        self._xp = xp  # the array module of the model's device, its meter
        self.release = release
        self.names = names
        self.links = links
        self.keep, self.kept, self.chained = keep
        self.predicted_peak, self.predicted_seconds = predicted
        self.profiled_peak, self.profiled_seconds = profiled
        self.measured_peak = self.measured_seconds = None
        self._hooks = []
        self._config = None  # the release's configuration context, applied

    def apply(self):
        """Adds a :class:`~chainerlite.link_hooks.ForgetHook` to each block
        of the plan (does nothing if the plan is applied already).

        Returns:
            ForgetPlan: The plan.

        """
        if self.release and self._config is None:
            self._config = configuration.using_config('retain_graph', False)
            self._config.__enter__()
        if not self._hooks:
            for name, link in zip(self.names, self.links):
                keep = self.keep if name in self.kept else None
                hook = forget_hook.ForgetHook(keep, chain=name in self.chained)
                link.add_hook(hook, name='ForgetPlan')
                self._hooks.append((link, hook))
        return self

    def remove(self):
        """Deletes the hooks :meth:`apply` added and restores
        ``config.retain_graph``."""
        while self._hooks:
            link, _ = self._hooks.pop()
            link.delete_hook('ForgetPlan')
        if self._config is not None:
            config, self._config = self._config, None
            config.__exit__(None, None, None)

    def __enter__(self):
        return self.apply()

    def __exit__(self, *exc_info):
        self.remove()
        return False

    def measure(self, step):
        """Runs ``step`` once with the plan applied, its memory counted on
        the device the plan was made for, as :func:`plan_forget` counts it.

        Returns:
            tuple: ``(peak bytes, seconds)``, also stored in
            :attr:`measured_peak` and :attr:`measured_seconds`.

        """
        applied = bool(self._hooks) or self._config is not None
        self.apply()
        try:
            found = _forget_profile.measure_step(step, self._xp)
        finally:
            if not applied:
                self.remove()
        self.measured_peak, self.measured_seconds = found
        return found

    def __repr__(self):
        return (
            '<ForgetPlan budget={:.1f}MiB forget={}{}{}{} predicted {:.1f}MiB '
            '{:.3f}s>'.format(
                self.budget / 2**20,
                self.names,
                ' keep={}'.format(self.kept) if self.kept else '',
                ' chained={}'.format(self.chained) if self.chained else '',
                ' release' if self.release else '',
                self.predicted_peak / 2**20,
                self.predicted_seconds,
            )
        )


def _check_budget(budget):
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(
            'plan_forget: budget must be a number of bytes, not {}'.format(
                type(budget).__name__
            )
        )
    if not budget > 0 or budget == float('inf'):
        raise ValueError(
            'plan_forget: budget must be a positive, finite number of bytes, '
            'not {!r}'.format(budget)
        )
    return int(budget)


def _children(link):
    # The model's children, a list of links that has no forward of its own
    # (a ChainList the model iterates) replaced by its children, in turn.
    for child in link.children():
        if isinstance(child, _link.ChainList) and not hasattr(child, 'forward'):
            yield from _children(child)
        else:
            yield child


def _blocks_of(model, blocks):
    if not isinstance(model, _link.Link):
        raise TypeError(
            'plan_forget: model must be a Link, not {}'.format(type(model).__name__)
        )
    links = list(_children(model)) if blocks is None else list(blocks)
    if not links:
        raise ValueError('plan_forget: there are no blocks to choose from')
    names = {id(link): name for name, link in model.namedlinks(skipself=True)}
    seen = set()
    for link in links:
        if not isinstance(link, _link.Link) or id(link) not in names:
            raise ValueError(
                'plan_forget: each block must be a link of the model, not {!r}'.format(
                    link
                )
            )
        if id(link) in seen:
            raise ValueError(
                'plan_forget: the block {} is given twice'.format(names[id(link)])
            )
        seen.add(id(link))
    return links, [names[id(link)] for link in links]


def plan_forget(
    model, step, budget, blocks=None, release=False, keep=None, update_in_backward=False
):
    """Profiles one step and chooses the blocks to forget to fit ``budget``.

    ``step`` is run once, its memory counted on the device of the model's
    parameters (a forward and backward pass of ``model``,
    and whatever else it does, such as an optimizer's update: run one step
    before planning, so that state created on the first step, like the
    optimizer's, is not counted). The blocks chosen are those whose
    recomputation costs the least time among the sets whose predicted peak
    fits the budget; see the module's notes for the algorithm. A budget at
    or above the step's peak gives an empty plan.

    Args:
        model (~chainerlite.Link): The model.
        step (callable): Runs one training step, with no arguments.
        budget (int or float): Peak bytes the step may allocate above the
            memory counted when it starts (parameters, data and the
            optimizer's state are not counted unless the step allocates
            them; on a GPU, the bytes of CuPy's pool in use).
        blocks (list of ~chainerlite.Link): The links the plan may forget,
            each called once per step, in any order. By default the model's
            children, where a :class:`~chainerlite.ChainList` that has no
            forward (a list the model iterates) stands for its children;
            those the step does not call are left out.
        release (bool): Plan for a step whose backward releases the graph
            as it goes (``retain_graph=False``, see
            :meth:`~chainerlite.Variable.backward`): each block's arrays are
            freed once its backward ran, so fewer blocks need forgetting
            for a budget and smaller budgets are reached. The plan applies
            the release with its hooks; the step must then backward through
            its graph once; the profiled step runs released too, and the
            plan predicts from what each block's backward held there.
        keep: A ``keep`` policy of :func:`F.forget
            <chainerlite.functions.forget>` (node classes, tag names or a
            callable on sites). The plan may then forget a block keeping
            the outputs the policy picks there (the profiled step measures
            their bytes and the recompute time keeping them saves): fewer
            bytes saved than forgetting all, less recompute time. For each
            block the plan chooses between running it, forgetting it and
            forgetting it with ``keep`` (:attr:`ForgetPlan.kept`). None:
            forget all or nothing.
        update_in_backward (bool): Plan for a step that updates each
            parameter during backward (``step`` calls
            ``optimizer.update(lossfun)`` with
            :meth:`~chainerlite.optimizer.GradientMethod.use_update_in_backward` on):
            the parameters' gradients are freed block by block rather than
            held until the update, so the plan does not count the gradients
            of the later blocks during a block's backward. With ``release``
            the profiled backward measures what each block holds (its own
            gradients included); without it those are left out.

    Returns:
        ForgetPlan: The plan (not applied yet).

    Raises:
        TypeError: If ``budget`` is not a number or ``model`` not a link.
        ValueError: If ``budget`` is not positive and finite, if no choice
            of blocks fits it (the message gives the smallest predicted
            peak), or if a block is not a link of the model, given twice,
            called more than once, or given and not called by the step.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> from chainerlite.link_hooks import plan_forget
        >>> model = chainer.Sequential(
        ...     *[chainer.Sequential(chainer.links.Linear(64, 64), F.tanh,
        ...                          chainer.links.Linear(64, 64), F.tanh)
        ...       for _ in range(8)])
        >>> x = np.ones((2048, 64), np.float32)
        >>> def step():
        ...     model.cleargrads()
        ...     F.sum(model(x)).backward()
        >>> step()
        >>> free = plan_forget(model, step, budget=2**30)
        >>> free.names
        []
        >>> plan = plan_forget(model, step, budget=free.profiled_peak * 0.8)
        >>> len(plan.names) > 0, plan.predicted_peak <= plan.budget
        (True, True)
        >>> peak, seconds = plan.measure(step)
        >>> bool(peak < free.profiled_peak)
        True

    """
    budget = _check_budget(budget)
    try:
        policy = forget_policy.as_policy(keep)
    except TypeError as e:
        raise TypeError('plan_forget: {}'.format(e)) from None
    links, names = _blocks_of(model, blocks)
    with configuration.using_config('retain_graph', True):
        profiled = _forget_profile.profile(
            step,
            links,
            required=blocks is not None,
            policy=policy,
            xp=model.xp,
            release=release,
            grads_held=not update_in_backward,
        )
    found, order, base, tail, finish, peak, seconds = profiled
    chosen = _forget_dp.choose(found, budget, base, tail, release, finish)
    if chosen is None:
        lowest = _forget_dp.lowest_peak(found, base, tail, release, finish)
        raise ValueError(
            'plan_forget: no choice of blocks fits a budget of {:.2f} MiB; '
            'forgetting every block (chained where it can be) is predicted to '
            'peak at {:.2f} MiB'.format(budget / 2**20, lowest / 2**20)
        )
    forgotten, partial, chained = chosen
    indexes = sorted(forgotten)
    predicted = (
        _forget_dp.peak_of(
            found, forgotten, base, tail, release, partial, finish, chained
        ),
        seconds + _forget_dp.recompute_seconds(found, forgotten, partial, chained),
    )
    return ForgetPlan(
        budget,
        [names[order[i]] for i in indexes],
        [links[order[i]] for i in indexes],
        predicted,
        (peak, seconds),
        release,
        (
            keep,
            [names[order[i]] for i in indexes if i in partial],
            [names[order[i]] for i in indexes if i in chained],
        ),
        model.xp,
    )
