import numpy

import chainerlite
from chainerlite import optimizer_hooks
from chainerlite import optimizers


def test_lars_scales_large_weights_only():
    link = chainerlite.Link()
    with link.init_scope():
        link.big = chainerlite.Parameter(numpy.random.uniform(-1, 1, (2, 3)))
        link.small = chainerlite.Parameter(numpy.random.uniform(-1, 1, (4,)) * 1e-4)
        link.empty = chainerlite.Parameter(numpy.zeros((0,)))
    expected = {}
    for name, p in link.namedparams():
        p.grad = numpy.random.uniform(-1, 1, p.shape)
        step = p.grad + 0.2 * p.array
        p_norm, g_norm = numpy.linalg.norm(p.array), numpy.linalg.norm(p.grad)
        if p_norm > 1e-2:
            step = step * p_norm / (1e-9 + g_norm + 0.2 * p_norm)
        expected[name] = p.array - step
    opt = optimizers.SGD(lr=1).setup(link)
    opt.add_hook(optimizer_hooks.GradientLARS(threshold=1e-2, weight_decay=0.2))
    opt.update()
    for name, p in link.namedparams():
        numpy.testing.assert_allclose(p.array, expected[name], rtol=1e-12)
