"""The core imports nothing above it: the package hands objects down.

Each program that changes what the core holds runs in its own subprocess,
so that this process keeps the objects the package handed down.
"""

import os
import subprocess
import sys
import textwrap

import chainerlite
from chainerlite._core import handover

NAMES = (
    'backend',
    'functions',
    'type_check',
    'debug_summary',
    'floordiv',
    'rfloordiv',
    'FunctionHook',
    'activation_kernels',
)

# Imports the core without running chainerlite/__init__.py (a bare package
# module stands in for it), so that nothing is handed down.
BARE_CORE = '''
import os, sys, types
import numpy as np
package = types.ModuleType('chainerlite')
package.__path__ = [{parent!r}]
sys.modules['chainerlite'] = package
from chainerlite._core import FunctionNode, Variable, handover
from chainerlite._core import ops_nn

def message(fn, *args):
    try:
        fn(*args)
    except RuntimeError as e:
        return str(e)
    raise AssertionError('%r did not raise RuntimeError' % fn)
'''


def _run(program):
    proc = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(program)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def _bare(program):
    parent = os.path.dirname(chainerlite._core.__path__[0])
    return _run(BARE_CORE.format(parent=parent) + textwrap.dedent(program))


def test_importing_the_package_hands_everything_down():
    assert handover.missing() == ()


def test_without_the_package_the_core_says_what_is_missing():
    out = _bare(
        '''
        assert 'chainerlite.functions' not in sys.modules
        assert handover.missing() == {names!r}, handover.missing()
        v = Variable(np.ones((2, 2), np.float32))
        print(message(lambda: v @ v))
        print(message(lambda: v // 2))
        print(message(v.debug_print))
        print(message(v.to_cpu))
        print(message(FunctionNode().add_hook, object()))
        '''.format(names=NAMES)
    )
    lines = out.splitlines()
    for line, source in zip(
        lines,
        (
            'chainerlite.functions,',
            'basic_math.floordiv,',
            'chainerlite.variable._debug_summary,',
            'chainerlite.backend,',
            'chainerlite.function_hook.FunctionHook,',
        ),
    ):
        assert line.startswith('chainerlite._core needs '), line
        assert source in line and 'import chainerlite' in line, line
    assert len(lines) == 5


def test_the_core_calls_what_is_handed_down():
    out = _bare('''
        handover.provide(
            functions=types.SimpleNamespace(matmul=lambda a, b: 'matmul'),
            floordiv=lambda a, b: 'floordiv')
        v = Variable(np.ones((2, 2), np.float32))
        print(v @ v, v // 2, handover.missing()[:2])
        ''')
    assert out.split() == ['matmul', 'floordiv', "('backend',", "'type_check')"]


def test_provide_refuses_unknown_names_and_none_before_setting_any():
    out = _bare('''
        for kwargs in ({'functions': np, 'nothing': 1},
                       {'functions': np, 'backend': None}):
            try:
                handover.provide(**kwargs)
            except TypeError as e:
                print(e)
        assert 'functions' in handover.missing()
        ''')
    unknown, none = out.splitlines()
    assert unknown.startswith(
        "handover.provide: the core takes no 'nothing'; it takes backend,"
    )
    assert none == 'handover.provide: backend must not be None'


def test_gpu_paths_of_compiled_activations_run_the_handed_down_kernels():
    # An array type stands in for cupy.ndarray: the compiled ReLU and tanh
    # send it to the kernels of chainerlite.functions.activation._kernels,
    # which the recorders below replace (computing on the CPU).
    out = _run('''
        import types
        import numpy as np
        import chainerlite as C
        from chainerlite._core import ops_nn
        from chainerlite.functions.activation import _kernels

        class GpuArray:
            def __init__(self, a):
                self.a = np.asarray(a)
            shape = property(lambda self: self.a.shape)
            dtype = property(lambda self: self.a.dtype)
            ndim = property(lambda self: self.a.ndim)
            size = property(lambda self: self.a.size)
            def __array__(self, dtype=None, copy=None):
                return self.a

        calls = []
        def recorder(name, fn):
            def kernel(*args):
                calls.append(name)
                return GpuArray(fn(*[a.a for a in args]))
            return kernel

        _kernels.relu_fwd = recorder('relu_fwd', lambda x: np.maximum(x, 0))
        _kernels.relu_bwd = recorder('relu_bwd', lambda y, gy: gy * (y > 0))
        _kernels.tanh_fwd = recorder('tanh_fwd', np.tanh)
        _kernels.tanh_bwd = recorder('tanh_bwd', lambda y, gy: gy * (1 - y * y))
        C._core._set_cupy(types.SimpleNamespace(ndarray=GpuArray))
        for f in (ops_nn.relu, ops_nn.tanh):
            x = C.Variable(GpuArray(np.array([-1.0, 0.5, 2.0], np.float32)))
            y = f(x)
            y.grad = GpuArray(np.ones(3, np.float32))
            y.backward()
            gx = np.asarray(x.grad).astype(float).round(4).tolist()
            print(type(y.array).__name__, type(x.grad).__name__, gx)
        print(' '.join(calls))
        ''')
    relu, tanh, calls = out.splitlines()
    assert relu == 'GpuArray GpuArray [0.0, 1.0, 1.0]'
    assert tanh == 'GpuArray GpuArray [0.42, 0.7864, 0.0707]'
    assert calls == 'relu_fwd relu_bwd tanh_fwd tanh_bwd'
