"""Runner for ``chainer.training``: tiny trainers on both sides. The same MLP
(weights from one seed) learns the same small dataset for a few iterations
with the extension, updater or trigger under test; compared: what a
reading extension saw after every iteration (the observation, the learning
rate, the position), the extension's own output (log, printed report,
files written and the keys and values of snapshots), the final parameters
and the trainer's serialized state, and the firing sequence of triggers."""

import contextlib
import io
import json
import os
import re
import shutil
import tempfile

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S
from tools.diff_chainer import triggers

# State that depends on the clock, not on the API, and chainerlite's
# documented addition to a trainer's state (the NumPy generator's state,
# docs/differences.rst).
_TIMED = re.compile(r'elapsed_time|_start_at|_total_time|^_random_state/')
# A number and the spaces that pad it: the padding of a column (PrintReport's
# '{:<10g}') is as long as the number is short, so it would give away the
# last digit that the values, compared at their dtype's tolerance, may round
# differently (0.24806 and 0.248059 of float32 means).
_NUMBER = re.compile(r'\d+(\.\d+)?(e[-+]?\d+)? *')


def _mlp(lib, seed):
    rng = numpy.random.RandomState(seed)
    L = lib.links
    params = [
        rng.uniform(-1, 1, s).astype(numpy.float32)
        for s in ((4, 3), (4,), (2, 4), (2,))
    ]

    class MLP(lib.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 4, initialW=params[0], initial_bias=params[1])
                self.l2 = L.Linear(4, 2, initialW=params[2], initial_bias=params[3])

        def forward(self, x):
            return self.l2(lib.functions.relu(self.l1(x)))

    return L.Classifier(MLP())


def _dataset(lib, seed, n, nan):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, 3)).astype(numpy.float32)
    if nan:
        x[-1, 0] = numpy.nan
    t = rng.randint(0, 2, n).astype(numpy.int32)
    return lib.datasets.TupleDataset(x, t)


def _plain_observation(observation):
    out = {}
    for key, value in sorted(observation.items()):
        if _TIMED.search(key):
            continue
        value = numpy.asarray(getattr(value, 'array', value))
        # means of float32 losses: compared at float32's tolerance whatever
        # the precision of the mean
        out[key] = value.astype(numpy.float32) if value.dtype.kind == 'f' else value
    return out


def _files(out_dir):
    """``{relative path: content}``: npz files by their keys and values (the
    clock's entries left out), text files with numbers as ``#``."""
    found = {}
    for root, _, files in os.walk(out_dir):
        for name in sorted(files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, out_dir)
            try:
                with numpy.load(path, allow_pickle=False) as npz:
                    found[rel] = {
                        k: npz[k] for k in sorted(npz.files) if not _TIMED.search(k)
                    }
                continue
            except Exception:  # noqa: BLE001, S112 - not an npz file: read as text
                pass
            with open(path, errors='replace') as f:
                text = _text(f.read())
            if rel.endswith('.dot'):  # statements in the order of node ids
                text = re.sub(r'\s*\{\s*', '{', text)
                text = sorted(t.strip() for t in re.split(r'[;\n]', text) if t.strip())
            found[rel] = text
    return found


def _json_or_array(value):
    """A saved JSON text (LogReport's log, PlotReport's data) as its
    values, without the clock's entries; float64 values (sums of float32
    ones) as float32; other values as they are."""
    if getattr(value, 'dtype', None) == numpy.float64:
        return value.astype(numpy.float32)
    if getattr(value, 'dtype', None) is None or value.dtype.kind != 'U':
        return value
    try:
        return _untimed(json.loads(str(value)))
    except ValueError:
        return value


def _untimed(doc):
    if isinstance(doc, dict):
        return {k: _untimed(v) for k, v in doc.items() if not _TIMED.search(k)}
    if isinstance(doc, list):
        return [_untimed(v) for v in doc]
    if isinstance(doc, float):  # the mean of float32 values
        return numpy.float32(doc)
    return doc


def _text(text):
    """Text with numbers (times, speeds, node ids) and their padding as
    ``'# '``."""
    return _NUMBER.sub('# ', text)


@st.composite
def settings(draw):
    """Sizes of a run, and the parameters an extension might take."""
    return {
        'seed': draw(S.seeds),
        'n': draw(st.integers(2, 8)),
        'batch': draw(st.integers(1, 3)),
        'iterations': draw(st.integers(1, 7)),
        'interval': (draw(st.integers(1, 3)), draw(triggers.units)),
        'lr': draw(st.sampled_from([0.01, 0.1, 0.5])),
        'rate': draw(st.sampled_from([0.5, 0.9, 2.0])),
        'step': draw(st.integers(1, 3)),
        'nan': draw(st.booleans()),
        'shuffle': draw(st.booleans()),
    }


def _extensions(lib, p, model, dataset, out):
    """``name -> function()`` giving ``[(extension, trigger or None)]``."""
    E = lib.training.extensions
    iv = p['interval']
    it = lambda: lib.iterators.SerialIterator(dataset, p['batch'], False, False)  # noqa: E731
    return {
        'LogReport': lambda: [(E.LogReport(trigger=iv), None)],
        'PrintReport': lambda: [
            (E.LogReport(trigger=iv), None),
            (E.PrintReport(['epoch', 'iteration', 'main/loss', 'lr'], out=out), None),
            (E.observe_lr(), None),
        ],
        # Chainer's bar writes to sys.stdout whatever ``out`` says, and
        # chainerlite's only to a terminal: a run of it, with no output
        'ProgressBar': lambda: [(E.ProgressBar(update_interval=1000, out=out), None)],
        'Evaluator': lambda: [(E.Evaluator(it(), model), iv)],
        'ExponentialShift': lambda: [(E.ExponentialShift('lr', p['rate']), iv)],
        'InverseShift': lambda: [(E.InverseShift('lr', p['rate'], 1.0), iv)],
        'LinearShift': lambda: [(E.LinearShift('lr', (0.5, 0.1), (1, 4)), iv)],
        'MultistepShift': lambda: [
            (E.MultistepShift('lr', p['rate'], [1, 3, 5], p['lr']), iv)
        ],
        'PolynomialShift': lambda: [
            (E.PolynomialShift('lr', p['rate'], p['iterations']), iv)
        ],
        'StepShift': lambda: [(E.StepShift('lr', p['rate'], p['step'], p['lr']), iv)],
        'WarmupShift': lambda: [(E.WarmupShift('lr', 0.0, p['step'], p['lr']), iv)],
        'FailOnNonNumber': lambda: [(E.FailOnNonNumber(), iv)],
        'MicroAverage': lambda: [
            (_reports(lib), None),
            (E.MicroAverage('main/correct', 'main/total', 'main/ratio'), iv),
        ],
        'ParameterStatistics': lambda: [(E.ParameterStatistics(model), iv)],
        'PlotReport': lambda: [
            (E.LogReport(trigger=iv), None),
            (E.PlotReport(['main/loss'], trigger=iv), None),
        ],
        'VariableStatisticsPlot': lambda: [
            (E.VariableStatisticsPlot(model.predictor.l1, trigger=iv), None)
        ],
        'DumpGraph': lambda: [(E.DumpGraph('main/loss'), None)],
        'dump_graph': lambda: [(E.dump_graph('main/loss'), None)],
        'observe_lr': lambda: [(E.observe_lr(), iv)],
        'observe_value': lambda: [
            (E.observe_value('w_sum', lambda tr: model.predictor.l1.W.array.sum()), iv)
        ],
        'snapshot': lambda: [(E.snapshot(), iv)],
        'snapshot_object': lambda: [
            (E.snapshot_object(model, 'model_{.updater.iteration}'), iv)
        ],
        'unchain_variables': lambda: [(E.unchain_variables(), iv)],
        'Extension': lambda: [(_subclassed(lib), iv)],
        'make_extension': lambda: [(_made(lib, p), None)],
    }


def _reports(lib):
    """An extension that reports a numerator and a denominator."""

    @lib.training.make_extension(trigger=(1, 'iteration'), priority=300)
    def counts(trainer):
        it = trainer.updater.iteration
        lib.reporter.report({'main/correct': it % 3, 'main/total': 3})

    return counts


def _subclassed(lib):
    class Counting(lib.training.Extension):
        priority = lib.training.PRIORITY_EDITOR

        def __init__(self):
            self.calls = 0

        def __call__(self, trainer):
            self.calls += 1
            lib.reporter.report({'calls': self.calls})

        def serialize(self, serializer):
            self.calls = serializer('calls', self.calls)

    return Counting()


def _made(lib, p):
    @lib.training.make_extension(
        trigger=p['interval'], priority=lib.training.PRIORITY_WRITER
    )
    def fired(trainer):
        lib.reporter.report({'fired': trainer.updater.iteration})

    return fired


def _updater(lib, name, iterator, optimizer):
    T = lib.training
    if name == 'ParallelUpdater':
        return T.updaters.ParallelUpdater(
            iterator, optimizer, devices={'main': '@numpy', 'second': '@numpy'}
        )
    return T.updaters.StandardUpdater(iterator, optimizer)


def train(lib, name, p, s):
    """Runs the trainer of ``name``'s case; returns what is compared."""
    numpy.random.seed(p['seed'])
    model = _mlp(lib, p['seed'])
    dataset = _dataset(lib, p['seed'], p['n'], p['nan'] and name == 'FailOnNonNumber')
    optimizer = lib.optimizers.MomentumSGD(lr=p['lr'])
    optimizer.setup(model)
    iterator = lib.iterators.SerialIterator(dataset, p['batch'], shuffle=p['shuffle'])
    updater = _updater(lib, name, iterator, optimizer)
    out_dir = tempfile.mkdtemp(prefix='diff-chainer-')
    s['out_dir'] = out_dir
    stop = (p['iterations'], 'iteration')
    trainer = lib.training.Trainer(updater, stop, out=out_dir)
    printed = io.StringIO()
    made = _extensions(lib, p, model, dataset, printed)
    for ext, trigger in made.get(name, lambda: [])():
        trainer.extend(ext, trigger=trigger)
    seen = []

    @lib.training.make_extension(trigger=(1, 'iteration'), priority=0)
    def record(tr):
        u = tr.updater
        seen.append(
            {
                'observation': _plain_observation(tr.observation),
                'lr': optimizer.lr,
                'position': (u.iteration, u.epoch, u.epoch_detail, u.is_new_epoch),
            }
        )

    trainer.extend(record)
    s['trainer'] = trainer
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # the loop's traceback
            trainer.run()
    except Exception:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    return {
        'seen': seen,
        'printed': _text(printed.getvalue()),
        'params': {k: v.array for k, v in sorted(model.namedparams())},
    }


def state(lib, s):
    """The trainer's serialized state (the clock's entries left out), and
    the files its extensions wrote."""
    try:
        target = lib.serializers.DictionarySerializer()
        target.save(s['trainer'])
        return {
            'state': {
                k: _json_or_array(v)
                for k, v in target.target.items()
                if not _TIMED.search(k)
            },
            'files': _files(s['out_dir']),
        }
    finally:
        shutil.rmtree(s['out_dir'], ignore_errors=True)


def fired(lib, name, p):
    """The firing sequence of ``get_trigger``'s trigger over a simulated run."""
    arg = {'tuple': p['interval'], 'none': None, 'callable': lambda tr: True}[p['form']]
    trigger = lib.training.get_trigger(arg)
    trainer = triggers.FakeTrainer(p['n'])
    out = []
    for _ in range(p['iterations'] * 2):
        trainer.step(0.0)
        out.append(bool(trigger(trainer)))
    return out


RUNS = frozenset(
    'LogReport PrintReport ProgressBar Evaluator ExponentialShift InverseShift '
    'LinearShift MultistepShift PolynomialShift StepShift WarmupShift '
    'FailOnNonNumber MicroAverage ParameterStatistics PlotReport '
    'VariableStatisticsPlot DumpGraph dump_graph observe_lr observe_value '
    'snapshot snapshot_object unchain_variables Extension make_extension '
    'Trainer StandardUpdater ParallelUpdater'.split()
)


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name == 'get_trigger':
        return _run_get_trigger(libs, tally, examples, seconds)
    if name not in RUNS:
        return 'runs in no trainer'
    examples = min(examples, 30)

    def draw_case(data):
        p = data.draw(settings())
        stages = [('train', lambda lib, s: train(lib, name, p, s)), ('state', state)]
        pair.run_case(libs, stages, tally, f'{name} {p}')

    pair.explore(draw_case, examples, seconds)


def _run_get_trigger(libs, tally, examples, seconds):
    def draw_case(data):
        p = data.draw(settings())
        p['form'] = data.draw(st.sampled_from(['tuple', 'none', 'callable']))
        stage = lambda lib, s: fired(lib, 'get_trigger', p)  # noqa: E731
        pair.run_case(libs, [('fired', stage)], tally, f'get_trigger {p}')

    pair.explore(draw_case, examples, seconds)
