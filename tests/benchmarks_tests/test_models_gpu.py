"""The GPU mode of benchmarks/models (run by .ci/gpu on a lent device): what
can be checked without one: the placement of a step and the table (the
meter of CuPy's pool is plan_forget's, tested in test_forget_meter.py)."""

import importlib.util

import pytest

import models
from models import _devices
from models import section


def test_cpu_placement_leaves_data_and_links_alone():
    place = _devices.placement('chainerlite', 'cpu')
    data = (object(), [object()])
    assert place.arrays(data) is data
    with place.context():
        pass


def test_unknown_device_is_refused():
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        models.make_step('chainerlite', 'lstm_lm', 2, 'tiny', device='tpu')


@pytest.mark.skipif(
    importlib.util.find_spec('cupy') is not None, reason='CuPy is installed'
)
def test_gpu_without_cupy_says_so():
    with pytest.raises(RuntimeError, match='device gpu: chainerlite needs CuPy'):
        models.make_step('chainerlite', 'lstm_lm', 2, 'tiny', device='gpu')


def test_gpu_table_gives_wall_and_peak_ratios(capsys):
    row = dict(model='lstm_lm', batch=20)
    times = {
        'rows': [
            dict(row, library='chainerlite', **{'wall median': 0.003}),
            dict(row, library='torch', **{'wall median': 0.004}),
        ]
    }
    peaks = [
        dict(library='chainerlite', model='lstm_lm', batch=20, gpu_peak=300),
        dict(library='torch', model='lstm_lm', batch=20, gpu_peak=400),
    ]
    section.print_gpu_table(times, peaks)
    row = capsys.readouterr().out.splitlines()[-1].split()
    assert row == ['lstm_lm', '20', '3.0', '4.0', '0.750', '0.750']
