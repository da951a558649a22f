"""Runner for ``chainer.function_hooks`` and ``chainer.link_hooks`` (and the
base classes ``chainer.FunctionHook`` and ``chainer.LinkHook``): the same
model (weights from one seed) runs forward and backward with the hook on;
compared: the outputs and gradients, what the hook recorded (the function
or link names of the calls, in order, and how many), and what it printed,
with numbers and times left out."""

import io
import re

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S

_NUMBER = re.compile(r'-?\d+(\.\d+)?(e[-+]?\d+)?')
_ADDRESS = re.compile(r'0x[0-9a-f]+')


def _model(lib, seed, n_in):
    rng = numpy.random.RandomState(seed)
    W1 = rng.uniform(-1, 1, (4, n_in)).astype(numpy.float32)
    W2 = rng.uniform(-1, 1, (2, 4)).astype(numpy.float32)
    return lib.Sequential(
        lib.links.Linear(n_in, 4, initialW=W1),
        lib.functions.tanh,
        lib.links.Linear(4, 2, initialW=W2),
    )


def _recorder(lib, base):
    """A subclass of ``base`` (FunctionHook or LinkHook) that records its
    callbacks by name."""
    calls = []

    def record(kind):
        def callback(self, *args):
            what = args[0]
            label = (
                getattr(what, 'label', None)
                or type(getattr(what, 'link', what)).__name__
            )
            calls.append((kind, label))

        return callback

    methods = ('added', 'deleted', 'forward_preprocess', 'forward_postprocess')
    if base is lib.FunctionHook:
        methods += ('backward_preprocess', 'backward_postprocess')
    hook = type('Recorder', (base,), {m: record(m) for m in methods})()
    return hook, calls


def _make(lib, name, kind, printed):
    if name in ('FunctionHook', 'LinkHook'):
        return _recorder(lib, getattr(lib, name))
    if name == 'PrintHook':
        return lib.function_hooks.PrintHook(file=printed), None
    module = lib.function_hooks if kind == 'function' else lib.link_hooks
    return getattr(module, name)(), None


def observed(lib, name, kind, seed, batch, n_in, target):
    numpy.random.seed(seed)
    model = _model(lib, seed, n_in)
    printed = io.StringIO()
    hook, calls = _make(lib, name, kind, printed)
    x = lib.Variable(S.make_array(seed, (batch, n_in), numpy.float32))
    if kind == 'function':
        with hook:
            y = model(x)
            lib.functions.sum(y * y).backward()
    else:
        on = model[0] if target == 'link' else model
        on.add_hook(hook)
        y = model(x)
        lib.functions.sum(y * y).backward()
        on.delete_hook(hook.name)
    out = {'y': y.array, 'gx': x.grad, 'gW': model[0].W.grad}
    if calls is not None:
        out['calls'] = calls
    history = getattr(hook, 'call_history', None)
    if history is not None:
        out['history'] = [_name(entry[0]) for entry in history]
    out['printed'] = _NUMBER.sub('#', _ADDRESS.sub('#', printed.getvalue()))
    return out


def _name(what):
    return what if isinstance(what, str) else type(what).__name__


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    kind = 'function' if 'function' in qualified or name == 'FunctionHook' else 'link'
    examples = min(examples, 40)

    def draw_case(data):
        seed = data.draw(S.seeds)
        batch = data.draw(st.integers(1, 3))
        n_in = data.draw(st.integers(1, 4))
        target = data.draw(st.sampled_from(['link', 'chain']))

        def stage(lib, s):
            return observed(lib, name, kind, seed, batch, n_in, target)

        label = f'{name} seed={seed} batch={batch} n_in={n_in} on {target}'
        pair.run_case(libs, [('observed', stage)], tally, label)

    pair.explore(draw_case, examples, seconds)
