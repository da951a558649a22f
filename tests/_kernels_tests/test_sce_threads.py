"""softmax cross entropy's compiled path shares the rows of a large batch
among Python threads (``_kernels/row_threads.py``); the results are the
same bits with one thread and with three, and the same as the general NumPy
code of ``F.softmax_cross_entropy``."""

import os

import numpy as np
import pytest

PROGRAM = r'''
import sys
import numpy as np
from chainerlite._kernels import sce

rng = np.random.default_rng(11)
out = {}
for dtype in (np.float32, np.float64):
    tag = np.dtype(dtype).name
    # 1,500 rows of 700 classes: several parts of several blocks each
    x = (rng.standard_normal((1500, 700)) * 4).astype(dtype)
    x[3, 5] = -np.inf  # a row whose log_y is not all finite
    x[7] = np.nan
    t = rng.integers(0, 700, 1500).astype(np.int32)
    t[::9] = -1  # ignored rows
    for mode in (0, 1, 2):
        loss, stats, coeff = sce.sce_forward(x, t, -1, mode)
        out[f'loss{mode}_{tag}'] = loss
        g = np.asarray(rng.standard_normal(() if mode else 1500), dtype)
        out[f'grad{mode}_{tag}'] = sce.sce_backward(x, stats, g, coeff)
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason='one CPU: no second thread')
def test_one_and_three_threads_give_the_same_bits(thread_results):
    one, three = thread_results(PROGRAM, 1), thread_results(PROGRAM, 3)
    assert sorted(one) == sorted(three) and len(one) == 12
    for name in one:
        assert one[name].tobytes() == three[name].tobytes(), name


def test_shared_rows_match_the_general_code():
    # in this process (the test run's thread count): the compiled result on
    # a batch large enough to be shared, against the NumPy code it replaces
    import chainerlite
    import chainerlite.functions as F

    rng = np.random.default_rng(2)
    x = rng.standard_normal((600, 1000)).astype(np.float32)
    t = rng.integers(0, 1000, 600).astype(np.int32)
    xv = chainerlite.Variable(x)
    loss = F.softmax_cross_entropy(xv, t)
    loss.backward()
    xg = chainerlite.Variable(x)
    general = F.softmax_cross_entropy(xg, t, cache_score=False)
    general.backward()
    assert loss.array.tobytes() == general.array.tobytes()
    assert xv.grad.tobytes() == xg.grad.tobytes()
