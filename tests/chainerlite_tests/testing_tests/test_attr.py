import os
import subprocess
import sys
import textwrap
import types

import pytest

from chainerlite.testing import attr


def _fake_cuda(monkeypatch, available, devices=0, cudnn_enabled=None):
    runtime = types.SimpleNamespace(getDeviceCount=lambda: devices)
    cupy = types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime))
    module = types.ModuleType('chainerlite.backends.cuda')
    module.available = available
    module.cupy = cupy if available else None
    if cudnn_enabled is not None:
        module.cudnn_enabled = cudnn_enabled
    monkeypatch.setitem(sys.modules, 'chainerlite.backends.cuda', module)


def _marks(obj):
    return {m.name: m for m in getattr(obj, 'pytestmark', [])}


def _skip_condition(obj):
    mark = _marks(obj)['skipif']
    return bool(mark.args[0])


def test_gpu_marks_and_skips_without_cuda(monkeypatch):
    @attr.gpu
    def test_something():
        pass

    assert 'gpu' in _marks(test_something)
    _fake_cuda(monkeypatch, available=False)
    assert _skip_condition(test_something)
    _fake_cuda(monkeypatch, available=True, devices=1)
    assert not _skip_condition(test_something)


def test_gpu_on_a_class(monkeypatch):
    @attr.gpu
    class TestSomething:
        pass

    assert 'gpu' in _marks(TestSomething)
    _fake_cuda(monkeypatch, available=False)
    assert _skip_condition(TestSomething)


def test_multi_gpu(monkeypatch):
    @attr.multi_gpu(2)
    def test_two():
        pass

    assert 'gpu' in _marks(test_two)
    _fake_cuda(monkeypatch, available=True, devices=1)
    assert _skip_condition(test_two)
    _fake_cuda(monkeypatch, available=True, devices=2)
    assert not _skip_condition(test_two)


def test_cudnn(monkeypatch):
    @attr.cudnn
    def test_conv():
        pass

    marks = _marks(test_conv)
    assert 'cudnn' in marks and 'gpu' in marks
    _fake_cuda(monkeypatch, available=True, devices=1, cudnn_enabled=False)
    assert _skip_condition(test_conv)
    _fake_cuda(monkeypatch, available=True, devices=1, cudnn_enabled=True)
    assert not _skip_condition(test_conv)
    _fake_cuda(monkeypatch, available=False)
    assert _skip_condition(test_conv)


def test_slow_is_the_slow_marker():
    @attr.slow
    def test_long():
        pass

    assert 'slow' in _marks(test_long)
    assert 'skipif' not in _marks(test_long)


def test_decorated_function_still_runs():
    calls = []

    @attr.slow
    @attr.gpu
    def body():
        calls.append(1)

    body()
    assert calls == [1]


def test_pytest_skips_gpu_tests_without_cuda(tmp_path):
    (tmp_path / 'test_gpu_file.py').write_text(
        textwrap.dedent('''
        from chainerlite.testing import attr

        @attr.gpu
        def test_needs_gpu():
            pass

        @attr.slow
        def test_slow():
            pass
    ''')
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    command = [
        sys.executable,
        '-m',
        'pytest',
        '-q',
        '-p',
        'no:cacheprovider',
        '-p',
        'chainerlite.testing.attr',
        '--strict-markers',
        '--rootdir',
        str(tmp_path),
        '-c',
        os.devnull,
        str(tmp_path / 'test_gpu_file.py'),
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=str(tmp_path)
    )
    out = result.stdout + result.stderr
    if attr._gpu_count() > 0:
        assert '2 passed' in out, out
    else:
        assert '1 passed, 1 skipped' in out, out
    deselect = subprocess.run(
        command + ['-m', 'not slow and not gpu'],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
    )
    assert '2 deselected' in deselect.stdout, deselect.stdout


@pytest.mark.parametrize(
    'decorator, marker, module_name, function_name',
    [
        (attr.ideep, 'ideep', 'chainerlite.backends.intel64', 'is_ideep_available'),
        (attr.chainerx, 'chainerx', 'chainerx', 'is_available'),
    ],
)
def test_marks_and_skips_without_the_backend(
    monkeypatch, decorator, marker, module_name, function_name
):
    @decorator
    def test_something():
        pass

    assert marker in _marks(test_something)
    monkeypatch.setitem(sys.modules, module_name, None)
    assert _skip_condition(test_something)
    module = types.ModuleType(module_name)
    setattr(module, function_name, lambda: True)
    monkeypatch.setitem(sys.modules, module_name, module)
    assert not _skip_condition(test_something)


def test_multi_gpu_carries_its_marker():
    @attr.multi_gpu(2)
    def test_something():
        pass

    marks = _marks(test_something)
    assert marks['multi_gpu'].args == (2,)
    assert 'gpu' in marks


def test_markers_reach_every_parameterized_class():
    from chainerlite import testing

    @attr.slow
    @testing.parameterize({'n': 1}, {'n': 2})
    class Target:
        __module__ = 'not_a_loaded_module'

    assert len(Target.classes) == 2
    for cls in Target.classes:
        assert 'slow' in _marks(cls)
