"""Function and link hooks: which callbacks run, in what order and with
what arguments; global and local registration; the hooks Chainer ships."""

import copy
import importlib
import io
import pickle
import re

import numpy

from tools.surface_probes import _values
from tools.surface_probes._calls import counting as _a

attempt = _values.attempt


def _describe(v):
    """A callback argument, reduced to what both libraries can show."""
    if v is None:
        return None
    if isinstance(v, (tuple, list)):
        return [_describe(e) for e in v]
    if isinstance(v, numpy.ndarray):
        return ['array', list(v.shape), str(v.dtype)]
    return type(v).__name__


def _recorder(c, log, name='rec', base=None):
    """A hook class logging each callback's name and arguments."""
    base = base or c.chainer.FunctionHook

    def entry(kind):
        def callback(self, function, *rest):
            label = None if function is None else function.label
            log.append([self.name, kind, label, [_describe(r) for r in rest]])

        return callback

    body = {
        k: entry(k)
        for k in (
            'added',
            'deleted',
            'forward_preprocess',
            'forward_postprocess',
            'backward_preprocess',
            'backward_postprocess',
        )
    }
    body['name'] = name
    return type('Recorder', (base,), body)


def _small_graph(c):
    x = c.chainer.Variable(_a(2, 3))
    y = c.F.sum(c.F.exp(x) * 2)
    y.backward()
    return x


def global_callbacks(c):
    """A global hook (with-statement): every callback of a small graph."""
    log = []
    with _recorder(c, log)() as hook:
        _small_graph(c)
        inside = list(c.chainer.get_function_hooks())
    return [log, inside, list(c.chainer.get_function_hooks()), type(hook).__name__]


def nested_and_duplicate(c):
    """Two global hooks run in the order they were entered; one name twice
    is a KeyError, and leaves the first registered."""
    log = []
    first, second = _recorder(c, log, 'first')(), _recorder(c, log, 'second')()
    out = []
    with first:
        with second:
            c.F.relu(_a(2))
            out.append(list(c.chainer.get_function_hooks()))
        out.append(attempt(lambda: _recorder(c, log, 'first')().__enter__()))
        out.append(list(c.chainer.get_function_hooks()))
    out.append(list(c.chainer.get_function_hooks()))
    out.append(log)
    return out


def local_and_global(c):
    """A node's local hook runs after the global ones, also in backward."""
    log = []
    x = c.chainer.Variable(_a(2))
    node = c.F.exp(x).creator
    node_class = type(node)
    local = _recorder(c, log, 'local')()
    with _recorder(c, log, 'global')():
        n2 = node_class()
        n2.add_hook(local)
        (y,) = n2.apply((x,))
        y.grad = numpy.ones(2, numpy.float32)
        y.backward()
    n2.delete_hook('local')
    return log


def hook_on_backward_only(c):
    """A hook registered after forward sees the backward calls only."""
    log = []
    x = c.chainer.Variable(_a(2))
    y = c.F.sum(c.F.exp(x))
    with _recorder(c, log)():
        y.backward()
    return log


def registry(c):
    """get_function_hooks is a dict of the thread's hooks; hooks given
    names; an instance's name replaces the class's."""
    hooks = c.chainer.get_function_hooks()
    h = c.chainer.FunctionHook()
    named = c.chainer.FunctionHook()
    named.name = 'mine'
    out = [isinstance(hooks, dict), h.name, len(hooks)]
    with h, named:
        out.append(list(c.chainer.get_function_hooks()))
    out.append(attempt(lambda: h.__exit__(None, None, None)))
    return out


def default_callbacks(c):
    """FunctionHook's own callbacks do nothing and return None."""
    h = c.chainer.FunctionHook()
    return [
        h.added(None),
        h.deleted(None),
        h.forward_preprocess(None, ()),
        h.forward_postprocess(None, ()),
        h.backward_preprocess(None, (), ()),
        h.backward_postprocess(None, (), ()),
    ]


def link_hook_callbacks(c):
    """A LinkHook sees each link call with its arguments and output."""
    log = []

    class Rec(c.chainer.LinkHook):
        name = 'linkrec'

        def added(self, link):
            log.append(['added', None if link is None else type(link).__name__])

        def deleted(self, link):
            log.append(['deleted', None if link is None else type(link).__name__])

        def forward_preprocess(self, args):
            log.append(
                [
                    'pre',
                    type(args.link).__name__,
                    args.forward_name,
                    [_describe(a) for a in args.args],
                    sorted(args.kwargs),
                ]
            )

        def forward_postprocess(self, args):
            log.append(
                [
                    'post',
                    type(args.link).__name__,
                    args.forward_name,
                    _describe(args.out),
                    [_describe(a) for a in args.args],
                ]
            )

    class Net(c.chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = c.L.Linear(3, 2)

        def forward(self, x, scale=1.0):
            return self.l(x) * scale

    net = Net()
    with Rec():
        net(_a(1, 3), scale=2.0)
    hook = Rec()
    net.l.add_hook(hook)
    net(_a(1, 3))
    out = [list(net.l.local_link_hooks), attempt(lambda: net.l.add_hook(Rec()))]
    net.l.delete_hook('linkrec')
    out.append(attempt(lambda: net.l.delete_hook('linkrec')))
    out.append(attempt(lambda: net.add_hook(c.chainer.FunctionHook())))
    with Rec():
        out.append(attempt(lambda: Rec().__enter__()))
    out.append(log)
    return out


def link_hook_args_repr(c):
    """The callback arguments' fields and their text."""
    seen = []

    class Keep(c.chainer.LinkHook):
        def forward_preprocess(self, args):
            seen.append(args)

        def forward_postprocess(self, args):
            seen.append(args)

    link = c.L.Linear(3, 2)
    with Keep():
        link(_a(1, 3))
    pre, post = seen
    return [
        sorted(k for k in vars(pre) if not k.startswith('_')),
        sorted(k for k in vars(post) if not k.startswith('_')),
        [_text(repr(args)) for args in seen],
        Keep.name,
    ]


def _text(text):
    # object ids and the library's name left out
    return re.sub(r'0x[0-9a-f]+', 'ID', text.replace('chainerlite', 'chainer'))


def print_hook(c):
    """PrintHook's text for a forward and a backward call."""
    buf = io.StringIO()
    x = c.chainer.Variable(numpy.array([1.5, -2.0], numpy.float32))
    with c.chainer.function_hooks.PrintHook(file=buf) as h:
        y = c.F.exp(x)
        y.grad = numpy.ones(2, numpy.float32)
        y.backward()
    return [h.name, _text(buf.getvalue()).splitlines()]


def timer_hook(c):
    """TimerHook: what it counts, summary() keys and the report's shape."""
    x = c.chainer.Variable(_a(2, 3))
    with c.chainer.function_hooks.TimerHook() as h:
        c.F.sum(c.F.exp(x) * 2).backward()
    s, lines = _report(h)
    return [
        h.name,
        sorted(s),
        # Chainer's keys (chainerlite adds the self time and the directions)
        {k: [key in v for key in ('elapsed_time', 'occurrence')] for k, v in s.items()},
        {k: v['occurrence'] for k, v in s.items()},
        lines[0].split(),
        len(lines),
        sorted(line.split()[0] for line in lines[1:]),
        type(h.total_time()).__name__,
        len(h.call_history),
        [type(e).__name__ for e in h.call_history[0]],
    ]


def _report(hook):
    """A timer hook's summary and the lines of its report."""
    buf = io.StringIO()
    hook.print_report(file=buf)
    return hook.summary(), buf.getvalue().splitlines()


def timer_hook_copies(c):
    """TimerHook deep-copied, copied and pickled (Chainer's deep copy and
    pickle fail on the module the hook holds)."""
    with c.chainer.function_hooks.TimerHook() as h:
        c.F.relu(_a(2))
    out = []
    for dup in (copy.deepcopy, copy.copy, lambda o: pickle.loads(pickle.dumps(o))):
        out.append(
            attempt(
                lambda dup=dup: [len(dup(h).call_history), sorted(dup(h).summary())]
            )
        )
    return out


def link_timer_hook(c):
    """The link TimerHook's summary and report."""
    link = c.L.Linear(3, 2)
    link_hooks = importlib.import_module(c.chainer.__name__ + '.link_hooks')
    with link_hooks.TimerHook() as h:
        link(_a(1, 3))
        link(_a(1, 3))
    s, lines = _report(h)
    return [
        h.name,
        sorted(s),
        {k: v['occurrence'] for k, v in s.items()},
        lines[0].split(),
        len(lines),
    ]


def hooks_per_thread(c):
    """Global hooks belong to the thread that entered them."""
    import threading

    log = []
    seen = []
    with _recorder(c, log)():

        def other():
            seen.append(list(c.chainer.get_function_hooks()))
            c.F.exp(_a(2))

        t = threading.Thread(target=other)
        t.start()
        t.join()
        c.F.exp(_a(2))
    return [seen, [entry[1] for entry in log]]


def hook_raising(c):
    """A callback that raises stops the call; the hook stays registered
    until the with-statement ends."""

    class Fails(c.chainer.FunctionHook):
        name = 'fails'

        def forward_preprocess(self, function, in_data):
            raise KeyError('stop')

    out = []
    x = c.chainer.Variable(_a(2))
    with Fails():
        out.append(attempt(lambda: c.F.exp(x)))
        out.append(list(c.chainer.get_function_hooks()))
    out.append(list(c.chainer.get_function_hooks()))
    try:
        with Fails():
            c.F.exp(x)
    except KeyError:
        pass
    out.append(list(c.chainer.get_function_hooks()))
    return out


def hooks_without_backprop(c):
    """Hooks see forward calls in no_backprop_mode, and grad()'s backward
    calls."""
    log = []
    x = c.chainer.Variable(_a(2))
    with _recorder(c, log)():
        with c.chainer.no_backprop_mode():
            c.F.exp(x)
        y = c.F.sum(x * x)
        c.chainer.grad([y], [x])
    return [[e[1], e[2]] for e in log]


def forward_error_and_hooks(c):
    """forward raising: the preprocess callback ran, the postprocess did
    not."""
    log = []

    class Bad(c.chainer.FunctionNode):
        def forward(self, xs):
            raise ValueError('bad forward')

    with _recorder(c, log)():
        r = attempt(lambda: Bad().apply((_a(2),)))
    return [r, [e[1] for e in log]]


def timer_units(c):
    """print_report's units and the row of each unit."""
    with c.chainer.function_hooks.TimerHook() as h:
        c.F.exp(_a(2))
    out = []
    for unit in ('sec', 'ms', 'us', 'ns', 'auto', 'auto_foreach', 'hours'):

        def report(unit=unit):
            buf = io.StringIO()
            h.print_report(unit=unit, file=buf)
            row = buf.getvalue().splitlines()[1].split()
            return [row[0], re.sub(r'^[0-9.]+', '', row[1]), row[2]]

        r = attempt(report)
        if unit.startswith('auto') and r[0] == 'ok':
            r[1][1] = 'auto'  # the unit chosen depends on the time taken
        out.append(r)
    return out


def gpu_hooks_on_cpu(c):
    """The CUDA hooks made where there is no GPU."""
    fh = c.chainer.function_hooks
    return [
        attempt(lambda: type(fh.CupyMemoryProfileHook()).__name__),
        attempt(lambda: type(fh.CUDAProfileHook()).__name__),
    ]


def weight_hooks(c):
    """SpectralNormalization and WeightStandardization: registration, what
    they add to the link, and their refusals."""
    lh = importlib.import_module(c.chainer.__name__ + '.link_hooks')
    out = []
    for make in (
        lambda: lh.SpectralNormalization(),
        lambda: lh.WeightStandardization(),
    ):
        hook = make()
        link = c.L.Linear(3, 2)
        link.add_hook(hook)
        y = link(_a(1, 3))
        out.append(
            [
                hook.name,
                list(link.local_link_hooks),
                sorted(link._persistent),
                y.shape,
                link.W.shape,
                attempt(lambda hook=hook: hook.__enter__()),
                attempt(
                    lambda make=make: (
                        c.L.Linear(3, 2).add_hook(make(), name='x') and None
                    )
                ),
            ]
        )
        link.delete_hook(hook.name)
        out.append([list(link.local_link_hooks), sorted(link._persistent)])
        out.append(
            attempt(lambda make=make: c.L.BatchNormalization(3).add_hook(make()))
        )
    return out


def print_hook_options(c):
    """PrintHook's end, sep (deprecated) and what it prints for a function
    of two inputs, one of them a plain array."""
    out = []
    for kw in (dict(end='|'), dict(sep=', ')):
        buf = io.StringIO()
        hook = c.chainer.function_hooks.PrintHook(file=buf, **kw)
        x = c.chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
        with hook:
            x * numpy.array([3.0, 4.0], numpy.float32)
        out.append([hook.sep, hook.end, hook.flush, _text(buf.getvalue()).split('\n')])
    return out


PROBES = _values.probes(globals(), __name__)
