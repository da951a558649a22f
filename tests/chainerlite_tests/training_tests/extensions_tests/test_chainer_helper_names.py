"""Helpers of Chainer 7.8.1's training extensions that code built on Chainer
reaches: the progress-bar base class, QueueWriter.create_task,
is_return_code_zero, Statistician.collect, size_num_grads and
chainer.training._updater (values recorded with Chainer 7.8.1)."""

import io
import sys

import numpy as np

import chainerlite
from chainerlite.training import _updater
from chainerlite.training import updater
from chainerlite.training.extensions import computational_graph
from chainerlite.training.extensions import snapshot_writers
from chainerlite.training.extensions import util
from chainerlite.training.extensions import variable_statistics_plot as vsp
from chainerlite.training.updaters import multiprocess_parallel_updater as mpu


class _TwoLines(util.ProgressBar):
    def get_lines(self):
        return ['a\n', 'bb\n']


def test_progress_bar_update_and_close_write_chainers_sequence():
    out = io.StringIO()
    bar = _TwoLines(out=out)
    bar.update()
    bar.close()
    assert out.getvalue() == '\x1b[Ja\nbb\n\x1b[2A\x1b[J'


def test_progress_bar_defaults_and_abstract_lines(monkeypatch):
    monkeypatch.setattr(sys, 'stdout', io.StringIO())
    bar = util.ProgressBar()
    assert bar._bar_length == 50 and bar._out is sys.stdout
    try:
        bar.get_lines()
    except NotImplementedError as e:
        assert 'get_lines' in str(e)
    else:
        raise AssertionError('get_lines must be implemented by subclasses')


def test_progress_bar_update_speed(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(util.time, 'time', lambda: now[0])
    bar = util.ProgressBar(out=io.StringIO())
    assert bar.update_speed(0, 0.0) == (float('inf'), float('inf'))
    now[0] = 102.0
    assert bar.update_speed(10, 0.5) == (5.0, 0.25)
    for i in range(150):  # only the last 100 records count
        now[0] += 1.0
        speed_t, _ = bar.update_speed(10 + 3 * (i + 1), 0.5)
    assert speed_t == 3.0


def test_queue_writer_uses_create_task(tmp_path):
    saved = []

    class Recording(snapshot_writers.ThreadQueueWriter):
        def create_task(self, savefun):
            task = super().create_task(savefun)
            assert isinstance(task, snapshot_writers.SimpleWriter)
            saved.append(task)
            return task

    # the saving function must write the file (as in Chainer, a missing
    # one fails the move into place)
    writer = Recording(savefun=lambda path, target: open(path, 'w').close())
    writer('snap', str(tmp_path), {'a': 1})
    writer.finalize()
    assert len(saved) == 1 and writer._task is saved[0]


def test_is_return_code_zero():
    assert computational_graph.is_return_code_zero([sys.executable, '-c', 'pass'])
    assert not computational_graph.is_return_code_zero(
        [sys.executable, '-c', 'import sys; print("x"); sys.exit(3)']
    )
    assert not computational_graph.is_return_code_zero(['no-such-command-xyz'])


def test_statistician_collect_matches_chainer():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    stats = vsp.Statistician(True, True, (0, 50, 100)).collect(x, (0, 2))
    assert stats['mean'].dtype == np.float32 and stats['mean'].tolist() == [
        7.5,
        11.5,
        15.5,
    ]
    np.testing.assert_allclose(stats['std'], [6.103277683258057] * 3)
    assert stats['percentile'].dtype == np.float64
    assert stats['percentile'].tolist() == [
        [0.0, 4.0, 8.0],
        [7.5, 11.5, 15.5],
        [15.0, 19.0, 23.0],
    ]
    only_mean = vsp.Statistician(True, False, ()).collect(x, (1,))
    assert list(only_mean) == ['mean'] and only_mean['mean'].shape == (2, 4)


def test_statistician_call_goes_through_collect():
    class Max(vsp.Statistician):
        def collect(self, x, axis):
            return {'max': x.max(axis=axis), 'axis': axis}

    x = np.arange(6.0).reshape(2, 3)
    assert Max(True, True, ())(x, axis=1)['axis'] == (1,)
    assert Max(True, True, ())(x, axis=None)['axis'] == (0, 1)
    shapes = vsp.Statistician(True, True, (0, 50, 100))(x.astype(np.float32), axis=1)
    assert shapes['mean'].shape == (2,) and shapes['percentile'].shape == (3, 2)


def test_size_num_grads_counts_non_empty_parameters():
    link = chainerlite.links.Linear(3, 2)
    assert mpu.size_num_grads(link) == (8, 2)
    with link.init_scope():
        link.empty = chainerlite.Parameter(np.zeros((0,), np.float32))
    assert mpu.size_num_grads(link) == (8, 2)


def test_old_updater_module_is_the_updater():
    assert _updater.Updater is updater.Updater
