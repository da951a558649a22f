import re
import subprocess
import sys

from chainerlite.examples import demo
from chainerlite.examples import digits
from chainerlite.testing import attr


def _demo(out, *argv, timeout):
    return subprocess.run(
        [sys.executable, '-m', 'chainerlite.examples.demo', '--out', str(out), *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    ).stdout


def test_demo_is_the_digits_demo():
    assert demo.main is digits.main


def test_module_passes_options_on(tmp_path):
    text = _demo(
        tmp_path,
        '--model',
        'mlp',
        '--epochs',
        '1',
        '--forget',
        '0',
        '--noplot',
        '--no-progress',
        timeout=300,
    )
    assert 'MLP with Adam: 1 epochs' in text
    assert 'CNN' not in text
    assert (tmp_path / 'mlp' / 'snapshot_iter_45').is_file()


@attr.slow
def test_full_run_reaches_95_percent(tmp_path):
    # its wall time is measured by benchmarks/benchmarks/bench_demo.py
    text = _demo(tmp_path, '--no-progress', timeout=1200)
    accuracy = {
        name: float(value)
        for name, value in re.findall(
            r'(MLP|CNN): test accuracy (\d\.\d+) after 20 epochs', text
        )
    }
    assert accuracy['MLP'] >= 0.95 and accuracy['CNN'] >= 0.95
    assert float(re.search(r'without: (\d\.\d\d)', text).group(1)) < 0.9
