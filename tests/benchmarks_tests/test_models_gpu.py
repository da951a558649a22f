"""The GPU mode of benchmarks/models (run by .ci/gpu on a lent device): what
can be checked without one, the placement of a step and the arithmetic of
the peak and the table."""

import importlib.util
import types

import pytest

import models
from models import _devices
from models import measure
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


def _fake_cupy():
    class MemoryHook:  # CuPy's hooks are entered with `with`
        def __enter__(self):
            fake.entered = self
            return self

        def __exit__(self, *exc):
            fake.entered = None

    fake = types.SimpleNamespace(cuda=types.SimpleNamespace(MemoryHook=MemoryHook))
    return fake


def test_cupy_high_water_is_the_peak_above_the_start():
    fake = _fake_cupy()
    with measure.CupyHighWater(fake) as water:
        hook = fake.entered
        hook.free_postprocess(mem_size=512)  # a block held before entering
        hook.malloc_postprocess(mem_size=1024)
        hook.malloc_postprocess(mem_size=2048)
        hook.free_postprocess(mem_size=1024)
        hook.malloc_postprocess(mem_size=512)
    assert fake.entered is None
    assert water.peak == 2560 and water.held == 2048


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
