"""F.forget on the GPU (run by .ci/gpu on a lent device): the high-water mark
of CuPy's memory pool over a training step falls with forget, and the
gradients are the plain step's."""

import functools

import numpy

import chainerlite
import chainerlite.functions as F
from chainerlite.testing import attr


def _pool_peak(cupy, body):
    """The most bytes held in CuPy's pool while ``body()`` runs, above the
    start."""
    totals = {'held': 0, 'peak': 0}

    class Water(cupy.cuda.MemoryHook):
        name = 'ForgetTestWater'

        def malloc_postprocess(self, **kw):
            totals['held'] += kw['mem_size']
            totals['peak'] = max(totals['peak'], totals['held'])

        def free_postprocess(self, **kw):
            totals['held'] -= kw['mem_size']

    with Water():
        body()
    return totals['peak']


def _block(link, h):
    for _ in range(3):  # one weight, three layers
        h = F.tanh(link(h))
    return h


def _step(model, x, use_forget):
    def run():
        model.cleargrads()
        h = x
        for link in model:
            block = functools.partial(_block, link)
            h = F.forget(block, h) if use_forget else block(h)
        F.sum(h * h).backward()

    return run


@attr.gpu
def test_forget_lowers_the_peak_of_the_memory_pool():
    cupy = chainerlite.backends.cuda.cupy
    rng = numpy.random.RandomState(0)
    width, depth = 1024, 12
    model = chainerlite.ChainList(
        *[chainerlite.links.Linear(width, width) for _ in range(depth)]
    )
    for link in model:
        link.W.array[...] = rng.randn(width, width) * (1.0 / width) ** 0.5
    model.to_device('@cupy:0')
    x = chainerlite.Variable(cupy.asarray(rng.randn(2048, width), numpy.float32))
    peaks, grads = {}, {}
    for use_forget in (False, True):
        step = _step(model, x, use_forget)
        step()  # the pool's first blocks, cuBLAS's work space
        peaks[use_forget] = _pool_peak(cupy, step)
        grads[use_forget] = [cupy.asnumpy(link.W.grad) for link in model]
    # a plain step keeps a block's input and its three tanh outputs through
    # the backward; forget keeps the input, and one block's graph at a time
    assert peaks[True] < 0.65 * peaks[False], peaks  # 0.54 measured on the CPU
    for plain, forgotten in zip(grads[False], grads[True]):
        numpy.testing.assert_allclose(forgotten, plain, rtol=1e-5, atol=1e-6)
