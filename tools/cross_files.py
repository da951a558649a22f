"""Files cross-read between Chainer 7.8.1 and chainerlite.

Run in the oracle venv (Chainer 7.8.1, NumPy 1.26, h5py)::

    /work/venv-oracle/bin/python -m tools.cross_files write [DIR]
    /work/venv-oracle/bin/python -m tools.cross_files check

``write`` makes the fixtures with Chainer (into
``tests/tools_tests/data/chainer_files`` by default): for each model of
``tools/cross_files_models.py``, after two updates, the model and its
optimizer as npz and hdf5 (``NAME.npz``, ``NAME.opt.npz``, ``NAME.h5``,
``NAME.opt.h5``), and in ``expected.npz`` what Chainer computes from them:
``NAME/y`` the test-mode output on the model's input and
``NAME/after/PATH`` each parameter after one more update. It also runs the
small trainer two iterations and writes its snapshot (``trainer.npz``),
then records its parameters after the next iteration
(``trainer/after/PATH``) and its state (``trainer/iteration``,
``trainer/alpha``).

``check`` is the reverse direction: chainerlite (this checkout) loads each
fixture, takes one update and saves model and optimizer as npz and hdf5;
Chainer loads those into fresh models and optimizers, and every array must
equal chainerlite's, and Chainer's next update must give what
chainerlite's gives. It prints one line per file and exits 1 on any
difference.
"""

import argparse
import pathlib
import sys
import tempfile

import numpy

from tools import cross_files_models as models
from tools import oracle_tree

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / 'tests' / 'tools_tests' / 'data' / 'chainer_files'
FORMATS = (('npz', 'save_npz', 'load_npz'), ('h5', 'save_hdf5', 'load_hdf5'))


def params(model):
    """Returns {path: array copy} of a model's parameters."""
    return {path: numpy.array(p.array) for path, p in sorted(model.namedparams())}


def write(out):
    """Writes the fixtures with Chainer into the folder ``out``."""
    import chainer

    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    numpy.random.seed(0)
    expected = {}
    for name in models.OPTIMIZERS:
        model = models.build(chainer, name)
        opt = models.optimizer(chainer, name, model)
        for _ in range(2):
            models.step(chainer, name, model, opt)
        for ext, save, _ in FORMATS:
            getattr(chainer.serializers, save)(
                str(out / ('%s.%s' % (name, ext))), model
            )
            getattr(chainer.serializers, save)(
                str(out / ('%s.opt.%s' % (name, ext))), opt
            )
        with chainer.using_config('train', False):
            expected[name + '/y'] = models.forward(
                chainer, name, model, models.inputs(name)
            ).array
        models.step(chainer, name, model, opt)
        for path, array in params(model).items():
            expected['%s/after%s' % (name, path)] = array
    with tempfile.TemporaryDirectory() as tmp:
        trainer = models.trainer(chainer, tmp)
        trainer.stop_trigger = chainer.training.get_trigger((2, 'iteration'))
        trainer.run()
        chainer.serializers.save_npz(str(out / 'trainer.npz'), trainer)
        trainer.updater.update()
        model = trainer.updater.get_optimizer('main').target
        for path, array in params(model).items():
            expected['trainer/after%s' % path] = array
    expected['trainer/alpha'] = numpy.float64(0.01 * 0.5**2)
    expected['trainer/iteration'] = numpy.int64(2)
    numpy.savez(str(out / 'expected.npz'), **expected)
    print('fixtures written to %s' % out)


def _compare(what, ours, theirs):
    bad = [k for k in ours if not numpy.array_equal(ours[k], theirs.get(k))]
    if set(ours) != set(theirs):
        bad.append('keys %s != %s' % (sorted(ours), sorted(theirs)))
    print('%-28s %s' % (what, 'same' if not bad else 'DIFFERENT: %s' % bad[:3]))
    return not bad


def _states(opt):
    return {
        '%s/%s' % (path, key): numpy.array(value)
        for path, param in sorted(opt.target.namedparams())
        for key, value in sorted(param.update_rule.state.items())
    }


def check(fixtures):
    """chainerlite writes, Chainer reads; returns True when all agree."""
    oracle_tree.use_working_tree()
    import chainer
    import chainerlite

    fixtures = pathlib.Path(fixtures)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for name in models.OPTIMIZERS:
            for ext, save, load in FORMATS:
                ours = models.build(chainerlite, name)
                our_opt = models.optimizer(chainerlite, name, ours)
                getattr(chainerlite.serializers, load)(
                    str(fixtures / ('%s.%s' % (name, ext))), ours
                )
                getattr(chainerlite.serializers, load)(
                    str(fixtures / ('%s.opt.%s' % (name, ext))), our_opt
                )
                models.step(chainerlite, name, ours, our_opt)
                files = [
                    pathlib.Path(tmp, '%s%s.%s' % (name, s, ext)) for s in ('', '.opt')
                ]
                getattr(chainerlite.serializers, save)(str(files[0]), ours)
                getattr(chainerlite.serializers, save)(str(files[1]), our_opt)
                theirs = models.build(chainer, name)
                their_opt = models.optimizer(chainer, name, theirs)
                getattr(chainer.serializers, load)(str(files[0]), theirs)
                getattr(chainer.serializers, load)(str(files[1]), their_opt)
                ok &= _compare(
                    '%s.%s params' % (name, ext), params(ours), params(theirs)
                )
                ok &= _compare(
                    '%s.opt.%s states' % (name, ext),
                    _states(our_opt),
                    _states(their_opt),
                )
                ok &= our_opt.t == their_opt.t
                for theirs_obj, file in ((theirs, files[0]), (their_opt, files[1])):
                    again = pathlib.Path(tmp, 'again.npz')
                    chainer.serializers.save_npz(str(again), theirs_obj)
                    ok &= _compare(
                        '%s rewritten' % file.name, contents(file), contents(again)
                    )
                models.step(chainerlite, name, ours, our_opt)
                models.step(chainer, name, theirs, their_opt)
                ours_after, theirs_after = params(ours), params(theirs)
                close = all(
                    numpy.allclose(ours_after[k], theirs_after[k], rtol=1e-5, atol=1e-6)
                    for k in ours_after
                )
                print(
                    '%-28s %s'
                    % (
                        '%s.%s next update' % (name, ext),
                        'same' if close else 'DIFFERENT',
                    )
                )
                ok &= close
        ok &= _check_trainer(fixtures, tmp)
    return ok


def contents(path):
    """Returns {key: array} of an npz or hdf5 file, keys as npz writes them."""
    if path.suffix == '.npz':
        with numpy.load(str(path)) as f:
            return {k: f[k] for k in f.files}
    import h5py

    found = {}
    with h5py.File(str(path), 'r') as f:
        f.visititems(
            lambda k, obj: (
                found.__setitem__(k, obj[()]) if isinstance(obj, h5py.Dataset) else None
            )
        )
    return found


def _check_trainer(fixtures, tmp):
    # chainerlite resumes Chainer's snapshot, runs an iteration and writes
    # its own; Chainer resumes that one, and both run one more iteration.
    import chainer
    import chainerlite

    ours = models.trainer(chainerlite, tmp)
    chainerlite.serializers.load_npz(str(fixtures / 'trainer.npz'), ours)
    ours.get_extension('ExponentialShift').initialize(ours)
    ours.updater.update()
    snapshot = pathlib.Path(tmp, 'ours_trainer.npz')
    chainerlite.serializers.save_npz(str(snapshot), ours)
    theirs = models.trainer(chainer, tmp)
    chainer.serializers.load_npz(str(snapshot), theirs)
    theirs.get_extension('ExponentialShift').initialize(theirs)
    models_of = [t.updater.get_optimizer('main').target for t in (ours, theirs)]
    ok = _compare('trainer snapshot params', *(params(m) for m in models_of))
    ok &= ours.updater.iteration == theirs.updater.iteration == 3
    for trainer in (ours, theirs):
        trainer.updater.update()
    after = [params(m) for m in models_of]
    close = all(
        numpy.allclose(after[0][k], after[1][k], rtol=1e-5, atol=1e-6) for k in after[0]
    )
    print('%-28s %s' % ('trainer next update', 'same' if close else 'DIFFERENT'))
    return ok and close


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('command', choices=['write', 'check'])
    parser.add_argument('dir', nargs='?', default=str(DEFAULT_DIR))
    args = parser.parse_args(argv)
    if args.command == 'write':
        write(args.dir)
        return 0
    return 0 if check(args.dir) else 1


if __name__ == '__main__':
    sys.exit(main())
