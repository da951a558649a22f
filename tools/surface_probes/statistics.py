"""Links that keep statistics: their running averages and test-mode output."""

import numpy

from tools.surface_probes import _values


def _batches(shape, n=3):
    rng = numpy.random.RandomState(0)
    return [rng.randn(*shape).astype(numpy.float32) * (i + 1) + i for i in range(n)]


def _run(c, link, shape, finetune=False, **kw):
    outs = []
    for x in _batches(shape):
        if finetune:
            outs.append(link(x, finetune=True, **kw))
        else:
            outs.append(link(x, **kw))
    with c.chainer.using_config('train', False):
        test = link(_batches(shape)[0], **kw)
    state = {
        k: getattr(link, k) for k in ('avg_mean', 'avg_var', 'N') if hasattr(link, k)
    }
    return [o.array for o in outs], test, state


def batch_normalization(c):
    return _run(c, c.L.BatchNormalization(4, decay=0.8), (5, 4))


def batch_normalization_images(c):
    return _run(c, c.L.BatchNormalization(3), (2, 3, 4, 4))


def batch_normalization_finetune(c):
    return _run(c, c.L.BatchNormalization(4), (5, 4), finetune=True)


def batch_normalization_without_scale(c):
    return _run(c, c.L.BatchNormalization(4, use_gamma=False, use_beta=False), (5, 4))


def batch_normalization_axis(c):
    return _run(c, c.L.BatchNormalization((3, 4), axis=0), (5, 3, 4))


def batch_renormalization(c):
    link = c.L.BatchRenormalization(4, rmax=2.0, dmax=1.0)
    return _run(c, link, (6, 4)), link.r if hasattr(link, 'r') else None


def decorrelated_batch_normalization(c):
    link = c.L.DecorrelatedBatchNormalization(4, groups=2)
    outs = [link(x).array for x in _batches((6, 4))]
    with c.chainer.using_config('train', False):
        test = link(_batches((6, 4))[0])
    return outs, test, link.avg_mean, link.avg_projection


def group_and_layer_normalization(c):
    x = _batches((3, 4, 2, 2))[1]
    return c.L.GroupNormalization(2, 4)(x), c.L.LayerNormalization(16)(x.reshape(3, 16))


PROBES = _values.probes(globals(), __name__)
