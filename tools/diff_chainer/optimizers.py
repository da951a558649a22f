"""Runner for ``chainer.optimizers`` and ``chainer.optimizer_hooks``: the
same model and data, N update steps, then the parameters, each update
rule's state and hyperparameters, and the serialized optimizer."""

import inspect

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import compare
from tools.diff_chainer import pair
from tools.diff_chainer import references
from tools.diff_chainer import strategies as S

# Hooks that draw random numbers: the generators differ.
RANDOM_HOOKS = {'GradientNoise': 'adds random noise; the generators differ'}
# Optimizers whose answer in float16 and float32 Chainer computes from
# rounding noise, so that Chainer on the same case in float64 is the
# reference (see ``in_float64``). MSVAG: at the first step Chainer caps
# rho, which is 1 there, at 0.9999 and divides vt - mt ** 2 (0 in exact
# arithmetic: one sample has no variance) by 1 - rho, so the rounding of
# that difference, times 1e4, moves the step factor (by about 1e-3 in
# float32; in float16 it is noise and some entries do not move).
ROUNDING_NOISE = frozenset({'MSVAG'})


def defaults(cls):
    """``{name: default}`` of the constructor's parameters with defaults
    that are plain numbers or booleans."""
    out = {}
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.default is not p.empty and isinstance(p.default, (int, float)):
            out[p.name] = p.default
    return out


@st.composite
def hyper(draw, cls):
    """Some of ``cls``'s numeric parameters set to other values."""
    return {
        name: draw(S.scalar_near(default))
        for name, default in defaults(cls).items()
        if draw(st.booleans())
    }


def training(make_optimizer, seed, dtype, steps, make_hook=None, compute=None):
    """Stages: set up a Linear(3, 2) with the same parameters, ``steps``
    updates on the same data, then parameters, states and serialization.
    The arrays are drawn in ``dtype`` and computed in ``compute`` (the same
    values, exactly cast; ``dtype`` when None)."""

    def draw(seed, shape):
        return S.make_array(seed, shape, dtype).astype(compute or dtype)

    W = draw(seed, (2, 3))
    b = draw(seed + 1, (2,))

    def setup(lib, s):
        model = lib.links.Linear(3, 2)
        model.W.array = W.copy()
        model.b.array = b.copy()
        s['model'] = model
        s['opt'] = make_optimizer(lib)
        s['opt'].setup(model)
        if make_hook is not None:
            s['opt'].add_hook(make_hook(lib))

    def update(lib, s):
        model, opt = s['model'], s['opt']
        for i in range(steps):
            x = draw(seed + 2 + i, (4, 3))
            model.cleargrads()
            lib.functions.sum(lib.functions.square(model(x))).backward()
            opt.update()
        return {'params': {n: p.array for n, p in model.namedparams()}, 't': opt.t}

    def state(lib, s):
        return {
            n: {
                'state': dict(p.update_rule.state or {}),
                'hyper': p.update_rule.hyperparam.get_dict(),
            }
            for n, p in s['model'].namedparams()
        }

    return [
        ('setup', setup),
        ('update', update),
        ('state', state),
        ('serialize', pair.serialized('opt')),
    ]


def in_float64(make_optimizer, seed, dtype, steps):
    """Reference makers of the stages of ``training`` for an optimizer in
    ``ROUNDING_NOISE``: Chainer on the same case computed in float64 (the
    parameters and data drawn in ``dtype``, exactly cast), compared at
    ``dtype``'s precision. Asked where chainerlite and Chainer differ and
    both answered; none for a float64 case."""
    stages = training(make_optimizer, seed, dtype, steps, compute=numpy.float64)

    def maker(count):
        def make(libs, scratch, outcomes):
            if dtype is numpy.float64 or outcomes[0].raised or outcomes[1].raised:
                return None
            s = {}
            for _, stage in stages[:count]:
                outcome = compare.run(lambda stage=stage: stage(libs[0], s))
                if outcome.raised:
                    return None
            return references.Reference(outcome.value, dtype)

        return make

    return {name: maker(i + 1) for i, (name, _) in enumerate(stages)}


@st.composite
def _common(draw):
    return draw(S.seeds), draw(st.sampled_from(S.FLOATS)), draw(st.integers(1, 4))


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    cls = getattr(libs[0].optimizers, name)

    def draw_case(data):
        kwargs = data.draw(hyper(cls))
        seed, dtype, steps = data.draw(_common())

        def make(lib):
            return getattr(lib.optimizers, name)(**kwargs)

        label = f'{name}({kwargs}) {dtype.__name__} x{steps}'
        made = in_float64(make, seed, dtype, steps) if name in ROUNDING_NOISE else None
        pair.run_case(libs, training(make, seed, dtype, steps), tally, label, made)

    pair.explore(draw_case, examples, seconds)


@st.composite
def hook_arguments(draw, cls):
    """Required arguments of an optimizer hook (bounds and rates), then
    some of its numeric options."""
    kwargs = {}
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name == 'self' or p.default is not p.empty:
            continue
        values = [-1.0, -0.1, 0.0] if p.name == 'lower_bound' else [0.0, 0.01, 0.5, 2.0]
        kwargs[p.name] = draw(st.sampled_from(values))
    kwargs.update(draw(hyper(cls)))
    return kwargs


def run_hook(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name in RANDOM_HOOKS:
        return RANDOM_HOOKS[name]
    cls = getattr(libs[0].optimizer_hooks, name)

    def draw_case(data):
        kwargs = data.draw(hook_arguments(cls))
        seed, dtype, steps = data.draw(_common())

        def make(lib):
            return lib.optimizers.MomentumSGD(lr=0.1)

        def hook(lib):
            return getattr(lib.optimizer_hooks, name)(**kwargs)

        label = f'{name}({kwargs}) {dtype.__name__} x{steps}'
        pair.run_case(libs, training(make, seed, dtype, steps, hook), tally, label)

    pair.explore(draw_case, examples, seconds)
