import io
import os
import re
import subprocess
import sys

import pytest

from chainerlite.backends import cuda
from chainerlite.examples.digits import cli
from chainerlite.testing import attr


@pytest.fixture
def run(tmp_path):
    def run(*argv):
        out = io.StringIO()
        args = cli.parse_args(list(argv) + ['--out', str(tmp_path)])
        return cli.run(args, out), out.getvalue()

    return run


def _matplotlib():
    try:
        import matplotlib  # NOQA
    except ImportError:
        return False
    return True


def _peaks(text):
    return {
        label: float(mib)
        for label, mib in re.findall(r'\n +(plain|forget) +peak +(\d+\.\d+) MiB', text)
    }


def test_help_lists_every_option():
    result = subprocess.run(
        [sys.executable, '-m', 'chainerlite.examples.digits', '--help'],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    text = result.stdout
    assert text.startswith('usage: python -m chainerlite.examples.digits')
    for option in (
        '--epochs',
        '--batch-size',
        '--model {mlp,cnn,both}',
        '--forget EPOCHS',
        '--device {@numpy',
        '--seed',
        '--resume-after EPOCHS',
        '--out OUT',
        '--noplot',
        '--no-progress',
    ):
        assert option in text, option
    assert '(default: 20)' in text and '(default: @numpy)' in text


@pytest.mark.parametrize(
    'argv',
    [
        ['--epochs', '0'],
        ['--batch-size', '-1'],
        ['--forget', '-1'],
        ['--model', 'rnn'],
        ['--device', 'gpu'],
        ['--seed', 'x'],
        ['--resume-after', '-1'],
        ['--resume-after', '20'],
        ['--resume-after', '3', '--epochs', '2'],
    ],
)
def test_invalid_options_are_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as error:
        cli.parse_args(argv)
    assert error.value.code == 2
    assert argv[0] in capsys.readouterr().err


@pytest.mark.skipif(cuda.available, reason='CUDA is available here')
def test_gpu_device_needs_cupy(capsys):
    with pytest.raises(SystemExit):
        cli.make_parser().parse_args(['--device', '@cupy:0'])
    assert "invalid choice: '@cupy:0'" in capsys.readouterr().err


def test_resume_after_defaults_to_half_the_epochs():
    assert cli.parse_args(['--epochs', '7']).resume_after == 3
    assert cli.parse_args(['--epochs', '1']).resume_after == 0
    assert cli.parse_args(['--resume-after', '0']).resume_after == 0


def test_mlp_reaches_95_percent_in_six_epochs_across_a_resume(run, tmp_path):
    results, text = run(
        '--model', 'mlp', '--epochs', '6', '--forget', '0', '--no-progress'
    )
    mlp = results['mlp']
    log = mlp['log']
    assert [entry['epoch'] for entry in log] == list(range(1, 7))
    assert log[-1]['validation/main/accuracy'] >= 0.95
    assert 'cnn' not in results and 'memory' not in results
    # 1438 samples in batches of 32: epoch 3 ends at iteration 135
    assert mlp['resumed_at'] == log[2]['iteration'] == 135
    assert mlp['iteration'] == log[-1]['iteration'] == 270
    folder = os.path.join(str(tmp_path), 'mlp')
    assert (
        'Stopped after epoch 3 (iteration 135); snapshot: {}'.format(
            os.path.join(folder, 'snapshot_iter_135')
        )
        in text
    )
    assert 'resumed from it at epoch 3, iteration 135' in text
    # epochs 1-3 printed, then the restored log again and epochs 4-6 (each
    # row after PrintReport's erase sequence, as Chainer's)
    rows = re.findall(r'\n\033\[J(\d+) +(\d+) +\d', text)
    assert [int(epoch) for epoch, _ in rows] == [1, 2, 3] + list(range(1, 7))
    assert re.search(
        r'MLP: test accuracy (0\.9[5-9]|1\.0)\d* after 6 epochs '
        r'\(iteration 270\)',
        text,
    )
    plot = ['loss.png'] if _matplotlib() else []
    assert sorted(os.listdir(folder)) == ['log'] + plot + ['snapshot_iter_270']
    if _matplotlib():
        assert mlp['plot'] == os.path.join(folder, 'loss.png')
        assert 'Plot of the losses: {}'.format(mlp['plot']) in text
    # the timer epoch: 45 batches, 3 linear layers forward and backward
    assert re.search(r'\n +LinearFunction +\S+ +270 ', text)
    assert 'Memory' not in text


def test_cnn_learns_and_forget_lowers_peak_memory(run):
    # A reduced run: 4 epochs reach 0.95 with seed 0, so 0.9 leaves room
    # for other BLAS builds; the full run (20 epochs, >= 0.95) is tested in
    # test_demo.py.
    results, text = run(
        '--model', 'cnn', '--epochs', '4', '--forget', '1', '--noplot', '--no-progress'
    )
    assert results['cnn']['log'][-1]['validation/main/accuracy'] >= 0.9
    assert re.search(r'\n +Convolution2DFunction +\S+ +180 ', text)
    assert 'Most expensive (self time):' in text
    memory = results['memory']
    assert memory['forget']['peak'] < 0.9 * memory['plain']['peak']
    # same seed, exact recomputation: the same model comes out
    assert memory['forget']['accuracy'] == memory['plain']['accuracy']
    peaks = _peaks(text)
    assert peaks['forget'] < peaks['plain']
    ratio = float(re.search(r'without: (\d\.\d\d)', text).group(1))
    assert ratio == pytest.approx(memory['ratio'], abs=0.005)
    assert ratio == pytest.approx(peaks['forget'] / peaks['plain'], abs=0.01)


def test_same_seed_repeats_and_other_seed_differs(run):
    argv = (
        '--model',
        'mlp',
        '--epochs',
        '2',
        '--forget',
        '0',
        '--noplot',
        '--no-progress',
    )
    first, _ = run(*argv)
    second, _ = run(*argv)
    other, _ = run(*argv, '--seed', '1')

    def losses(results):
        return [r['main/loss'] for r in results['mlp']['log']]

    assert losses(first) == losses(second)
    assert losses(first) != losses(other)


def test_without_matplotlib_it_warns_and_still_runs(run, monkeypatch):
    monkeypatch.setitem(sys.modules, 'matplotlib', None)
    with pytest.warns(UserWarning, match='PlotReport needs matplotlib'):
        results, text = run(
            '--model', 'mlp', '--epochs', '2', '--forget', '0', '--no-progress'
        )
    assert results['mlp']['plot'] is None
    assert results['mlp']['iteration'] == 90
    assert 'No plot: PlotReport needs matplotlib (pip install matplotlib)' in text


def test_noplot_draws_nothing_and_does_not_ask_for_matplotlib(run, tmp_path):
    results, text = run(
        '--model', 'mlp', '--epochs', '1', '--forget', '0', '--noplot', '--no-progress'
    )
    assert results['mlp']['plot'] is None
    assert 'plot' not in text.lower()
    assert sorted(os.listdir(os.path.join(str(tmp_path), 'mlp'))) == [
        'log',
        'snapshot_iter_45',
    ]


def test_module_runs_every_part(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            '-m',
            'chainerlite.examples.digits',
            '--epochs',
            '1',
            '--noplot',
            '--no-progress',
            '--out',
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    text = result.stdout
    for part in (
        '1438 training and 359 test images',
        'MLP with Adam',
        'CNN with Adam',
        'validation/main/accuracy',
        'one more training epoch of the CNN',
        'FunctionName',
        'without and with F.forget',
        'Total time',
    ):
        assert part in text, part
    assert set(_peaks(text)) == {'plain', 'forget'}
    assert result.stderr == ''


@attr.gpu
def test_gpu_run_learns(run):
    results, text = run(
        '--device',
        '@cupy:0',
        '--epochs',
        '5',
        '--forget',
        '1',
        '--noplot',
        '--no-progress',
    )
    assert 'on @cupy:0' in text
    for name in ('mlp', 'cnn'):
        assert results[name]['log'][-1]['validation/main/accuracy'] >= 0.9
    assert 'host memory only' in text
    # same seed, recomputed forward: the same model comes out
    memory = results['memory']
    assert memory['forget']['accuracy'] == memory['plain']['accuracy']
