"""Long compiled loops end on Ctrl-C (see _kernels/chunks.pxd).

One child process runs a long call of each kernel with a SIGINT already
raised at its thread when the kernel is entered: the signal is raised from
C (through ctypes) and the kernel called from C (map), so that no Python
code runs in between to see it first. A kernel that looks for Ctrl-C
between its chunks raises KeyboardInterrupt after its first chunk; one
that does not runs to the end (and Python raises afterwards). Where the
call fills an array, most of it is left as it was (NaN, or zero where the
kernel adds); otherwise the interrupted call takes a fraction of the time
of a whole one.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

CHILD = '''
import ctypes, functools, json, operator, signal, sys, time
import numpy as np
from chainerlite._kernels import (act as act_kernels, conv as conv_kernels,
                                  direct_conv, lstm as lstm_kernels,
                                  optim as optim_kernels, pool as pool_kernels,
                                  sce as sce_kernels, vec_math)

libc = ctypes.CDLL(None)
libc.pthread_self.restype = ctypes.c_ulong
libc.pthread_kill.argtypes = (ctypes.c_ulong, ctypes.c_int)
sigint = functools.partial(libc.pthread_kill, libc.pthread_self(),
                           signal.SIGINT)
call_each = operator.methodcaller('__call__')
f16, f32 = np.float16, np.float32
P = functools.partial


def nans(*shape, dtype=f32):
    return np.full(shape, np.nan, dtype)


def ones16(*shape):
    return np.ones(shape, f16).view(np.uint16)


def interrupted(call):
    # seconds until the KeyboardInterrupt of a call entered with SIGINT
    # pending
    start = time.perf_counter()
    try:
        list(map(call_each, (sigint, call)))
    except KeyboardInterrupt:
        return time.perf_counter() - start
    raise AssertionError('no KeyboardInterrupt')


def whole(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def case(name, call, left=None):
    # left(): the fraction of the output that the call has not reached
    result = {'seconds': interrupted(call)}
    if left is None:
        result['whole'] = whole(call)
    else:
        result['left'] = float(left())
    print(json.dumps([name, result]), flush=True)


def run(name):
    # the work of a call is two chunks or more, its arrays some tens of MB
    if name == 'im2col_2d':
        # float16 pixels are copied as their bits (uint16)
        col = nans(16, 16, 3, 3, 128, 128, dtype=f16)
        case(name, P(conv_kernels.im2col_2d, ones16(16, 16, 128, 128),
                     col.view(np.uint16), 1, 1, 1, 1, 1, 1, np.uint16(0)),
             lambda: np.isnan(col).mean())
    elif name == 'im2col_padded_2d':
        col = nans(16, 3, 3, 16, 128, 128, dtype=f16)
        case(name, P(conv_kernels.im2col_padded_2d, ones16(16, 16, 130, 130),
                     col.view(np.uint16).transpose(3, 0, 1, 2, 4, 5), 1, 1,
                     1, 1),
             lambda: np.isnan(col).mean())
    elif name == 'col2im_2d':
        img = np.zeros((8, 16, 128, 128), f32)
        case(name, P(conv_kernels.col2im_2d, np.ones((8, 16, 3, 3, 128, 128), f32),
                     img, 1, 1, 1, 1, 1, 1), lambda: (img == 0).mean())
    elif name in ('direct_conv_2d', 'direct_conv_2d_grad_weight'):
        # images already padded (pad 0: read in place), the plain C kernels
        # where the AVX2 ones do not run
        x = np.ones((512, 16, 34, 34), f32)
        one = ((1, 1), (0, 0), (1, 1), 1, None,
               not direct_conv.direct_conv_simd())
        if name == 'direct_conv_2d':
            call = P(direct_conv.conv2d, x, np.ones((16, 16, 3, 3), f32),
                     None, *one)
        else:
            call = P(direct_conv.conv2d_grad_weight, x,
                     np.ones((512, 16, 32, 32), f32), (3, 3), *one)
        case(name, call)
    elif name in ('lstm_forward', 'lstm_backward'):
        c, x = np.ones((512, 4096), f32), np.ones((512, 4 * 4096), f32)
        out = nans(512, 4096)
        if name == 'lstm_forward':
            call = P(lstm_kernels.lstm_forward, c, x, out, nans(512, 4096))
        else:
            call = P(lstm_kernels.lstm_backward, c, x, c, c, c, out, nans(*x.shape))
        case(name, call, lambda: np.isnan(out).mean())
    elif name in ('lstm_layer_forward', 'lstm_layer_backward'):
        # 8 steps of 256 rows and 1024 units: a step a chunk
        from chainerlite._kernels import lstm_layer
        steps, rows, n = 8, 256, 1024
        batches, starts = [rows] * steps, [rows * t for t in range(steps)]
        h, w = np.zeros((rows, n), f32), np.zeros((4 * n, n), f32)
        total = steps * rows
        if name == 'lstm_layer_forward':
            ys = nans(total, n)
            call = P(lstm_layer.forward, np.zeros((total, 4 * n), f32), h, h, w,
                     batches, starts, ys, nans(total, n))
            case(name, call, lambda: np.isnan(ys).mean())
        else:
            gx = nans(total, 4 * n)
            cs, act = np.zeros((total, n), f32), np.zeros((total, 5 * n), f32)
            call = P(lstm_layer.backward, w, h, cs, act, cs, h.copy(), h.copy(),
                     gx, batches, starts)
            case(name, call, lambda: np.isnan(gx).mean())
    elif name in ('leaky_relu_grad', 'softplus_grad', 'gelu', 'normal_cdf',
                  'gelu_grad'):
        # four chunks or more (a select is a quarter of a libm call's work)
        x = np.ones(1 << (24 if name == 'leaky_relu_grad' else 23), f32)
        args = {'leaky_relu_grad': (x, x, 0.2), 'softplus_grad': (x, x, 1.0),
                'gelu': (x,), 'normal_cdf': (x,), 'gelu_grad': (x, x)}[name]
        case(name, P(getattr(act_kernels, name), *args))
    elif name == 'adam':
        size = 9 << 20
        m = np.zeros(size, f32)
        case(name, P(optim_kernels.adam, np.ones(size, f32),
                     np.ones(size, f32), m, np.zeros(size, f32), 0.1, 0.001,
                     0.001, 1e-8, 1.0, 0.0), lambda: (m == 0).mean())
    elif name == 'sce_forward':
        x, t = np.ones((2048, 8192), f32), np.zeros(2048, np.int32)
        case(name, P(sce_kernels.sce_forward, x, t, -1, 1))
    elif name == 'sce_backward':
        x, t = np.ones((2048, 8192), f32), np.zeros(2048, np.int32)
        _, stats, coeff = sce_kernels.sce_forward(x, t, -1, 1)
        case(name, P(sce_kernels.sce_backward, x, stats, np.ones((), f32),
                     coeff))
    elif name == 'vec_math':  # vec_math's loop (F.tanh's on AVX2 machines)
        case(name, P(vec_math.sigmoid, np.ones(1 << 25, f32)))
    elif name in ('max_pooling_2d', 'max_pooling_2d_grad'):
        x = np.ones((16, 16, 192, 192), f32)
        y, index = nans(16, 16, 190, 190), np.zeros((16, 16, 190, 190), np.intp)
        if name == 'max_pooling_2d':
            case(name, P(pool_kernels.max_pooling_2d, x, y, index, 3, 3, 1, 1, 0, 0),
                 lambda: np.isnan(y).mean())
        else:
            gx = np.zeros(x.shape, f32)
            case(name, P(pool_kernels.max_pooling_2d_grad, np.ones(y.shape, f32),
                         index, gx, 3, 3, 1, 1, 0, 0),
                 lambda: (gx == 0).mean())


for name in sys.argv[1:]:
    run(name)
'''

KERNELS = (
    'im2col_2d',
    'im2col_padded_2d',
    'col2im_2d',
    'direct_conv_2d',
    'direct_conv_2d_grad_weight',
    'lstm_forward',
    'lstm_backward',
    'lstm_layer_forward',
    'lstm_layer_backward',
    'leaky_relu_grad',
    'softplus_grad',
    'gelu',
    'normal_cdf',
    'gelu_grad',
    'adam',
    'sce_forward',
    'sce_backward',
    'vec_math',
    'max_pooling_2d',
    'max_pooling_2d_grad',
)


@pytest.fixture(scope='module')
def results():
    env = dict(os.environ, OMP_NUM_THREADS='1')  # chunks of one thread
    proc = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(CHILD), *KERNELS],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(line) for line in proc.stdout.splitlines())


@pytest.mark.parametrize('kernel', KERNELS)
def test_kernel_ends_on_ctrl_c(results, kernel):
    result = results[kernel]
    assert result['seconds'] < 3
    if 'left' in result:
        # stopped after its first chunk, with part of the output reached
        assert 0 < result['left'] < 1, result
    else:
        # a fraction of the whole call, but not nothing: the signal was not
        # seen before the kernel ran
        assert result['whole'] / 50 < result['seconds'] < result['whole'] / 2, result
