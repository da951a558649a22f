"""Training extensions one by one: LogReport's arguments, files and saved
state, PrintReport's columns, MicroAverage, observe_value/observe_lr,
unchain_variables, FailOnNonNumber, Evaluator's arguments and report
names, ParameterStatistics, PlotReport without matplotlib, DumpGraph, and
the progress bar base class."""

import contextlib
import importlib
import io
import json
import os
import tempfile
import warnings

import numpy

from tools.surface_probes import _training
from tools.surface_probes import _values


def _trainer(c, stop=(2, 'epoch')):
    return _training.trainer(c, stop)


def _reporting(c, values):
    """An extension reporting ``values(iteration)`` at each iteration,
    before the extensions of lower priority read the observation."""
    T = c.chainer.training

    @T.make_extension(trigger=(1, 'iteration'), priority=T.PRIORITY_WRITER)
    def report(t):
        c.chainer.reporter.report(values(t.updater.iteration))

    return report


def _entries(log):
    return [{k: v for k, v in e.items() if k != 'elapsed_time'} for e in log]


def _warned(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        result = fn()
    return result, [x.category.__name__ for x in w]


def _files(trainer):
    return sorted(os.listdir(trainer.out))


# LogReport


def log_report_defaults(c):
    T = c.chainer.training
    log = T.extensions.LogReport()
    return [
        log.log,
        log.log is log.log,
        log.default_name,
        log.priority,
        log.trigger,
        log.name,
        type(log._trigger).__name__,
        log._trigger.period,
        log._trigger.unit,
        log._log_name,
    ]


def log_report_names_of_the_file(c):
    E = c.chainer.training.extensions
    out = []
    for kwargs in (
        {'log_name': 'old_name'},
        {'filename': 'new_name', 'log_name': 'ignored'},
        {'filename': 'log_{iteration}_{epoch}', 'trigger': (3, 'iteration')},
        {'log_name': None},
    ):
        trainer, _, _ = _trainer(c)
        log = E.LogReport(**kwargs)
        trainer.extend(log)
        trainer.run()
        out.append([_files(trainer), len(log.log)])
    out.append(_values.attempt(lambda: E.LogReport(unknown=1)))
    return out


def log_report_file_contents(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(4, 'iteration'))
    trainer.extend(E.LogReport(trigger=(2, 'iteration')))
    trainer.run()
    with open(os.path.join(trainer.out, 'log')) as f:
        text = f.read()
    entries = json.loads(text)
    return _entries(entries), text.count('\n'), text.startswith('[\n    {\n')


def log_report_before_training(c):
    # called before the first iteration (call_before_training), it logs the
    # summary of nothing at iteration 0
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(2, 'iteration'))
    log = E.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log, call_before_training=True)
    trainer.run()
    return _entries(log.log)


def log_report_keys_and_variables(c):
    # observed values that are Variables or arrays are averaged as floats;
    # keys restrict what is logged, a missing one is left out
    T = c.chainer.training
    trainer, _, _ = _trainer(c, stop=(4, 'iteration'))

    report = _reporting(
        c,
        lambda i: {
            'var': c.chainer.Variable(numpy.array(i, numpy.float32)),
            'arr': numpy.float64(i) / 4,
            'py': i * 2,
        },
    )

    log = T.extensions.LogReport(keys=['var', 'py', 'absent'], trigger=(2, 'iteration'))
    trainer.extend(report)
    trainer.extend(log)
    trainer.run()
    return _entries(log.log), [sorted(e) for e in log.log]


def log_report_postprocess_sees_every_entry(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(3, 'iteration'))
    seen = []

    def post(stats):
        seen.append(sorted(stats))
        stats['extra'] = stats['iteration'] * 10
        del stats['main/loss']

    log = E.LogReport(trigger=(1, 'iteration'), postprocess=post)
    trainer.extend(log)
    trainer.run()
    return seen, _entries(log.log)


def log_report_serialize(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(3, 'iteration'))
    log = E.LogReport(trigger=(2, 'iteration'))
    trainer.extend(log)
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    log.serialize(s)
    keys = sorted(s.target)
    saved = json.loads(str(s.target['_log']))
    fresh = E.LogReport(trigger=(2, 'iteration'))
    fresh.serialize(c.chainer.serializers.NpzDeserializer(s.target))
    return keys, _entries(saved), _entries(fresh.log)


def log_report_loaded_without_summary(c):
    E = c.chainer.training.extensions
    log = E.LogReport()
    target = {'_log': numpy.array('[{"iteration": 3}]')}
    _, warned = _warned(
        lambda: log.serialize(c.chainer.serializers.NpzDeserializer(target))
    )
    return warned, log.log


# PrintReport


def print_report_columns(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(3, 'iteration'))
    trainer.extend(E.LogReport(trigger=(1, 'iteration')))
    out = io.StringIO()
    entries = ['epoch', 'iteration', 'a_rather_long_column_name', 'main/loss', 'x']
    trainer.extend(E.PrintReport(entries, out=out), trigger=(1, 'iteration'))
    trainer.run()
    text = out.getvalue()
    lines = text.split('\n')
    # the loss column as text, the other columns exactly
    return [
        lines[0],
        [line[:24] for line in lines[1:]],
        [len(line) for line in lines],
        text.count('\033[J'),
    ]


def print_report_with_its_own_log_report(c):
    # a LogReport object (not registered) is called by the PrintReport itself
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(4, 'iteration'))
    log = E.LogReport(trigger=(2, 'iteration'))
    out = io.StringIO()
    printer = E.PrintReport(['iteration', 'epoch'], log_report=log, out=out)
    trainer.extend(printer, trigger=(1, 'iteration'))
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    printer.serialize(s)
    return out.getvalue(), len(log.log), sorted(s.target)


def print_report_bad_log_report(c):
    E = c.chainer.training.extensions
    out = []
    for log_report in (3, 'NoSuchReport'):
        trainer, _, _ = _trainer(c, stop=(1, 'iteration'))
        trainer.extend(
            E.PrintReport(['iteration'], log_report=log_report, out=io.StringIO())
        )
        out.append(_values.attempt(lambda: trainer.run(show_loop_exception_msg=False)))
    s = c.chainer.serializers.DictionarySerializer()
    E.PrintReport(['iteration']).serialize(s)
    out.append(sorted(s.target))
    return out


# MicroAverage


def micro_average_in_a_run(c):
    T = c.chainer.training
    E = T.extensions
    trainer, _, _ = _trainer(c, stop=(6, 'iteration'))

    report = _reporting(c, lambda i: {'n': i, 'd': i + 1})
    average = E.MicroAverage('n', 'd', 'ratio', trigger=(2, 'iteration'))
    log = E.LogReport(keys=['ratio'], trigger=(2, 'iteration'))
    trainer.extend(report)
    trainer.extend(average, trigger=(1, 'iteration'))
    trainer.extend(log)
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    average.serialize(s)
    return _entries(log.log), average.priority, s.target, sorted(trainer._extensions)


def micro_average_without_its_keys(c):
    # without both keys observed nothing is summed, nothing reported
    T = c.chainer.training
    E = T.extensions
    trainer, _, _ = _trainer(c, stop=(4, 'iteration'))

    report = _reporting(c, lambda i: {'n': 1.0})
    average = E.MicroAverage('n', 'd', 'ratio', trigger=(1, 'iteration'))
    seen = []
    trainer.extend(report)
    trainer.extend(average, trigger=(1, 'iteration'))
    trainer.extend(
        T.make_extension(trigger=(1, 'iteration'))(
            lambda t: seen.append(sorted(k for k in t.observation if '/' not in k))
        )
    )
    trainer.run()
    return seen, average._numerator, average._denominator


# observe_value, observe_lr


def observe_value_attributes(c):
    E = c.chainer.training.extensions
    ext = E.observe_value('key', lambda t: 1)
    lr = E.observe_lr()
    trainer, _, _ = _trainer(c, stop=(1, 'iteration'))
    trainer.extend(ext)
    trainer.extend(lr)
    trainer.extend(E.observe_lr(observation_key='other'))
    return [
        ext.trigger,
        ext.priority,
        ext.default_name,
        lr.default_name,
        ext.initialize,
        ext.finalize,
        ext.on_error,
        sorted(trainer._extensions),
        ext.name,
    ]


def observe_lr_of_another_optimizer(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(1, 'iteration'))
    trainer.extend(E.observe_lr(optimizer_name='absent'), trigger=(1, 'iteration'))
    return _values.attempt(lambda: trainer.run(show_loop_exception_msg=False))


def observe_value_in_a_run(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(2, 'epoch'))
    log = E.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log)
    trainer.extend(E.observe_value('it', lambda t: t.updater.iteration))
    trainer.extend(E.observe_lr(), trigger=(2, 'iteration'))
    trainer.run()
    return [{k: e.get(k) for k in ('it', 'lr', 'iteration')} for e in log.log]


# unchain_variables


def unchain_variables(c):
    T = c.chainer.training
    out = []
    for keep in (False, True):
        with c.chainer.using_config('keep_graph_on_report', keep):
            trainer, _, _ = _trainer(c, stop=(2, 'iteration'))
            kept = []

            @T.make_extension(trigger=(1, 'iteration'), priority=T.PRIORITY_WRITER)
            def report(t, kept=kept):
                x = c.chainer.Variable(numpy.ones(2, numpy.float32))
                y = c.F.sum(x * 2)
                c.chainer.reporter.report({'y': y})
                kept.append(t.observation['y'])

            ext = T.extensions.unchain_variables()
            trainer.extend(report)
            trainer.extend(ext)
            trainer.run()
            out.append(
                [
                    [v.creator is None for v in kept],
                    ext.priority,
                    sorted(trainer._extensions),
                    ext._prev_flag,
                ]
            )
    return out


# FailOnNonNumber


def fail_on_non_number(c):
    E = c.chainer.training.extensions
    out = []
    for bad in (None, numpy.nan, numpy.inf):
        trainer, model, _ = _trainer(c, stop=(3, 'iteration'))
        trainer.extend(E.FailOnNonNumber())
        if bad is not None:
            model.predictor.b.array[0] = bad
        out.append(_values.attempt(lambda: trainer.run(show_loop_exception_msg=False)))
        out.append(trainer.updater.iteration)
    out.append(_values.attempt(lambda: E.FailOnNonNumber(check_grad=False)))
    ext = E.FailOnNonNumber()
    out.append([ext.trigger, ext.priority, ext.default_name])
    return out


# Evaluator


def evaluator_report_names(c):
    T = c.chainer.training
    E = T.extensions
    trainer, model, data = _trainer(c, stop=(1, 'epoch'))
    it = c.chainer.iterators.SerialIterator(data, 5, repeat=False, shuffle=False)
    ev = E.Evaluator(it, model)
    direct = sorted(ev())
    log = E.LogReport()
    trainer.extend(ev)
    trainer.extend(E.Evaluator(it, {'main': model, 'other': model}), name='val2')
    trainer.extend(log)
    trainer.run()
    return [
        direct,
        sorted(log.log[0]),
        ev.name,
        ev.default_name,
        ev.priority,
        ev.trigger,
        sorted(trainer._extensions),
    ]


def evaluator_eval_func_and_modes(c):
    E = c.chainer.training.extensions
    _, _, model, data = _training.parts(c)
    it = c.chainer.iterators.SerialIterator(data, 5, repeat=False, shuffle=False)
    seen = []

    def eval_func(x, t):
        seen.append((x.shape, c.chainer.config.train, c.chainer.config.enable_backprop))
        c.chainer.reporter.report({'n': float(len(x))}, model)

    hooks = []
    ev = E.Evaluator(it, model, eval_func=eval_func, eval_hook=hooks.append)
    result = ev()
    again = ev()
    return seen, result, again, len(hooks), hooks[0] is ev


def evaluator_converter_and_device(c):
    E = c.chainer.training.extensions
    _, _, model, data = _training.parts(c)
    it = c.chainer.iterators.SerialIterator(data, 5, repeat=False, shuffle=False)
    devices = []

    def converter(batch, device):
        devices.append(device)
        return c.chainer.dataset.concat_examples(batch)

    ev = E.Evaluator(it, model, converter=converter, device='@numpy')
    result = ev()
    ev2 = E.Evaluator(it, model, converter=converter)
    ev2()
    return (
        devices,
        sorted(result),
        str(ev.device),
        ev2.device,
        ev.converter is converter,
    )


def evaluator_accessors_and_arguments(c):
    E = c.chainer.training.extensions
    _, _, model, data = _training.parts(c)
    it = c.chainer.iterators.SerialIterator(data, 5, repeat=False, shuffle=False)
    ev = E.Evaluator({'main': it, 'b': it}, {'main': model})
    repeating = c.chainer.iterators.SerialIterator(data, 5)
    _, warned = _warned(lambda: E.Evaluator(repeating, model))
    return [
        ev.get_iterator('b') is it,
        sorted(ev.get_all_iterators()),
        ev.get_target('main') is model,
        sorted(ev.get_all_targets()),
        ev.get_all_targets() is ev.get_all_targets(),
        _values.attempt(lambda: ev.get_target('other')),
        warned,
        _values.attempt(lambda: E.Evaluator(it, model, unknown=1)),
        _values.attempt(lambda: E.Evaluator(it, model, progress_bar=False).eval_hook),
        ev.eval_func,
    ]


def evaluator_iterator_without_reset(c):
    # an iterator without reset() is copied (DeprecationWarning)
    E = c.chainer.training.extensions
    _, _, model, data = _training.parts(c)

    class Batches(c.chainer.dataset.Iterator):
        def __init__(self):
            self.i = 0

        def __next__(self):
            if self.i >= 3:
                raise StopIteration
            self.i += 1
            return [data[self.i - 1], data[self.i + 1]]

    it = Batches()
    ev = E.Evaluator(it, model)
    result, warned = _warned(ev)
    return sorted(result), warned, it.i


# ParameterStatistics


def _statistics(c, link, *args, **kwargs):
    E = c.chainer.training.extensions
    ext = E.ParameterStatistics(link, *args, **kwargs)
    trainer = type('T', (), {})()
    updater = type('U', (), {'iteration': 1, 'epoch': 1, 'epoch_detail': 1.0})()
    updater.previous_epoch_detail = 0.0
    trainer.updater = updater
    observation = {}
    with c.chainer.reporter.Reporter().scope(observation):
        ext(trainer)
    return observation


def _link(c):
    numpy.random.seed(1)
    link = c.L.Linear(3, 2)
    link.W.grad = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) - 2
    link.b.grad = numpy.zeros(2, numpy.float32)
    return link


def parameter_statistics_default(c):
    return _statistics(c, _link(c))


def parameter_statistics_arguments(c):
    link = _link(c)
    return [
        sorted(_statistics(c, link, statistics=None)),
        _statistics(c, link, statistics={'sum': numpy.sum}, report_grads=False),
        _statistics(c, [link, _link(c)], {'max': numpy.max}, prefix='pre'),
        _statistics(c, (link,), {'n': numpy.size}, report_params=False),
    ]


def parameter_statistics_nan_params(c):
    link = _link(c)
    link.W.array[0, 0] = numpy.nan
    plain = _statistics(c, link, {'mean': numpy.mean}, report_grads=False)
    skipped = _statistics(
        c, link, {'mean': numpy.mean}, report_grads=False, skip_nan_params=True
    )
    return [{k: 'nan' if v != v else v for k, v in d.items()} for d in (plain, skipped)]


def parameter_statistics_without_gradients(c):
    # Chainer's fails on a parameter whose gradient is None
    link = _link(c)
    link.cleargrads()
    return _statistics(c, link, {'mean': numpy.mean})


def parameter_statistics_registered_and_named(c):
    E = c.chainer.training.extensions
    link = _link(c)
    model = c.chainer.Chain()
    with model.init_scope():
        model.fc = link
    ext = E.ParameterStatistics(link, {})
    ext.register_statistics('first', lambda x: x[0])
    trainer, _, _ = _trainer(c, stop=(3, 'iteration'))
    seen = []
    trainer.extend(ext, trigger=(1, 'iteration'))
    trainer.extend(
        c.chainer.training.make_extension(trigger=(1, 'iteration'))(
            lambda t: seen.append(sorted(t.observation))
        )
    )
    trainer.run()
    return [
        seen,
        ext.default_name,
        ext.priority,
        ext.report_key_template,
        sorted(E.ParameterStatistics.default_statistics),
    ]


def parameter_statistics_averaged_over_the_trigger(c):
    E = c.chainer.training.extensions
    link = _link(c)
    ext = E.ParameterStatistics(link, {'max': numpy.max}, trigger=(2, 'iteration'))
    testing = importlib.import_module(c.chainer.__name__ + '.testing')
    trainer = testing.get_trainer_with_mock_updater((4, 'iteration'))
    out = []
    for i in range(4):
        trainer.updater.iteration = i + 1
        link.W.array[...] = i
        observation = {}
        with c.chainer.reporter.Reporter().scope(observation):
            ext(trainer)
        out.append(observation)
    return out


# PlotReport without matplotlib


def plot_report_without_matplotlib(c):
    E = c.chainer.training.extensions
    available, warned = _warned(E.PlotReport.available)
    report, warned_made = _warned(
        lambda: E.PlotReport(['main/loss'], file_name='p.png')
    )
    trainer, _, _ = _trainer(c, stop=(2, 'iteration'))
    trainer.extend(report, trigger=(1, 'iteration'))
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    report.serialize(s)
    plain = E.PlotReport('main/loss')
    t = c.chainer.serializers.DictionarySerializer()
    plain.serialize(t)
    return [
        available,
        warned,
        warned_made,
        _files(trainer),
        {k: str(v) for k, v in s.target.items()},
        {k: str(v) for k, v in t.target.items()},
        _values.attempt(lambda: E.PlotReport('y', unknown=1)),
    ]


# DumpGraph


def dump_graph(c):
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(2, 'iteration'))
    ext = E.DumpGraph('main/loss', filename='graph.dot')
    before = c.chainer.config.keep_graph_on_report
    trainer.extend(ext)
    trainer.run()
    with open(os.path.join(trainer.out, 'graph.dot')) as f:
        text = f.read()
    s = c.chainer.serializers.DictionarySerializer()
    ext.serialize(s)
    labels = sorted(part.split('"', 1)[0] for part in text.split('label="')[1:])
    return [
        _files(trainer),
        labels,
        text.count('->'),
        text.split(';', 1)[0],
        c.chainer.config.keep_graph_on_report == before,
        sorted(s.target),
        ext.default_name,
        sorted(trainer._extensions),
    ]


def dump_graph_errors(c):
    E = c.chainer.training.extensions
    out = []
    for key in ('main/accuracy', 'absent', 'number'):
        trainer, _, _ = _trainer(c, stop=(2, 'iteration'))
        ext = E.DumpGraph(key, out_name='g.dot')
        trainer.extend(ext)
        trainer.extend(
            E.observe_value('number', lambda t: 1.5), trigger=(1, 'iteration')
        )
        out.append(
            [
                _values.attempt(lambda: trainer.run(show_loop_exception_msg=False)),
                _files(trainer),
            ]
        )
    out.append(_values.attempt(lambda: E.DumpGraph('x', unknown=1)))
    out.append(c.chainer.config.keep_graph_on_report)
    return out


# extensions.util.ProgressBar


def progress_bar_base_class(c):
    util = c.chainer.training.extensions.util

    class Bar(util.ProgressBar):
        def get_lines(self):
            return ['first line\n', 'second\n']

    out = io.StringIO()
    bar = Bar(out=out)
    bar.update()
    bar.close()
    plain = util.ProgressBar(bar_length=7, out=io.StringIO())
    return [
        out.getvalue(),
        bar._bar_length,
        plain._bar_length,
        _values.attempt(plain.get_lines),
        plain.update_speed(3, 0.5),
    ]


def progress_bar_extension_attributes(c):
    E = c.chainer.training.extensions
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        bar = E.ProgressBar(update_interval=5)
    return [bar.trigger, bar.priority, bar.default_name, bar.name]


# on the mock trainer of chainer.testing


def _mock_trainer(c, stop, iter_per_epoch, report):
    testing = importlib.import_module(c.chainer.__name__ + '.testing')
    trainer = testing.get_trainer_with_mock_updater(stop, iter_per_epoch=iter_per_epoch)
    trainer.out = tempfile.mkdtemp()
    trainer.updater.update_core = lambda: c.chainer.reporter.report(
        report(trainer.updater.iteration)
    )
    return trainer


def mock_trainer_log_report(c):
    E = c.chainer.training.extensions
    trainer = _mock_trainer(
        c,
        (7, 'iteration'),
        3,
        lambda i: {'loss': float(i), 'acc': numpy.float32(i % 2)},
    )
    log = E.LogReport()
    by_iteration = E.LogReport(trigger=(2, 'iteration'), filename='log2', keys=['acc'])
    trainer.extend(log)
    trainer.extend(by_iteration)
    trainer.run()
    return _entries(log.log), _entries(by_iteration.log), _files(trainer)


def mock_trainer_micro_average(c):
    E = c.chainer.training.extensions
    trainer = _mock_trainer(
        c, (6, 'iteration'), 2, lambda i: {'main/correct': i, 'main/total': 4}
    )
    trainer.extend(E.MicroAverage('main/correct', 'main/total', 'main/accuracy'))
    log = E.LogReport(keys=['main/accuracy'])
    trainer.extend(log)
    trainer.run()
    return _entries(log.log)


def log_report_npz_round_trip(c):
    E = c.chainer.training.extensions
    trainer = _mock_trainer(c, (5, 'iteration'), 2, lambda i: {'loss': float(i)})
    log = E.LogReport(filename=None)
    trainer.extend(log)
    trainer.run()
    buf = io.BytesIO()
    c.chainer.serializers.save_npz(buf, log)
    buf.seek(0)
    fresh = E.LogReport()
    c.chainer.serializers.load_npz(buf, fresh)
    buf.seek(0)
    with numpy.load(buf) as f:
        stored = {k: (f[k].dtype.kind, f[k].shape) for k in f.files}
    return _entries(fresh.log), stored


def print_report_formats(c):
    # the columns of given entries: ints, small and large floats, NaN,
    # infinity, a missing value and a wide column
    E = c.chainer.training.extensions

    class Fixed(E.LogReport):
        def __init__(self, entries):
            super().__init__(filename=None)
            self._log = entries

        def __call__(self, trainer):
            pass

    entries = [
        {'a': 1, 'b': 0.000012345, 'long_name_of_a_column': 123456789.0},
        {'a': -3, 'b': float('nan'), 'c': float('inf')},
        {'b': 2.5, 'c': -0.0},
    ]
    out = io.StringIO()
    report = E.PrintReport(
        ['a', 'b', 'c', 'long_name_of_a_column'], log_report=Fixed(entries), out=out
    )
    trainer, _, _ = _trainer(c, stop=(1, 'iteration'))
    report(trainer)
    report(trainer)
    return out.getvalue()


def print_report_of_a_string(c):
    # Chainer's number format fails on a logged string
    E = c.chainer.training.extensions
    log = E.LogReport(filename=None)
    log._log.append({'s': 'text'})
    out = io.StringIO()
    trainer, _, _ = _trainer(c, stop=(1, 'iteration'))
    strings = E.PrintReport(['s'], log_report='LogReport', out=out)
    trainer.extend(log, trigger=lambda t: False)
    return _values.attempt(lambda: strings(trainer)), out.getvalue()


def micro_average_of_a_zero_denominator(c):
    E = c.chainer.training.extensions
    out = []
    for n, d in ((1, 0), (0, 0), (numpy.float64(1), numpy.float64(0))):
        trainer = _mock_trainer(
            c, (1, 'iteration'), 1, lambda i, n=n, d=d: {'n': n, 'd': d}
        )
        trainer.extend(E.MicroAverage('n', 'd', 'r', trigger=(1, 'iteration')))
        log = E.LogReport(keys=['r'], trigger=(1, 'iteration'), filename=None)
        trainer.extend(log)
        with numpy.errstate(all='ignore'):
            result = _values.attempt(lambda: trainer.run(show_loop_exception_msg=False))
        out.append([result, _entries(log.log)])
    return out


def evaluator_targets_of_other_forms(c):
    E = c.chainer.training.extensions
    _, _, model, data = _training.parts(c)
    it = c.chainer.iterators.SerialIterator(data, 6, repeat=False, shuffle=False)
    no_main = E.Evaluator(it, {'other': model})
    calls = []

    def fn(x, t):
        calls.append(len(x))

    plain = E.Evaluator(it, fn)
    return [
        _values.attempt(no_main),
        _values.attempt(lambda: E.Evaluator(it, model, eval_func=fn)()),
        _values.attempt(plain),
        calls,
    ]


def unchain_and_dump_graph_triggers(c):
    # their trigger methods called by hand, around initialize
    E = c.chainer.training.extensions
    unchain = E.unchain_variables()
    first = unchain.trigger(None)
    with c.chainer.using_config('keep_graph_on_report', True):
        unchain.initialize(None)
        flags = [unchain.trigger(None), unchain.trigger(None)]
    flags.append(unchain.trigger(None))
    dump = E.DumpGraph('main/loss')
    before = c.chainer.config.keep_graph_on_report
    dump.initialize(None)
    during = c.chainer.config.keep_graph_on_report
    fired = [dump.trigger(None), dump.trigger(None)]
    dump.initialize(None)
    c.chainer.config.keep_graph_on_report = before
    s = c.chainer.serializers.DictionarySerializer()
    dump.serialize(s)
    return [
        first,
        flags,
        before,
        during,
        fired,
        {k: bool(v) for k, v in s.target.items()},
    ]


def evaluator_subclass_and_variable_statistics_plot(c):
    # an Evaluator whose evaluate returns its own dict is reported as it
    # is; VariableStatisticsPlot without matplotlib warns and does nothing
    E = c.chainer.training.extensions
    trainer, model, data = _trainer(c, stop=(3, 'iteration'))
    it = c.chainer.iterators.SerialIterator(data, 6, repeat=False, shuffle=False)

    class Custom(E.Evaluator):
        def evaluate(self):
            return {'custom': 1.5, 'train': float(c.chainer.config.train)}

    log = E.LogReport(trigger=(1, 'iteration'))
    trainer.extend(Custom(it, model), trigger=(2, 'iteration'))
    trainer.extend(log)
    plot, warned = _warned(lambda: E.VariableStatisticsPlot(model))
    available, warned_again = _warned(E.VariableStatisticsPlot.available)
    trainer.extend(plot, trigger=(1, 'iteration'))
    trainer.run()
    return [_entries(log.log), warned, available, warned_again, _files(trainer)]


def print_report_before_training(c):
    # LogReport and PrintReport both called before the first iteration
    E = c.chainer.training.extensions
    trainer, _, _ = _trainer(c, stop=(2, 'iteration'))
    out = io.StringIO()
    trainer.extend(E.LogReport(trigger=(1, 'iteration')), call_before_training=True)
    trainer.extend(
        E.PrintReport(['epoch', 'iteration'], out=out),
        trigger=(1, 'iteration'),
        call_before_training=True,
    )
    trainer.run()
    return out.getvalue()


PROBES = _values.probes(globals(), __name__)
