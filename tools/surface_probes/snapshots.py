"""snapshot and snapshot_object in a run: their attributes, the files they
write (format keys, callable names, n_retains, condition), savefun and
writer arguments, autoload, snapshot_on_error, and the writers called
directly."""

import os
import tempfile
import warnings

import numpy

from tools.surface_probes import _training
from tools.surface_probes import _values


def _trainer(c, stop=(6, 'iteration'), out=None):
    trainer, model, _ = _training.trainer(c, stop, n=8, out=out)
    return trainer, model


def _files(trainer):
    return sorted(os.listdir(trainer.out))


def _keys(path):
    with numpy.load(path) as f:
        return sorted(f.files)


def snapshot_attributes(c):
    E = c.chainer.training.extensions
    snap = E.snapshot()
    obj = E.snapshot_object(object(), 'x_{.updater.epoch}')
    trainer, _ = _trainer(c)
    trainer.extend(snap)
    trainer.extend(obj)
    trainer.extend(E.snapshot(filename='other'))
    return [
        snap.filename,
        snap.trigger,
        snap.priority,
        snap.n_retains,
        snap.autoload,
        snap.condition(),
        type(snap.writer).__name__,
        obj.filename,
        obj.trigger,
        snap.default_name,
        list(trainer._extensions),
    ]


def snapshot_files_of_a_run(c):
    E = c.chainer.training.extensions
    trainer, model = _trainer(c)
    trainer.extend(E.snapshot(), trigger=(2, 'iteration'))
    trainer.extend(
        E.snapshot_object(model, 'model_{0.updater.epoch}_{0.updater.iteration}'),
        trigger=(3, 'iteration'),
    )
    trainer.extend(
        E.snapshot_object(model.predictor, lambda t: 'called_%d' % t.updater.iteration),
        trigger=(6, 'iteration'),
    )
    trainer.run()
    files = _files(trainer)
    return [
        files,
        _keys(os.path.join(trainer.out, 'model_1_3')),
        _keys(os.path.join(trainer.out, 'called_6')),
        [
            k
            for k in _keys(os.path.join(trainer.out, 'snapshot_iter_4'))
            if 'random' not in k
        ],
    ]


def snapshot_n_retains(c):
    E = c.chainer.training.extensions
    out = []
    for kwargs in ({'n_retains': 2}, {'n_retains': 0}, {'num_retain': 1}):
        trainer, model = _trainer(c)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            trainer.extend(
                E.snapshot_object(model, 'm_{.updater.iteration}.npz', **kwargs),
                trigger=(1, 'iteration'),
            )
            trainer.extend(
                E.snapshot(filename='s_{.updater.iteration}', **kwargs),
                trigger=(2, 'iteration'),
            )
            trainer.run()
        out.append([_files(trainer), sorted({x.category.__name__ for x in w})])
    return out


def snapshot_condition_and_savefun(c):
    E = c.chainer.training.extensions
    trainer, model = _trainer(c)
    saved = []
    flips = iter([True, False, True, False, True, False])

    def savefun(path, target):
        kept = [k for k in target if not k.startswith('_random_state')]
        saved.append((os.path.basename(path), isinstance(target, dict), len(kept)))
        with open(path, 'w') as f:
            f.write('x')

    trainer.extend(
        E.snapshot(
            savefun=savefun,
            condition=lambda: next(flips),
            filename='s{.updater.iteration}',
        ),
        trigger=(1, 'iteration'),
    )
    trainer.run()
    return saved, _files(trainer)


def snapshot_writer_argument(c):
    E = c.chainer.training.extensions
    trainer, model = _trainer(c, stop=(2, 'iteration'))
    calls = []

    def writer(filename, outdir, target):
        calls.append(
            (filename, outdir == trainer.out, isinstance(target, dict), sorted(target))
        )

    trainer.extend(
        E.snapshot_object(model, 'w{.updater.iteration}', writer=writer),
        trigger=(1, 'iteration'),
    )
    trainer.run()
    simple = E.snapshot_writers.SimpleWriter()
    t = E.snapshot(writer=simple)
    return [
        calls,
        _files(trainer),
        t.writer is simple,
        _values.attempt(lambda: E.snapshot(savefun=lambda p, t: None, writer=writer)),
        _values.attempt(lambda: E.snapshot(unknown=1)),
        _values.attempt(lambda: E.snapshot_object(model, 'f', unknown=1)),
    ]


def snapshot_autoload(c):
    E = c.chainer.training.extensions
    out = tempfile.mkdtemp()
    trainer, _ = _trainer(c, stop=(3, 'iteration'), out=out)
    trainer.extend(
        E.snapshot(filename='snap_{.updater.iteration}'), trigger=(1, 'iteration')
    )
    trainer.run()
    trainer2, model2 = _trainer(c, stop=(5, 'iteration'), out=out)
    ext = E.snapshot(filename='snap_{.updater.iteration}', autoload=True)
    trainer2.extend(ext, trigger=(1, 'iteration'))
    seen = []
    trainer2.extend(
        c.chainer.training.make_extension(trigger=(1, 'iteration'))(
            lambda t: seen.append(t.updater.iteration)
        )
    )
    trainer2.run()
    empty, _ = _trainer(c, stop=(1, 'iteration'))
    empty.extend(E.snapshot(autoload=True))
    empty.run()
    return (
        seen,
        _files(trainer2),
        empty.updater.iteration,
        [p.array for p in model2.params()],
    )


def snapshot_on_error(c):
    T = c.chainer.training
    E = T.extensions
    out = []
    for on_error in (True, False):
        trainer, _ = _trainer(c, stop=(5, 'iteration'))
        trainer.extend(
            E.snapshot(snapshot_on_error=on_error, filename='err_{.updater.iteration}')
        )

        @T.make_extension(trigger=(1, 'iteration'))
        def fail(t):
            if t.updater.iteration == 2:
                raise ValueError('stop')

        trainer.extend(fail)
        result = _values.attempt(lambda: trainer.run(show_loop_exception_msg=False))
        out.append([result, _files(trainer)])
    return out


def writers_called_directly(c):
    W = c.chainer.training.extensions.snapshot_writers
    out = tempfile.mkdtemp()
    target = {'a': numpy.arange(3)}
    seen = []

    def savefun(path, obj, **kwargs):
        seen.append((os.path.basename(path), sorted(obj), sorted(kwargs)))
        numpy.savez(path, **obj)

    W.SimpleWriter(savefun=savefun)('simple.npz', out, target)
    thread = W.ThreadWriter(savefun=savefun)
    thread('thread.npz', out, target)
    thread.finalize()
    queue = W.ThreadQueueWriter(savefun=savefun)
    queue('queued.npz', out, target)
    queue.finalize()
    base = W.Writer()
    return [
        seen,
        sorted(os.listdir(out)),
        _values.attempt(lambda: base('f', out, target)),
        base.finalize(),
        _values.attempt(lambda: W.StandardWriter()('f', out, target)),
        thread._finalized,
    ]


def writer_keywords_reach_savefun(c):
    # Chainer 7.8.1's writers drop their keyword arguments
    W = c.chainer.training.extensions.snapshot_writers
    out = tempfile.mkdtemp()
    seen = []

    def savefun(path, obj, **kwargs):
        seen.append(sorted(kwargs))
        numpy.savez(path, **obj)

    W.SimpleWriter(savefun=savefun, compression=False)('simple.npz', out, {'a': 1})
    return seen


def snapshot_target_and_callable_names(c):
    # snapshot(target=...) saves that object; n_retains and autoload only
    # apply to a format string
    E = c.chainer.training.extensions
    trainer, model = _trainer(c, stop=(4, 'iteration'))
    trainer.extend(
        E.snapshot(target=model.predictor, filename='t{.updater.iteration}'),
        trigger=(2, 'iteration'),
    )
    trainer.extend(
        E.snapshot_object(model, lambda t: 'c%d' % t.updater.iteration, n_retains=1),
        trigger=(1, 'iteration'),
    )
    trainer.run()
    return _files(trainer), _keys(os.path.join(trainer.out, 't4'))


PROBES = _values.probes(globals(), __name__)
