"""Files written by Chainer 7.8.1 load into chainerlite with the same values,
and chainerlite writes the layout Chainer writes.

The fixtures in data/chainer_files were written by Chainer 7.8.1 with
``python -m tools.cross_files write`` (models, optimizers and a trainer
snapshot; ``expected.npz`` holds what Chainer computed from them); the
reverse direction against Chainer itself is ``tools.cross_files check``,
run in the oracle venv.
"""

from unittest import mock

import numpy
import pytest

import chainerlite
from tools import cross_files
from tools import cross_files_models as models

try:
    import h5py  # NOQA: F401
except ImportError:
    h5py = None
_needs_h5py = pytest.mark.skipif(h5py is None, reason='needs h5py')

DATA = cross_files.DEFAULT_DIR
# the hdf5 cases need h5py (a test dependency); the npz ones run without it
FORMATS = [
    pytest.param(ext, marks=[] if ext == 'npz' else [_needs_h5py])
    for ext, _, _ in cross_files.FORMATS
]
NAMES = sorted(models.OPTIMIZERS)


@pytest.fixture(scope='module')
def expected():
    with numpy.load(str(DATA / 'expected.npz')) as f:
        return {k: f[k] for k in f.files}


def _load(name, ext):
    model = models.build(chainerlite, name)
    opt = models.optimizer(chainerlite, name, model)
    _, _, load = dict((f[0], f) for f in cross_files.FORMATS)[ext]
    getattr(chainerlite.serializers, load)(str(DATA / ('%s.%s' % (name, ext))), model)
    getattr(chainerlite.serializers, load)(str(DATA / ('%s.opt.%s' % (name, ext))), opt)
    return model, opt


@pytest.mark.parametrize('ext', FORMATS)
@pytest.mark.parametrize('name', NAMES)
def test_chainer_file_loads_with_its_values(name, ext, expected):
    model, opt = _load(name, ext)
    stored = cross_files.contents(DATA / ('%s.%s' % (name, ext)))
    for path, array in cross_files.params(model).items():
        numpy.testing.assert_array_equal(array, stored[path.lstrip('/')])
    for path, value in stored.items():
        # persistent values too (BatchNormalization's statistics, N)
        target = model
        *links, attr = path.split('/')
        for part in links:
            # a list's keys number its children (for a Sequential, not the
            # positions of its layers)
            target = (
                list(target.children())[int(part)]
                if isinstance(target, chainerlite.ChainList)
                else getattr(target, part)
            )
        held = getattr(target, attr)
        numpy.testing.assert_array_equal(
            numpy.asarray(getattr(held, 'array', held)), value
        )
    with chainerlite.using_config('train', False):
        y = models.forward(chainerlite, name, model, models.inputs(name))
    numpy.testing.assert_allclose(y.array, expected[name + '/y'], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('ext', FORMATS)
@pytest.mark.parametrize('name', NAMES)
def test_chainer_optimizer_state_continues(name, ext, expected):
    model, opt = _load(name, ext)
    assert opt.t == 2
    models.step(chainerlite, name, model, opt)
    for path, array in cross_files.params(model).items():
        want = expected['%s/after%s' % (name, path)]
        numpy.testing.assert_allclose(array, want, rtol=1e-5, atol=1e-6, err_msg=path)


def _layout(contents):
    return {
        k: (v.dtype.kind if v.dtype.kind in 'US' else v.dtype.str, v.shape)
        for k, v in contents.items()
    }


@pytest.mark.parametrize('ext', FORMATS)
@pytest.mark.parametrize('name', NAMES)
def test_written_files_have_chainers_layout(name, ext, tmp_path):
    model, opt = _load(name, ext)
    _, save, _ = dict((f[0], f) for f in cross_files.FORMATS)[ext]
    for obj, suffix in ((model, ''), (opt, '.opt')):
        ours = tmp_path / ('%s%s.%s' % (name, suffix, ext))
        getattr(chainerlite.serializers, save)(str(ours), obj)
        theirs = cross_files.contents(DATA / ours.name)
        mine = cross_files.contents(ours)
        assert _layout(mine) == _layout(theirs)
        for key in theirs:
            numpy.testing.assert_array_equal(mine[key], theirs[key], err_msg=key)


def test_trainer_resumes_from_chainer_snapshot(tmp_path, expected):
    trainer = models.trainer(chainerlite, str(tmp_path))
    chainerlite.serializers.load_npz(str(DATA / 'trainer.npz'), trainer)
    updater = trainer.updater
    opt = updater.get_optimizer('main')
    assert updater.iteration == expected['trainer/iteration']
    assert opt.t == 2
    # As in Chainer, the shifted value comes back when the trainer starts
    # its extensions (Trainer.run calls initialize).
    assert opt.alpha == 0.01
    trainer.get_extension('ExponentialShift').initialize(trainer)
    assert opt.alpha == pytest.approx(expected['trainer/alpha'])
    log = trainer.get_extension('LogReport').log
    assert [entry['iteration'] for entry in log] == [1, 2]
    updater.update()
    for path, array in cross_files.params(opt.target).items():
        numpy.testing.assert_allclose(
            array, expected['trainer/after' + path], rtol=1e-5, atol=1e-6, err_msg=path
        )


def test_trainer_snapshot_has_chainers_layout(tmp_path):
    trainer = models.trainer(chainerlite, str(tmp_path))
    chainerlite.serializers.load_npz(str(DATA / 'trainer.npz'), trainer)
    ours = tmp_path / 'snapshot.npz'
    # A trainer that has not run cannot be saved, loaded or not (Chainer
    # 7.8.1's RuntimeError of elapsed_time): saved as a running one is
    with mock.patch.object(type(trainer), 'elapsed_time', property(lambda self: 0.0)):
        chainerlite.serializers.save_npz(str(ours), trainer)
    theirs, mine = (
        cross_files.contents(DATA / 'trainer.npz'),
        cross_files.contents(ours),
    )
    # chainerlite's snapshot also holds NumPy's random state
    # (docs/differences.rst, Randomness).
    assert mine.pop('_random_state/numpy').dtype == numpy.uint8
    assert _layout(mine).keys() == _layout(theirs).keys()
    for key, value in theirs.items():
        if value.dtype.kind not in 'US' and key != '_snapshot_elapsed_time':
            numpy.testing.assert_array_equal(mine[key], value, err_msg=key)


def test_resumed_run_skips_the_before_training_calls(tmp_path):
    # Recorded on Chainer 7.8.1 with the same snapshot: is_before_training
    # is False after the load (iteration 2), the extension registered with
    # call_before_training=True runs at iterations 3 and 4 only, and the
    # LogReport goes on from its two entries.
    trainer = models.trainer(chainerlite, str(tmp_path))
    assert trainer.is_before_training
    chainerlite.serializers.load_npz(str(DATA / 'trainer.npz'), trainer)
    seen = []
    trainer.extend(
        lambda t: seen.append((t.updater.iteration, t.is_before_training)),
        name='probe',
        trigger=(1, 'iteration'),
        call_before_training=True,
    )
    assert not trainer.is_before_training
    trainer.run()
    assert seen == [(3, False), (4, False)]
    log = trainer.get_extension('LogReport').log
    assert [entry['iteration'] for entry in log] == [1, 2, 3, 4]
