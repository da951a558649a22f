"""One backward step of a function node, on Python-level gradient lists.

The compiled backprop (``chainerlite._core.backprop``) does this itself;
these helpers run the same step for code that walks a graph in Python:
``grad_inputs`` maps each input node to the list of gradients gathered for
it so far.
"""

from chainerlite import _core
from chainerlite import variable
from chainerlite.backends import cuda


def _reduce(grad_list):
    """Returns the sum of a list of gradient Variables (None if empty)."""
    if not grad_list:
        return None
    total = grad_list[0]
    for g in grad_list[1:]:
        total = total + g
    return total


def _as_grad_variable(g):
    if g is None or isinstance(g, variable.Variable):
        return g
    return variable.Variable(g, requires_grad=False)


def _check_nan(func, gxs):
    for gx in gxs:
        if gx is None:
            continue
        xp = cuda.get_array_module(gx.array)
        if xp.isnan(gx.array).any():
            raise RuntimeError(
                'NaN is detected on backward computation of {}'.format(func.label)
            )


def _overrides_backward_accumulate(func):
    return type(func).backward_accumulate is not _core.FunctionNode.backward_accumulate


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs, is_debug):
    """Runs the backward of ``func`` and gathers the input gradients.

    Args:
        func (~chainerlite.FunctionNode): The node.
        target_input_indexes (tuple of int): The inputs whose gradients are
            needed (in increasing order).
        grad_outputs (tuple): The gradients of the outputs (arrays or
            Variables, None for an output without one).
        grad_inputs (dict): Maps each input node of ``func`` to the list of
            its gradients so far; the lists are updated in place. With
            ``config.lazy_grad_sum`` the new gradient is appended, otherwise
            the list is left holding one summed gradient.
        is_debug (bool): Whether to raise RuntimeError for a NaN in a
            computed gradient.

    Raises:
        ValueError: If the backward returns a wrong number of gradients.
        RuntimeError: In debug mode, for a NaN gradient.

    """
    grad_outputs = tuple(_as_grad_variable(g) for g in grad_outputs)
    inputs = func.inputs
    targets = [inputs[i] for i in target_input_indexes]
    if _overrides_backward_accumulate(func):
        # Only the first position of a node given several times gets its
        # gradient so far.
        seen = set()
        current = []
        for x in targets:
            current.append(None if x in seen else _reduce(grad_inputs[x]))
            seen.add(x)
        gxs = tuple(
            func.backward_accumulate(
                tuple(target_input_indexes), grad_outputs, tuple(current)
            )
        )
        if is_debug:
            _check_nan(func, gxs)
        for x, prev, gx in zip(targets, current, gxs):
            if gx is not None:
                grad_inputs[x][:] = [gx]
            elif prev is not None:
                grad_inputs[x][:] = [prev]
        return
    gxs = tuple(func.backward(tuple(target_input_indexes), grad_outputs))
    if len(gxs) == len(inputs) != len(targets):
        gxs = tuple(gxs[i] for i in target_input_indexes)
    elif len(gxs) != len(targets):
        raise ValueError(
            'number of gradients returned by {} ({}) is incorrect: {} expected'.format(
                func.label, len(gxs), len(targets)
            )
        )
    if is_debug:
        _check_nan(func, gxs)
    lazy = _core.config.lazy_grad_sum
    for x, gx in zip(targets, gxs):
        if gx is None:
            continue
        grads = grad_inputs[x]
        grads.append(gx)
        if not lazy and len(grads) > 1:
            grads[:] = [_reduce(grads)]
