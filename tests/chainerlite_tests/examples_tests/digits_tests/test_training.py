import re
import sys

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
        self.modes.append((chainer.config.train,
                           chainer.config.enable_backprop))
        return super().forward(x, t)


def _data(n=50, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, 4)).astype(numpy.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(numpy.int32)
    return x, t


def _setup(predictor=None, seed=0):
    numpy.random.seed(seed)
    model = _RecordingClassifier(predictor or L.Linear(4, 2))
    optimizer = optimizers.Adam(alpha=0.05)
    optimizer.setup(model)
    return model, optimizer


def test_epoch_uses_every_sample_once_in_shuffled_batches():
    model, optimizer = _setup()
    x, _ = _data()
    ids = numpy.arange(50, dtype=numpy.int32)  # labels that name samples
    model.lossfun = lambda y, t: chainer.functions.sum(y) * 0.0
    model.compute_accuracy = False
    training.train_epoch(model, optimizer, (x, ids), 16,
                         numpy.random.RandomState(0))
    seen = numpy.concatenate(model.batches)
    assert [len(b) for b in model.batches] == [16, 16, 16, 2]
    assert sorted(seen.tolist()) == ids.tolist()
    assert (seen != ids).any()


def test_epoch_updates_parameters_and_returns_mean_loss():
    model, optimizer = _setup()
    data = _data()
    before = model.predictor.W.array.copy()
    losses = [training.train_epoch(model, optimizer, data, 10,
                                   numpy.random.RandomState(i))
              for i in range(10)]
    assert optimizer.t == 50
    assert not numpy.array_equal(before, model.predictor.W.array)
    assert losses[-1] < 0.5 * losses[0]
    assert all(mode == (True, True) for mode in model.modes)


def test_mean_loss_weights_batches_by_their_size():
    model, optimizer = _setup()
    optimizer.hyperparam.alpha = 0.0
    x, t = _data(n=7)
    loss = training.train_epoch(model, optimizer, (x, t), 5,
                                numpy.random.RandomState(0))
    with chainer.no_backprop_mode():
        expected = float(model(x, t).array)
    assert loss == pytest.approx(expected, rel=1e-5)


def test_evaluate_runs_in_test_mode_without_graph_and_counts_correctly():
    model, _ = _setup()
    x, t = _data(n=23)
    expected = (model.predictor(x).array.argmax(axis=1) == t).mean()
    model.modes.clear()
    assert training.evaluate(model, (x, t), 5) == pytest.approx(expected)
    assert training.evaluate(model, (x, t), 100) == pytest.approx(expected)
    assert set(model.modes) == {(False, False)}


def test_fit_logs_one_line_per_epoch_and_learns():
    model, optimizer = _setup()
    data = _data()
    lines = []
    history = training.fit(model, optimizer, data, _data(seed=1), 5, 10,
                           numpy.random.RandomState(0), lines.append)
    assert [r['epoch'] for r in history] == [1, 2, 3, 4, 5]
    assert history[-1]['accuracy'] >= 0.9
    assert history[-1]['loss'] < history[0]['loss']
    assert len(lines) == 5
    for line, record in zip(lines, history):
        match = re.fullmatch(
            r' +epoch +(\d+) +train loss (\d\.\d{4}) +test accuracy '
            r'(\d\.\d{4}) +(\d+\.\d\d)s', line)
        assert match, line
        assert int(match.group(1)) == record['epoch']
        assert float(match.group(2)) == pytest.approx(record['loss'],
                                                      abs=5e-5)
        assert float(match.group(3)) == pytest.approx(record['accuracy'],
                                                      abs=5e-5)
        assert record['seconds'] > 0


def test_progress_bar_goes_to_stderr(capsys):
    pytest.importorskip('tqdm')
    model, optimizer = _setup()
    training.fit(model, optimizer, _data(), _data(seed=1), 2, 10,
                 numpy.random.RandomState(0), print, progress=True)
    captured = capsys.readouterr()
    assert 'epoch 2/2' in captured.err and 'batch' in captured.err
    assert 'epoch 2/2' not in captured.out


def test_progress_is_skipped_without_tqdm(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, 'tqdm', None)
    model, optimizer = _setup()
    training.fit(model, optimizer, _data(), _data(seed=1), 1, 10,
                 numpy.random.RandomState(0), print, progress=True)
    captured = capsys.readouterr()
    assert captured.err == ''
    assert 'epoch   1' in captured.out
