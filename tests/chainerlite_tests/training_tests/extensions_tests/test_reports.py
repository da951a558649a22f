import io
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import chainerlite
from chainerlite import testing
from chainerlite.training import extensions
from chainerlite.training.extensions import _plot


class _FixedLog(extensions.LogReport):
    # a LogReport whose log a test fills in
    def __init__(self):
        super().__init__(log_name=None)

    def __call__(self, trainer):
        pass


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _reporting_trainer(tmp_path, iterations=4, iter_per_epoch=2):
    trainer = testing.get_trainer_with_mock_updater(
        (iterations, 'iteration'), iter_per_epoch=iter_per_epoch
    )
    trainer.out = str(tmp_path)

    def update_core():
        it = trainer.updater.iteration
        chainerlite.report(
            {
                'loss': chainerlite.Variable(np.array(float(it), np.float32)),
                'acc': it * 10.0,
            }
        )

    trainer.updater.update_core = update_core
    return trainer


def test_log_report_means_and_json_file(tmp_path):
    trainer = _reporting_trainer(tmp_path)
    log_report = extensions.LogReport(keys=['loss'])
    seen = []
    trainer.extend(log_report)
    trainer.extend(
        extensions.LogReport(trigger=(1, 'iteration'), filename='log_{iteration}'),
        name='per_iter',
    )
    trainer.extend(lambda t: seen.append(list(log_report.log)))
    trainer.run()
    log = log_report.log
    assert [e['loss'] for e in log] == [0.5, 2.5]
    assert [(e['epoch'], e['iteration']) for e in log] == [(1, 2), (2, 4)]
    assert 'acc' not in log[0] and log[0]['elapsed_time'] > 0
    with open(os.path.join(str(tmp_path), 'log')) as f:
        assert json.load(f) == log
    assert os.path.exists(os.path.join(str(tmp_path), 'log_3'))
    assert not [n for n in os.listdir(str(tmp_path)) if n.startswith('tmp')]
    assert len(seen[1]) == 1


def test_log_report_postprocess_and_no_file(tmp_path):
    trainer = _reporting_trainer(tmp_path, iterations=2)

    def postprocess(entry):
        entry['double'] = entry['acc'] * 2

    log_report = extensions.LogReport(postprocess=postprocess, log_name=None)
    trainer.extend(log_report)
    trainer.run()
    assert log_report.log[0]['double'] == 10.0
    assert os.listdir(str(tmp_path)) == []


def test_print_report_table(tmp_path):
    trainer = _reporting_trainer(tmp_path)
    out = io.StringIO()
    trainer.extend(extensions.LogReport())
    trainer.extend(
        extensions.PrintReport(['epoch', 'loss', 'validation/main/loss'], out=out)
    )
    trainer.run()
    # Chainer's layout: cells padded to max(10, len(name)) and two blanks,
    # an erase sequence before each row (in any stream), a missing value
    # blank
    blank = ' ' * 22
    assert out.getvalue() == (
        'epoch       loss        validation/main/loss\n'
        '\033[J1           0.5         ' + blank + '\n'
        '\033[J2           2.5         ' + blank + '\n'
    )


def test_print_report_cells():
    entries = ['a', 'long_name_of_entry', 'c', 'd']
    report = extensions.PrintReport(entries, log_report=_FixedLog(), out=io.StringIO())
    report._log_report.log.append({'a': 1234567, 'long_name_of_entry': True, 'c': 'x'})
    report(None)
    header, row = report._out.getvalue().splitlines()
    assert header == 'a           long_name_of_entry  c           d         '
    # numbers in the g format (1.23457e+06, True as 1), text as it is
    assert row == '\033[J1.23457e+06  1                   x           ' + ' ' * 12


def test_print_report_with_a_log_report_object_and_bad_type(tmp_path):
    trainer = _reporting_trainer(tmp_path, iterations=2)
    out = io.StringIO()
    trainer.extend(
        extensions.PrintReport(
            ['iteration'], log_report=extensions.LogReport(log_name=None), out=out
        )
    )
    trainer.run()
    assert out.getvalue().replace('\033[J', '').split() == ['iteration', '2']
    with pytest.raises(TypeError, match='log_report'):
        extensions.PrintReport(['epoch'], log_report=3)(trainer)


def test_progress_bar_draws_on_a_terminal_only(tmp_path):
    trainer = _reporting_trainer(tmp_path, iterations=6)
    terminal = _Terminal()
    trainer.extend(extensions.ProgressBar(update_interval=2, out=terminal))
    trainer.run()
    text = terminal.getvalue()
    assert '100.00%' in text and 'iters/sec' in text
    assert 'Estimated time to finish' in text
    assert '[' + '#' * 50 + ']' in text
    assert '6 iter, 3 epoch / 6 iterations' in text
    quiet = io.StringIO()
    trainer = _reporting_trainer(tmp_path, iterations=6)
    trainer.extend(extensions.ProgressBar(update_interval=1, out=quiet))
    trainer.run()
    assert quiet.getvalue() == ''


def test_progress_bar_needs_a_training_length(tmp_path):
    trainer = _reporting_trainer(tmp_path)
    trainer.stop_trigger = lambda t: t.updater.iteration >= 2
    trainer.extend(extensions.ProgressBar(out=_Terminal()))
    with pytest.raises(TypeError, match='training_length'):
        trainer.run(show_loop_exception_msg=False)


def test_plot_report_without_matplotlib_warns(tmp_path, monkeypatch):
    monkeypatch.setattr(_plot.importlib.util, 'find_spec', lambda name: None)
    with pytest.warns(UserWarning, match='matplotlib'):
        assert not extensions.PlotReport.available()
    with pytest.warns(UserWarning, match='matplotlib'):
        plot = extensions.PlotReport(['loss'], trigger=(1, 'iteration'))
    trainer = _reporting_trainer(tmp_path, iterations=2)
    trainer.extend(plot)
    trainer.run()
    # as Chainer's: without matplotlib nothing is collected nor drawn
    assert plot._data['loss'] == []
    assert os.listdir(str(tmp_path)) == []


def test_plot_report_snapshot_holds_the_points_only(tmp_path):
    pytest.importorskip('matplotlib')
    trainer = _reporting_trainer(tmp_path, iterations=2)
    plot = extensions.PlotReport(['loss'], trigger=(1, 'iteration'), filename='p.png')
    trainer.extend(plot)
    trainer.run()
    assert plot._data['loss'] == [(1, 0.0), (2, 1.0)]
    target = chainerlite.serializers.DictionarySerializer()
    target.save(plot)
    assert list(target.target) == ['_plot_p.png']
    again = extensions.PlotReport(['loss'], trigger=(1, 'iteration'), filename='p.png')
    chainerlite.serializers.NpzDeserializer(target.target).load(again)
    assert again._data == {'loss': [(1, 0.0), (2, 1.0)]}


def test_plot_report_writes_a_png(tmp_path):
    pytest.importorskip('matplotlib')
    trainer = _reporting_trainer(tmp_path)
    trainer.extend(
        extensions.PlotReport(['loss', 'acc'], x_key='epoch', filename='curves.png')
    )
    trainer.run()
    with open(os.path.join(str(tmp_path), 'curves.png'), 'rb') as f:
        assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    assert os.listdir(str(tmp_path)) == ['curves.png']


def test_plot_report_arguments():
    with pytest.raises(TypeError):
        extensions.PlotReport(['loss'], filname='x.png')


def test_plot_report_x_is_the_epoch_the_iteration_or_a_plotted_mean(tmp_path):
    # as Chainer 7.8.1's: x_key is looked up among the means (with epoch
    # and iteration) when a point is added (found by the surface probes,
    # tools/surface_probes/extensions_extra.py)
    pytest.importorskip('matplotlib')
    trainer = _reporting_trainer(tmp_path, iterations=4)
    plot = extensions.PlotReport(['loss', 'acc'], x_key='acc', trigger=(2, 'iteration'))
    trainer.extend(plot)
    trainer.run()
    # the reported loss is the iteration before it, acc ten times that
    assert plot._data == {
        'loss': [(5.0, 0.5), (25.0, 2.5)],
        'acc': [(5.0, 5.0), (25.0, 25.0)],
    }
    trainer = _reporting_trainer(tmp_path, iterations=2)
    trainer.extend(
        extensions.PlotReport(['loss'], x_key='time', trigger=(1, 'iteration'))
    )
    with pytest.raises(KeyError, match='time'):
        trainer.run(show_loop_exception_msg=False)


def test_log_report_logs_a_call_before_training(tmp_path):
    # as Chainer's: called before the first iteration it logs what was
    # observed so far, without asking its trigger
    trainer = _reporting_trainer(tmp_path, iterations=2)
    log = extensions.LogReport(trigger=(1, 'epoch'), filename=None)
    trainer.extend(log, call_before_training=True)
    trainer.run()
    assert [(e['iteration'], e['epoch'], sorted(e)) for e in log.log] == [
        (0, 0, ['elapsed_time', 'epoch', 'iteration']),
        (2, 1, ['acc', 'elapsed_time', 'epoch', 'iteration', 'loss']),
    ]


def test_importing_the_extensions_does_not_import_pyplot():
    code = (
        'import sys, chainerlite.training.extensions; '
        'sys.exit("matplotlib.pyplot" in sys.modules)'
    )
    assert subprocess.run([sys.executable, '-c', code]).returncode == 0


def test_plots_without_matplotlib_do_nothing_but_warn_at_each_call(
    tmp_path, monkeypatch
):
    # as Chainer 7.8.1's: VariableStatisticsPlot neither samples nor asks its
    # trigger, and both warn at each call, not at construction for the
    # statistics (found by the surface probes,
    # tools/surface_probes/extensions_extra.py)
    monkeypatch.setattr(_plot.importlib.util, 'find_spec', lambda name: None)
    model = chainerlite.links.Linear(2, 2)
    with warnings.catch_warnings(record=True) as made:
        warnings.simplefilter('always')
        stats = extensions.VariableStatisticsPlot(model, trigger=(1, 'iteration'))
    assert made == []
    with pytest.warns(UserWarning, match='matplotlib'):
        plot = extensions.PlotReport(['loss'], trigger=(1, 'iteration'))
    trainer = _reporting_trainer(tmp_path, iterations=3)
    trainer.extend(stats)
    trainer.extend(plot)
    with warnings.catch_warnings(record=True) as calls:
        warnings.simplefilter('always')
        trainer.run()
    assert len([w for w in calls if 'matplotlib' in str(w.message)]) == 6
    assert all(r.counter == 0 for r in stats._reservoirs.values())
    assert stats._trigger._progress._previous_iteration == 0
