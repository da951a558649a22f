"""Calling a function without keeping its intermediate results."""

import chainerlite
from chainerlite import _core
from chainerlite import function
from chainerlite import function_node
from chainerlite import variable
from chainerlite.functions.math import identity
from chainerlite.functions.util import forget_policy
from chainerlite.functions.util import forget_replay
from chainerlite.functions.util import forget_skip
from chainerlite.functions.util import forget_trace
from chainerlite.utils import random_state


def _ordinal(n):
    if 11 <= n % 100 <= 13:
        suffix = 'th'
    else:
        suffix = {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return '{}{}'.format(n, suffix)


def _type_name(obj):
    cls = type(obj)
    if cls.__module__ == 'builtins':
        return cls.__qualname__
    return '{}.{}'.format(cls.__module__, cls.__qualname__)


def _call_func(func, xs):
    outs = func(*xs)
    if isinstance(outs, variable.Variable):
        return (outs,)
    if not isinstance(outs, tuple):  # a list too is refused, as in Chainer
        raise RuntimeError(
            'A tuple of Variables or a Variable are expected, but {} is '
            'returned.'.format(_type_name(outs))
        )
    for i, out in enumerate(outs):
        if not isinstance(out, variable.Variable):
            raise RuntimeError(
                '{} element of a returned tuple is not Variable, but is {}'.format(
                    _ordinal(i + 1), _type_name(out)
                )
            )
    return tuple(outs)


def _graph_roots(outs, grad_outputs):
    # The nodes of the recomputed outputs that receive a gradient, and
    # their gradients' arrays, taken out of the variables the engine handed
    # over (a raw pass holds an output gradient only there): backward
    # starts from the nodes, not from their variables, so that an output's
    # array is held only by the node that retained it (if any), which frees
    # it once its backward ran; and the recomputed pass holds each gradient
    # alone, which frees it once the node it reaches took it, as PyTorch's
    # engine does (the last block's, whose input needs no gradient, goes
    # after the block's last layer).
    nodes, grads = [], []
    for out, gy in zip(outs, grad_outputs):
        if gy is not None:
            nodes.append(out.node)
            grads.append(gy.array)
            gy.array = None
    return nodes, grads


class Forget(function_node.FunctionNode):
    """Runs a function without a graph, recomputing it on backward.

    Its first-order backward takes the arrays out of the output gradients'
    variables it is given (a backward pass makes them for the call and
    holds the gradients nowhere else), so that the recomputed pass frees
    each gradient once the node it reaches has used it.

    Args:
        func (callable): The function to call; it takes variables and
            returns a variable or a tuple of variables.
        keep: What to keep of ``func``'s intermediate results (see
            :func:`forget`).

    """

    def __init__(self, func, keep=None):
        if not callable(func):
            raise TypeError('func must be callable')
        self.func = func
        self._policy = forget_policy.as_policy(keep)
        self._steps = None  # the nodes of the forward call (forget_trace)
        self._skipped = frozenset()  # those the recomputation passes over
        self._returned = []  # those that made returned arrays (forget_skip)
        # inputs that forget() wrapped from arrays: no one can read their
        # gradients, so a raw backward does not compute them
        self._wrapped = frozenset()
        # inputs that another Forget node computed and that this one does not
        # keep (forget(..., chain=True)): backward computes them again
        self._chained = frozenset()

    def forward(self, inputs):
        self.retain_inputs(
            tuple(i for i in range(len(inputs)) if i not in self._chained)
        )
        with function.no_backprop_mode(), random_state.recording() as self._draws:
            xs = [variable.Variable(x) for x in inputs]
            # in a step that updates parameters during backward, the
            # recomputed nodes count among the uses of those they read
            uses = _core.recording_ready_grads()
            with (
                forget_replay.enclosing_hidden(),
                forget_trace.Trace(inputs, self._policy, self._draws, uses) as trace,
            ):
                outs = _call_func(self.func, xs)
        self._n_outputs = len(outs)
        if not trace.complete:
            # the function cleared the function hooks: the trace missed
            # nodes, so the recomputation runs every node again
            return tuple(out.array for out in outs)
        # the nodes that made the returned arrays are planned as kept (the
        # arrays live on while the graph after this node reads them), and
        # then held weakly until backward (forget_skip.returned)
        self._returned = picked = forget_skip.returned(
            trace.steps, trace.source, [out.array for out in outs]
        )
        forget_skip.set_returned(
            trace.steps, picked, [tuple(r() for r in refs) for _, refs in picked]
        )
        self._skipped = skipped = forget_skip.plan(trace.steps)
        # what the recomputation reads: the nodes it substitutes, and those
        # it checks (from the first one passed over)
        first = min(skipped) if skipped else len(trace.steps)
        steps = [
            step if i >= first or step.outputs is not None else None
            for i, step in enumerate(trace.steps)
        ]
        for i, step in enumerate(steps):
            if step is not None and step.outputs is None and i not in skipped:
                step.node = None  # runs again: its state is not needed
        forget_skip.set_returned(trace.steps, picked, None)
        if any(step is not None for step in steps):
            self._steps = steps
        return tuple(out.array for out in outs)

    def backward(self, indexes, grad_outputs):
        if chainerlite.config.enable_backprop:
            return self._backward_with_graph(indexes, grad_outputs)
        wanted = set(indexes) - self._wrapped
        xs = [
            variable.Variable(x, requires_grad=i in wanted)
            for i, x in enumerate(self._inputs_again(False))
        ]
        nodes, grads = _graph_roots(self._recompute(xs), grad_outputs)
        # The recomputed graph serves this backward only: each of its nodes
        # frees what it retained once its backward ran.
        _core.backprop(
            nodes,
            grads,
            False,  # retain_grad
            False,  # enable_double_backprop
            None,  # loss_scale
            retain_graph=False,
            handed=True,
        )
        return tuple(xs[i].grad_var if i in wanted else None for i in indexes)

    def _inputs_again(self, graph):
        # The inputs: those kept, and the chained ones computed again by the
        # Forget node that made them; as arrays, or (``graph``) as variables
        # of the graph, a chained one's array set on its node again.
        kept = self.get_retained_inputs()
        if not self._chained:
            return kept if graph else [x.array for x in kept]
        kept = iter(kept)
        found = []
        for i, node in enumerate(self.inputs):
            if i not in self._chained:
                x = next(kept)
                found.append(x if graph else x.array)
                continue
            maker = node.creator
            array = maker._output_again([ref() for ref in maker.outputs].index(node))
            if graph:
                node.data = array
                array = node.get_variable()
            found.append(array)
        return found

    def _output_again(self, index):
        # The output ``index`` of the function, called again on the kept
        # inputs without a graph (for a chained Forget node that did not
        # keep it), its random draws replayed.
        with (
            function.no_backprop_mode(),
            chainerlite.using_config('in_recomputing', True),
            random_state.replaying(self._draws),
        ):
            xs = [variable.Variable(x.array) for x in self.get_retained_inputs()]
            return self._call_again(xs)[index].array

    def _call_again(self, xs):
        # ``func`` called again must give as many outputs as in forward: the
        # gradients of the others would be dropped (Chainer asserts it too)
        outs = _call_func(self.func, xs)
        if len(outs) != self._n_outputs:
            raise AssertionError(
                'F.forget: the function returned {} outputs when recomputed, '
                'but {} in its forward call'.format(len(outs), self._n_outputs)
            )
        return outs

    def _recompute(self, xs):
        # Used once: a node of the forward call joins the recomputed graph,
        # and held here it would hold that graph after its backward. A
        # later backward recomputes everything, from the same draws.
        steps, self._steps = self._steps, None
        skipped = self._skipped
        picked, self._returned = self._returned, []
        if steps is not None and not forget_skip.restore(steps, picked):
            skipped, picked = frozenset(), []  # a returned array died
        while True:
            if not skipped and all(
                step is None or step.outputs is None for step in steps or ()
            ):
                steps = None  # nothing to substitute: no hook
            with (
                function.force_backprop_mode(),
                chainerlite.using_config('in_recomputing', True),
                random_state.replaying(self._draws),
            ):
                if steps is None:
                    return self._call_again(xs)
                inputs = [x.array for x in xs]
                try:
                    returned = frozenset(index for index, _ in picked)
                    with forget_replay.Replayer(
                        steps, skipped, inputs, returned
                    ) as replayer:
                        outs = self._call_again(xs)
                    replayer.check_complete()
                    return outs
                except forget_replay.Diverged:
                    pass
            # the function applied other nodes or arrays than in its
            # forward call: run every node again (reusing what keep kept)
            skipped = frozenset()
            forget_skip.set_returned(steps, picked, None)
            if replayer.removed:
                steps = None  # the function clears the hooks: none again

    def _backward_with_graph(self, indexes, grad_outputs):
        # Double backprop: the recomputed graph hangs from the inputs of this
        # node and the returned gradients from it and from grad_outputs, so a
        # later backward differentiates through both. Each input goes
        # through an identity of its own, so that the gradient of one input
        # is never passed on to another input computed from it.
        xs = [
            identity.identity(x) if x.requires_grad else x
            for x in self._inputs_again(True)
        ]
        outs = self._recompute(xs)
        pairs = [(out, gy) for out, gy in zip(outs, grad_outputs) if gy is not None]
        targets = [xs[i] for i in indexes]
        gxs = chainerlite.grad(
            [out for out, _ in pairs],
            targets,
            [gy for _, gy in pairs],
            enable_double_backprop=True,
        )
        return tuple(gxs)


def forget(func, *xs, keep=None, chain=False):
    """Calls a function without storing its intermediate results.

    During forward propagation every function records its inputs and
    outputs on the computational graph, because backward propagation needs
    them; with a large graph this takes much memory. ``forget`` calls
    ``func`` without building a graph, so the intermediate values inside it
    are dropped at once, and calls ``func`` again during backward
    propagation to rebuild the graph it needs. This trades computation time
    (``func`` runs twice) for memory.

    ``func`` must give the same results each time it is called with the
    same inputs. Random draws are the exception that is handled: each draw
    made in the first call (by ``F.dropout``, ``F.gaussian``, or anything
    else that draws through chainerlite) leaves a key of constant size
    (never the drawn array), and the recomputation draws from those keys,
    so it gets the same mask and the gradients are exact (Chainer does not
    support this case). This holds in every thread when several threads
    use ``forget`` at once, and for a ``forget`` nested in another. On
    NumPy arrays the draws are also those a call without ``forget`` would
    make, and the recomputation leaves ``numpy.random`` untouched; CuPy
    cannot export its generator's state, so on CuPy arrays each draw comes
    from a generator seeded from ``cupy.random``'s and the mask differs
    from a call without ``forget`` (it still matches between the two runs).
    While it is recomputed, ``chainerlite.config.in_recomputing`` is
    ``True``, so links such as BatchNormalization can avoid updating their
    statistics twice.

    Double backpropagation through ``forget`` is supported (Chainer raises
    instead): with ``enable_double_backprop=True`` the recomputation builds
    its graph from the inputs of ``forget``, and the gradients it returns
    hang from that graph and from the output gradients, so that they can be
    differentiated again, random draws replayed as well. Without it the
    recomputed graph is released as soon as its gradients are taken.

    ``keep`` chooses intermediate results to keep all the same (Chainer's
    ``forget`` keeps none): on backward the nodes it picks are not run
    again, their kept outputs take their place in the recomputed graph.
    See ``docs/guide/forget.rst``.

    ``chain=True`` keeps less still (Chainer has no such option): an input
    that another ``forget`` returned, one that keeps its own inputs, is not
    kept either. Backward computes it again from that ``forget``'s inputs
    (its function runs once more, without a graph, its random draws
    replayed) before recomputing ``func``. Two forgets in a row then keep
    only the first one's inputs: a stem of several layers can be forgotten
    as one piece by forgetting its layers one by one.

    Args:
        func (callable): A function that takes variables and returns a
            :class:`~chainerlite.Variable` or a tuple of them.
        *xs (Variable or numpy.ndarray or cupy.ndarray): The arguments of
            ``func``. Arrays are wrapped in variables that require
            gradients, so that ``forget`` always joins the graph.
        keep: What to keep (keyword only): None (nothing), a
            :class:`~chainerlite.FunctionNode` subclass (the outputs of
            its nodes), a tag name (the outputs of the nodes applied in
            ``with chainerlite.forget_tag(name):``), a tuple, list or set
            of those, or a callable taking a
            :class:`~chainerlite.functions.util.forget_policy.Site` and
            returning whether to keep that node's outputs.
        chain (bool): Keyword only. Whether inputs made by another
            ``forget`` (that keeps its inputs) are computed again rather
            than kept.

    Returns:
        Variable or tuple of Variable: What ``func`` returns: a variable, or
        a tuple of variables when ``func`` returns a tuple.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> def f(a, b):
        ...     return (a + b) * a
        >>> x = chainer.Variable(np.array([1., 2.], np.float32))
        >>> y = chainer.Variable(np.array([3., 4.], np.float32))
        >>> z = F.forget(f, x, y)
        >>> z.array
        array([ 4., 12.], dtype=float32)
        >>> z.grad = np.ones(2, np.float32)
        >>> z.backward()
        >>> x.grad
        array([5., 8.], dtype=float32)
        >>> y.grad
        array([1., 2.], dtype=float32)

    """
    wrapped = tuple(
        x
        if isinstance(x, variable.Variable)
        else variable.Variable(x, requires_grad=True)
        for x in xs
    )
    node = Forget(func, keep)
    node._wrapped = frozenset(i for i, x in enumerate(xs) if x is not wrapped[i])
    if chain:
        node._chained = frozenset(
            i
            for i, x in enumerate(wrapped)
            if isinstance(x.creator, Forget) and not x.creator._chained
        )
    outs = node.apply(wrapped)
    if len(outs) == 1:
        return outs[0]
    return outs
