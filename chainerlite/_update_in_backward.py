"""The training step of an optimizer that updates during backward.

``GradientMethod.update(lossfun, ...)`` after
``use_update_in_backward()`` runs :func:`step`: each parameter is updated
as soon as its gradient is final in the backward pass (the engine tells,
see ``_core/ready.pyx``), and its gradient is then freed, so that the step
holds the gradients of a few layers at a time rather than all of them.
"""

from chainerlite import _core
from chainerlite import _read_only
from chainerlite.optimizer import _using_device
from chainerlite.optimizer_hooks import gradient_hard_clipping
from chainerlite.optimizer_hooks import gradient_lars
from chainerlite.optimizer_hooks import gradient_noise
from chainerlite.optimizer_hooks import lasso
from chainerlite.optimizer_hooks import weight_decay

# The optimizer hooks known to act on each parameter alone: a call reads and
# writes one parameter, its gradient and its rule, nothing else.
_PER_PARAMETER = (
    weight_decay.WeightDecay,
    lasso.Lasso,
    gradient_hard_clipping.GradientHardClipping,
    gradient_noise.GradientNoise,
    gradient_lars.GradientLARS,
)


def _acts_per_parameter(hook):
    if not getattr(hook, 'call_for_each_param', False):
        return False
    call = type(hook).__call__
    return any(
        isinstance(hook, known) and call is known.__call__ for known in _PER_PARAMETER
    )


def check(optimizer):
    """Raises RuntimeError where ``optimizer`` cannot update during
    backward: an optimizer hook not known to act on each parameter alone
    (GradientClipping, which needs every gradient at once, or any hook of
    one's own), or dynamic loss scaling (which looks at every gradient
    before it updates any)."""
    for timing in ('pre', 'post'):
        hooks = getattr(optimizer, '_{}_update_hooks'.format(timing)) or {}
        for name, hook in hooks.items():
            if not _acts_per_parameter(hook):
                raise RuntimeError(
                    'update in backward: the optimizer hook {!r} ({}) is not '
                    'known to act on each parameter alone, and the update of '
                    'a parameter during backward cannot wait for the other '
                    'gradients; remove the hook or turn the update in '
                    'backward off (only WeightDecay, Lasso, '
                    'GradientHardClipping, GradientNoise and GradientLARS '
                    'are taken)'.format(name, type(hook).__name__)
                )
    if optimizer._loss_scaling_is_dynamic:
        raise RuntimeError(
            'update in backward: dynamic loss scaling checks every gradient '
            'for an overflow before it updates any parameter; use a static '
            'scale (set_loss_scale) or turn the update in backward off'
        )


def step(optimizer, lossfun, args, kwds):
    """Computes the loss and updates the parameters during its backward.

    Returns False, having done nothing, where a parameter of the target is
    not initialized yet (the ordinary update then runs the step).
    Otherwise each parameter reached by the backward pass gets, once its
    gradient is final, the per-parameter optimizer hooks (in their order)
    and its rule's update, and its gradient is freed; the others then get
    zero gradients and the same, as the ordinary update does, after which
    ``optimizer.t`` counts the step and no parameter holds a gradient.
    """
    check(optimizer)
    target = optimizer.target
    params = list(target.params())
    if any(p.array is None for p in params):
        return False
    _read_only.check_all(optimizer, params, before_backward=True)
    times = {}  # a parameter under two paths is updated twice, as usual
    for p in params:
        times[id(p)] = times.get(id(p), 0) + 1
    pre = list(optimizer._pre_update_hooks.values())
    post = list(optimizer._post_update_hooks.values())
    handed = set()

    def on_ready(param):
        handed.add(id(param))
        _update(param, times[id(param)], pre, post)

    ready = _core.ReadyGrads(params, on_ready)
    previous = _core.set_ready_grads(ready)
    try:
        loss = lossfun(*args, **kwds)
        if getattr(optimizer, '_use_cleargrads', True):
            target.cleargrads()
        else:
            target.zerograds()
        ready.count_graph([loss])
        loss.backward(loss_scale=optimizer._loss_scale)
        del loss
    finally:
        _core.set_ready_grads(previous)
    rest = [p for p in params if id(p) not in handed]
    for p in rest:
        if p.grad is None:
            with _using_device(p.device):
                p.grad = p.xp.zeros_like(p.array)
    _call_each(pre, rest)
    optimizer.t += 1
    for p in rest:
        p.update()
    _call_each(post, rest)
    for p in rest:
        p.cleargrad()
    return True


def _update(param, times, pre, post):
    # the ordinary update's calls on one parameter, in their order
    rule = param.update_rule
    with _using_device(param.device):
        for hook in pre:
            for _ in range(times):
                hook(rule, param)
        for _ in range(times):
            param.update()
        for hook in post:
            for _ in range(times):
                hook(rule, param)
    param.cleargrad()


def _call_each(hooks, params):
    for hook in hooks:
        for p in params:
            with _using_device(p.device):
                hook(p.update_rule, p)
