import re
import subprocess
import sys

import numpy

from chainerlite.examples import demo


def test_train_step_lowers_the_loss():
    numpy.random.seed(0)
    x, t = demo.make_data(numpy.random.RandomState(0))
    model = demo.MLP(8, 1)
    losses = [demo.train_step(model, x, t, lr=0.005) for _ in range(20)]
    assert losses[-1] < 0.5 * losses[0]


def test_module_prints_falling_loss_report_and_gradient():
    result = subprocess.run(
        [sys.executable, '-m', 'chainerlite.examples.demo'],
        capture_output=True, text=True, timeout=60, check=True)
    out = result.stdout
    losses = [float(v) for v in re.findall(r'loss (\d+\.\d+)', out)]
    assert len(losses) >= 3
    assert losses == sorted(losses, reverse=True)
    assert re.search(r'FunctionName +ElapsedTime +Occurrence', out)
    assert re.search(r'LinearFunction +\S+ +4 ', out)
    gradient = out.split('Gradient through F.forget')[1]
    assert len(re.findall(r'-?\d+\.\d+', gradient)) == 8
