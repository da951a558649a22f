"""The kernels of an RNN's steps give the same bits with one OpenMP thread
and with two: the packed product (``packed_gemm``, whose column panels the
threads share) and the LSTM cell (``lstm``, whose rows they share). Each
thread count runs in its own interpreter, on arrays large enough to be
shared, and writes its results; they must be equal."""

import os
import subprocess
import sys

import numpy as np
import pytest

from chainerlite._kernels import packed_gemm

PACKED_GEMM = r'''
import sys
import numpy as np
from chainerlite._kernels import packed_gemm as pg
rng = np.random.default_rng(2)
w = rng.standard_normal((2600, 650)).astype(np.float32)
x = rng.standard_normal((64, 650)).astype(np.float32)
np.savez(sys.argv[1], y=pg.matmul(x, pg.pack(w, True)))
'''

# a step of NStepLSTM at batch 128 and 650 units (83200 cells)
LSTM = r'''
import sys
import numpy as np
from chainerlite._kernels import lstm
rng = np.random.default_rng(3)
c = rng.standard_normal((128, 1, 650)).astype(np.float32)
x = rng.standard_normal((128, 4, 650)).astype(np.float32)
g = rng.standard_normal((2, 128, 1, 650)).astype(np.float32)
c_next, h = np.empty_like(c), np.empty_like(c)
act = lstm.lstm_forward(c, x, c_next, h, True)
gc_prev, gx = np.empty_like(c), np.empty_like(x)
lstm.lstm_backward(c, x, c_next, g[0], g[1], gc_prev, gx, act)
np.savez(sys.argv[1], c_next=c_next, h=h, act=act, gc_prev=gc_prev, gx=gx)
'''

no_packed_gemm = packed_gemm.pack(np.ones((1, 1), np.float32), False) is None


@pytest.mark.parametrize(
    'program',
    [
        pytest.param(
            PACKED_GEMM,
            marks=pytest.mark.skipif(
                no_packed_gemm, reason='packed_gemm needs a CPU with AVX-512F'
            ),
            id='packed_gemm',
        ),
        pytest.param(LSTM, id='lstm'),
    ],
)
def test_threads_give_the_result_of_one(program, tmp_path):
    results = []
    for threads in ('1', '2'):
        path = str(tmp_path / f'{threads}.npz')
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        subprocess.run(
            [sys.executable, '-c', program, path], env=env, check=True, timeout=120
        )
        results.append(np.load(path))
    for name in results[0].files:
        np.testing.assert_array_equal(results[0][name], results[1][name])
