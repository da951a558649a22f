import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'lr': 0.01, 'eps': 1e-8}])
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.001)
    eps = kwargs.get('eps', 1e-16)
    w = run_optimizer(optimizers.SMORMS3(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    mem = numpy.ones_like(expected)
    gbar = numpy.zeros_like(expected)
    g2 = numpy.zeros_like(expected)
    for g in grads.astype(numpy.float64):
        r = 1 / (mem + 1)
        gbar = (1 - r) * gbar + r * g
        g2 = (1 - r) * g2 + r * g * g
        x = gbar**2 / (g2 + eps)
        expected = expected - g * numpy.minimum(x, lr) / (numpy.sqrt(g2) + eps)
        mem = 1 + mem * (1 - x)
    check_update(w.array, param, expected, len(grads))


# Chainer 7.8.1's parameter after the steps of conftest's _bits_steps, lr=0.01
_CHAINER_STEPS = {
    numpy.float16: [
        '0x1.fccp-1',
        '-0x1.4f8p-2',
        '0x1.41cp+1',
        '-0x1.8p-15',
        '-0x1.c08p+2',
    ],
    numpy.float32: [
        '0x1.fcc9aap-1',
        '-0x1.4f366ep-2',
        '0x1.41c3e4p+1',
        '-0x1.d9165p-7',
        '-0x1.c068a6p+2',
    ],
    numpy.float64: [
        '0x1.fcc9a987eed7ep-1',
        '-0x1.4f366c51c8086p-2',
        '0x1.41c3e4986390bp+1',
        '-0x1.d9164f4ef4c3cp-7',
        '-0x1.c068a543d8610p+2',
    ],
}


@pytest.mark.parametrize('dtype', sorted(_CHAINER_STEPS, key=str))
def test_steps_give_chainers_bits(dtype, chainer_bits_steps):
    # the moving averages are (1 - r) * g + r * grad as Chainer rounds them;
    # g + r * (grad - g) was an ulp off here and there (float16: more)
    chainer_bits_steps(optimizers.SMORMS3(lr=0.01), dtype, _CHAINER_STEPS[dtype])
