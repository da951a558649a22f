"""The Trainer and the Extension protocol: extend's names, triggers and
priorities, what run does before, during and after the loop (twice,
errors, call_before_training, finished triggers), elapsed_time, out,
the keys of its snapshot, and make_extension's attributes."""

import contextlib
import io
import os
import tempfile

from tools.surface_probes import _training
from tools.surface_probes import _values


def _trainer(c, stop=(3, 'iteration'), out=None, **kwargs):
    return _training.trainer(c, stop, n=8, out=out, **kwargs)[0]


def extension_class_defaults(c):
    T = c.chainer.training
    ext = T.Extension()
    return [
        ext.trigger,
        ext.priority,
        ext.name,
        ext.default_name,
        _values.attempt(lambda: ext(None)),
        _values.attempt(lambda: ext.invoke_before_training),
        _values.attempt(lambda: ext.anything),
        ext.initialize(None),
        ext.finalize(),
        ext.on_error(None, None, None),
        ext.serialize(None),
        [T.PRIORITY_WRITER, T.PRIORITY_EDITOR, T.PRIORITY_READER],
        T.extension.PRIORITY_WRITER,
    ]


def make_extension_attributes(c):
    T = c.chainer.training

    def fn(trainer):
        pass

    def init(trainer):
        pass

    plain = T.make_extension()(fn)
    same = plain is fn
    attrs = [
        fn.trigger,
        fn.default_name,
        fn.priority,
        fn.finalize,
        fn.on_error,
        fn.initialize,
    ]

    def other(trainer):
        pass

    T.make_extension(
        trigger=(2, 'epoch'),
        default_name='named',
        priority=T.PRIORITY_EDITOR,
        initializer=init,
    )(other)
    return [
        same,
        attrs,
        [other.trigger, other.default_name, other.priority, other.initialize is init],
        _values.attempt(lambda: T.make_extension(invoke_before_training=True)),
        _values.attempt(lambda: T.make_extension(unknown=True)),
    ]


def extend_names(c):
    T = c.chainer.training
    trainer = _trainer(c)

    class Ext(T.Extension):
        def __call__(self, t):
            pass

    class Named(Ext):
        name = 'given'

    class Default(Ext):
        default_name = 'by_default'

    class Callable:
        def __call__(self, t):
            pass

    exts = [Ext(), Ext(), Ext(), Named(), Default(), Default()]
    for ext in exts:
        trainer.extend(ext)
    trainer.extend(Ext(), name='explicit')
    trainer.extend(lambda t: None)
    trainer.extend(Ext(), name='given')
    return [
        list(trainer._extensions),
        [e.name for e in exts],
        _values.attempt(lambda: trainer.extend(Callable())),
        _values.attempt(lambda: trainer.extend(Ext(), name='training')),
        _values.attempt(lambda: trainer.extend(Ext(), invoke_before_training=True)),
        _values.attempt(lambda: trainer.extend(Ext(), unknown=True)),
        type(trainer.get_extension('given')).__name__,
        _values.attempt(lambda: trainer.get_extension('nothing')),
    ]


def extend_triggers_and_priorities(c):
    T = c.chainer.training
    trainer = _trainer(c, stop=(4, 'iteration'))
    calls = []

    class Ext(T.Extension):
        def __init__(self, tag):
            self.tag = tag

        def __call__(self, t):
            calls.append((self.tag, t.updater.iteration))

    class Every2(Ext):
        trigger = (2, 'iteration')
        priority = T.PRIORITY_WRITER

    trainer.extend(Ext('reader'))
    trainer.extend(Every2('writer'))
    trainer.extend(Ext('editor'), priority=T.PRIORITY_EDITOR)
    trainer.extend(Ext('third'), trigger=(3, 'iteration'))
    trainer.extend(Ext('never'), trigger=lambda t: False)
    trainer.extend(Ext('low'), priority=-5)
    trainer.extend(
        Ext('sparse'), trigger=T.triggers.ManualScheduleTrigger([1, 4], 'iteration')
    )
    entries = trainer._extensions
    trainer.run()
    return calls, [entries[k].priority for k in entries]


def call_before_training(c):
    trainer = _trainer(c, stop=(2, 'iteration'))
    calls = []

    def ext(t):
        calls.append((t.updater.iteration, t.is_before_training, sorted(t.observation)))

    trainer.extend(ext, name='before', call_before_training=True)
    trainer.extend(lambda t: calls.append('after'), name='plain')
    trainer.run()
    return calls


def initialize_and_finished_triggers(c):
    # initialize is skipped for an extension whose trigger says finished
    T = c.chainer.training
    trainer = _trainer(c, stop=(2, 'iteration'))
    seen = []

    class Ext(T.Extension):
        def __init__(self, tag):
            self.tag = tag

        def initialize(self, t):
            seen.append(('init', self.tag))

        def __call__(self, t):
            seen.append(('call', self.tag, t.updater.iteration))

    done = T.triggers.OnceTrigger()
    done._flag_first = False
    trainer.extend(Ext('finished'), trigger=done)
    trainer.extend(Ext('once'), trigger=T.triggers.OnceTrigger())
    trainer.extend(Ext('plain'))
    trainer.run()
    return seen


def run_twice_and_elapsed_time(c):
    trainer = _trainer(c, stop=(2, 'iteration'))
    before = _values.attempt(lambda: trainer.elapsed_time)
    first = trainer.is_before_training
    trainer.run()
    after = trainer.elapsed_time >= 0
    return [
        before,
        first,
        trainer.is_before_training,
        after,
        trainer.elapsed_time == trainer.elapsed_time,
        _values.attempt(lambda: trainer.run(show_loop_exception_msg=False)),
        trainer.updater.iteration,
    ]


def out_directory_and_defaults(c):
    root = tempfile.mkdtemp()
    out = os.path.join(root, 'a', 'b')
    trainer = _trainer(c, stop=(1, 'iteration'), out=out)
    existed = os.path.isdir(out)
    trainer.run()
    plain = c.chainer.training.Trainer(_trainer(c).updater)
    return [
        existed,
        os.path.isdir(out),
        plain.out,
        plain.stop_trigger is c.chainer.training.util._never_fire_trigger,
        plain.observation,
        sorted(plain.reporter._observer_names.values()),
        type(_trainer(c).stop_trigger).__name__,
    ]


def extensions_argument(c):
    T = c.chainer.training
    calls = []

    @T.make_extension(default_name='first')
    def a(t):
        calls.append('a')

    @T.make_extension(priority=T.PRIORITY_WRITER)
    def b(t):
        calls.append('b')

    trainer = _trainer(c, stop=(1, 'iteration'), extensions=[a, b])
    trainer.run()
    return list(trainer._extensions), calls


def errors_in_the_loop(c):
    T = c.chainer.training
    trainer = _trainer(c, stop=(5, 'iteration'))
    seen = []

    class Failing(T.Extension):
        def __call__(self, t):
            if t.updater.iteration == 2:
                raise KeyError('boom')

        def on_error(self, t, exc, tb):
            seen.append(('failing.on_error', type(exc).__name__, tb is not None))

        def finalize(self):
            seen.append('failing.finalize')

    class BadHandler(T.Extension):
        priority = T.PRIORITY_WRITER

        def __call__(self, t):
            pass

        def on_error(self, t, exc, tb):
            seen.append('bad.on_error')
            raise ValueError('in the handler')

        def finalize(self):
            seen.append('bad.finalize')

    trainer.extend(Failing())
    trainer.extend(BadHandler())
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        result = _values.attempt(trainer.run)
    text = err.getvalue()
    return [
        result,
        seen,
        trainer.updater.iteration,
        'Exception in main training loop' in text,
        'Exception in error handler' in text,
        _values.attempt(lambda: trainer.elapsed_time >= 0),
    ]


def errors_without_the_message(c):
    T = c.chainer.training
    trainer = _trainer(c, stop=(5, 'iteration'))

    @T.make_extension()
    def failing(t):
        raise RuntimeError('stop')

    trainer.extend(failing)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        result = _values.attempt(lambda: trainer.run(show_loop_exception_msg=False))
    return result, err.getvalue()


def snapshot_of_a_trainer(c):
    T = c.chainer.training
    E = T.extensions
    trainer = _trainer(c, stop=(3, 'iteration'))
    trainer.extend(E.LogReport(trigger=(2, 'iteration')))
    trainer.extend(E.observe_lr())
    trainer.extend(
        E.ExponentialShift('lr', 0.5),
        trigger=T.triggers.ManualScheduleTrigger([2], 'iteration'),
    )
    trainer.extend(lambda t: None, name='plain', trigger=T.triggers.OnceTrigger())
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    trainer.serialize(s)
    return sorted(k for k in s.target if not k.startswith('_random_state'))


def resumed_trainer(c):
    # a trainer loaded from a snapshot goes on from its iteration with the
    # saved elapsed time
    T = c.chainer.training
    E = T.extensions
    trainer = _trainer(c, stop=(2, 'iteration'))
    log = E.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log)
    trainer.run()
    s = c.chainer.serializers.DictionarySerializer()
    trainer.serialize(s)
    trainer2 = _trainer(c, stop=(4, 'iteration'))
    log2 = E.LogReport(trigger=(1, 'iteration'))
    trainer2.extend(log2)
    trainer2.serialize(c.chainer.serializers.NpzDeserializer(s.target))
    loaded = [trainer2.updater.iteration, len(log2.log), trainer2.is_before_training]
    saved_time = float(s.target['_snapshot_elapsed_time'])
    trainer2.run()
    return [
        loaded,
        [e['iteration'] for e in log2.log],
        trainer2.elapsed_time >= saved_time,
        saved_time > 0,
    ]


def get_trainer_with_mock_updater(c):
    import importlib

    testing = importlib.import_module(c.chainer.__name__ + '.testing')
    trainer = testing.get_trainer_with_mock_updater((3, 'epoch'), iter_per_epoch=2)
    u = trainer.updater
    steps = []
    for _ in range(3):
        u.update()
        steps.append(
            [
                u.iteration,
                u.epoch,
                u.epoch_detail,
                u.is_new_epoch,
                u.previous_epoch_detail,
            ]
        )
    return [
        steps,
        type(trainer.stop_trigger).__name__,
        trainer.out,
        _values.attempt(lambda: u.get_optimizer('main')),
        _values.attempt(lambda: testing.get_trainer_with_mock_updater(unknown=1)),
    ]


def snapshot_before_run_and_after_load(c):
    # saving needs the elapsed time: before run it is not there yet; a
    # loaded trainer has not started either
    trainer = _trainer(c, stop=(2, 'iteration'))
    before = _values.attempt(
        lambda: c.chainer.serializers.save_npz(io.BytesIO(), trainer)
    )
    trainer.run()
    buf = io.BytesIO()
    c.chainer.serializers.save_npz(buf, trainer)
    buf.seek(0)
    loaded = _trainer(c, stop=(3, 'iteration'))
    c.chainer.serializers.load_npz(buf, loaded)
    return [
        before,
        _values.attempt(lambda: loaded.elapsed_time),
        loaded.updater.iteration,
        loaded.is_before_training,
    ]


def early_stopping_as_the_stop_trigger(c):
    # a run stopped by EarlyStoppingTrigger on the validation loss of a
    # learning rate too large to improve it
    T = c.chainer.training
    E = T.extensions
    trainer = _trainer(c, stop=None)
    opt = trainer.updater.get_optimizer('main')
    opt.lr = 20.0
    trainer.stop_trigger = T.triggers.EarlyStoppingTrigger(
        monitor='validation/main/loss', patience=2, max_trigger=(12, 'epoch')
    )
    data = _training.data(c, 8)
    it = c.chainer.iterators.SerialIterator(data, 8, repeat=False, shuffle=False)
    trainer.extend(E.Evaluator(it, opt.target))
    log = E.LogReport()
    trainer.extend(log)
    trainer.run()
    return trainer.updater.iteration, trainer.updater.epoch, len(log.log)


PROBES = _values.probes(globals(), __name__)
