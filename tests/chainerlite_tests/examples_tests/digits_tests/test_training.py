import io
import json
import os

import numpy
import pytest

import chainerlite as chainer
import chainerlite.links as L
from chainerlite import optimizers
from chainerlite.examples.digits import training


class _RecordingClassifier(L.Classifier):
    # Records the labels of each call and the modes it runs in.
    def __init__(self, predictor):
        super().__init__(predictor)
        self.batches = []
        self.modes = []

    def forward(self, x, t):
        self.batches.append(numpy.array(t))
        self.modes.append((chainer.config.train, chainer.config.enable_backprop))
        return super().forward(x, t)


def _data(n=48, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, 4)).astype(numpy.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(numpy.int32)
    return x, t


def _setup(seed=0):
    numpy.random.seed(seed)
    model = _RecordingClassifier(L.Linear(4, 2))
    optimizer = optimizers.Adam(alpha=0.05)
    optimizer.setup(model)
    return model, optimizer


def _trainer(out, epochs, report=None, data=None, **kwargs):
    model, optimizer = _setup()
    data = data or (_data(), _data(n=20, seed=1))
    trainer = training.make_trainer(
        model, optimizer, data, epochs, 16, 0, str(out), report=report, **kwargs
    )
    return trainer, model


def test_train_iterator_shuffles_each_epoch_with_its_seed():
    ids = numpy.arange(12, dtype=numpy.int32)
    x = numpy.zeros((12, 4), numpy.float32)

    def two_epochs(seed):
        iterator = training.train_iterator((x, ids), 4, seed)
        return [[int(t) for _, t in next(iterator)] for _ in range(6)]

    batches = two_epochs(3)
    first, second = sum(batches[:3], []), sum(batches[3:], [])
    assert sorted(first) == sorted(second) == list(range(12))
    assert first != second and first != list(range(10))
    assert two_epochs(3) == batches
    assert two_epochs(4) != batches


def test_quiet_trainer_learns_evaluates_and_writes_nothing(tmp_path):
    trainer, model = _trainer(tmp_path / 'quiet', 5)
    trainer.run()
    log = training.history(trainer)
    assert [entry['epoch'] for entry in log] == [1, 2, 3, 4, 5]
    assert [entry['iteration'] for entry in log] == [3, 6, 9, 12, 15]
    assert log[-1]['main/loss'] < log[0]['main/loss']
    assert log[-1]['validation/main/accuracy'] >= 0.9
    assert os.listdir(trainer.out) == []
    # training batches in train mode; the evaluation without a graph
    assert {mode for mode in model.modes} == {(True, True), (False, False)}


def test_reporting_trainer_prints_logs_and_keeps_the_newest_snapshot(tmp_path):
    out = io.StringIO()
    trainer, _ = _trainer(tmp_path / 'run', 3, report=out)
    trainer.run()
    # PrintReport's rows follow its erase sequence, as Chainer's
    lines = out.getvalue().replace('\033[J', '').splitlines()
    assert lines[0].split() == training.PRINTED
    assert [line.split()[:2] for line in lines[1:]] == [
        ['1', '3'],
        ['2', '6'],
        ['3', '9'],
    ]
    assert sorted(os.listdir(trainer.out)) == ['log', 'snapshot_iter_9']
    assert training.snapshot_path(trainer) == os.path.join(
        trainer.out, 'snapshot_iter_9'
    )
    with open(os.path.join(trainer.out, 'log')) as f:
        assert json.load(f) == training.history(trainer)


def test_reporting_trainer_draws_the_plot(tmp_path):
    pytest.importorskip('matplotlib')
    trainer, _ = _trainer(tmp_path / 'plot', 2, report=io.StringIO(), plots=True)
    trainer.run()
    with open(os.path.join(trainer.out, training.PLOT), 'rb') as f:
        assert f.read(8) == b'\x89PNG\r\n\x1a\n'


def test_progress_bar_is_one_of_the_extensions_on_request(tmp_path):
    with_bar, _ = _trainer(tmp_path / 'a', 1, report=io.StringIO(), progress=True)
    without, _ = _trainer(tmp_path / 'b', 1, report=io.StringIO())
    assert 'ProgressBar' in with_bar._extensions
    assert 'ProgressBar' not in without._extensions


def test_resume_continues_the_iterations_and_the_log(tmp_path):
    first, _ = _trainer(tmp_path / 'r', 2, report=io.StringIO())
    first.run()
    weights = first.updater.get_optimizer('main').target.predictor.W.array
    second, model = _trainer(tmp_path / 'r', 4, report=io.StringIO())
    assert training.resume(second, training.snapshot_path(first)) == 6
    numpy.testing.assert_array_equal(model.predictor.W.array, weights)
    second.run()
    log = training.history(second)
    assert [entry['iteration'] for entry in log] == [3, 6, 9, 12]
    assert log[:2] == training.history(first)
    assert second.updater.get_optimizer('main').t == 12


def test_truncated_snapshot_leaves_the_new_trainer_as_it_was(tmp_path):
    first, _ = _trainer(tmp_path / 't', 1, report=io.StringIO())
    first.run()
    path = training.snapshot_path(first)
    with open(path, 'rb') as f:
        content = f.read()
    with open(path, 'wb') as f:
        f.write(content[: len(content) // 2])
    second, model = _trainer(tmp_path / 't2', 2, report=io.StringIO())
    before = model.predictor.W.array.copy()
    with pytest.raises(
        ValueError, match='cannot resume from the snapshot .*snapshot_iter_3'
    ):
        training.resume(second, path)
    assert second.updater.iteration == 0
    numpy.testing.assert_array_equal(model.predictor.W.array, before)
    second.run()
    assert second.updater.iteration == 6


def test_fit_returns_the_log_and_train_epoch_makes_one_pass(tmp_path):
    model, optimizer = _setup()
    data = (_data(), _data(n=20, seed=1))
    log = training.fit(model, optimizer, data, 2, 16, 0, str(tmp_path))
    assert [entry['epoch'] for entry in log] == [1, 2]
    model.batches.clear()
    training.train_epoch(optimizer, data[0], 16, 0)
    assert optimizer.t == 9
    assert [len(batch) for batch in model.batches] == [16, 16, 16]
