"""Refusal of the parameters that an optimizer cannot write.

The update rules write the parameter's array, their state arrays and (to
undo a loss scale) the gradient in place. A NumPy array that is not
writeable (``flags.writeable`` off, the bytes behind ``numpy.frombuffer``,
a read-only ``numpy.load(..., mmap_mode='r')`` map) is refused before
anything is written, with an error that names the parameter. CuPy arrays
are always writeable.
"""

import numpy


def problem(rule, param, unscale=True):
    """What ``rule`` would write in ``param`` that is read-only, as words
    for the error (``'its array'``, ``"its state 'm'"``...), or None.
    ``unscale``: the gradient is divided by its loss scale, if it has
    one."""
    array = param.array
    if isinstance(array, numpy.ndarray) and not array.flags.writeable:
        return 'its array'
    if unscale and param._loss_scale is not None:
        grad = param.grad
        if isinstance(grad, numpy.ndarray) and not grad.flags.writeable:
            return 'its gradient (divided by the loss scale in place)'
    state = rule._state
    if state:
        for key, value in state.items():
            if isinstance(value, numpy.ndarray) and not value.flags.writeable:
                return 'its state {!r}'.format(key)
    return None


def error(owner, name, what):
    """The ValueError of ``owner`` (an optimizer or an update rule) that
    cannot update the parameter ``name`` because ``what`` is read-only."""
    return ValueError(
        '{}: cannot update parameter {!r}: {} is read-only (the update '
        'writes it in place; give the parameter a writeable array, e.g. '
        'numpy.array(...) of it)'.format(type(owner).__name__, name, what)
    )


def check(rule, param, unscale=True):
    """Raises :func:`error`, naming ``param`` by its name, where ``rule``
    would write a read-only array of it (see :func:`problem`)."""
    what = problem(rule, param, unscale)
    if what is not None:
        raise error(rule, param.name, what)


def check_all(optimizer, params, before_backward=False):
    """Raises :func:`error`, naming the parameter by its path in the
    optimizer's target link, where the update of any of ``params`` would
    write a read-only array. ``before_backward``: the gradients are not
    computed yet (an update during backward checks first), so every
    parameter with an array is checked, its gradient left out."""
    for param in params:
        rule = param.update_rule
        if rule is None or not rule.enabled:
            continue
        if param.array is None if before_backward else param.grad is None:
            continue
        what = problem(rule, param, unscale=not before_backward)
        if what is not None:
            path = next(
                name for name, p in optimizer.target.namedparams() if p is param
            )
            raise error(optimizer, path, what)
