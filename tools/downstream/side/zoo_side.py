"""One side of a chainercv2 model comparison, run in its own process.

    DOWNSTREAM_SIDE=chainer|chainerlite python zoo_side.py MODEL OUTDIR DTYPE

Builds MODEL from chainercv2's model provider (not pretrained), runs it in
test mode on a fixed input, and backpropagates a fixed weighted sum of its
output. Chainer's side saves its parameters to OUTDIR/MODEL.params.npz;
chainerlite's side loads them into its own model first (after one call,
which makes lazily shaped parameters). Each side saves the output and
every parameter gradient to OUTDIR/MODEL.SIDE.npz and prints one JSON line.
"""

import sys

import downstream_side
import numpy


def _run(name, outdir, dtype):
    import chainer
    from chainercv2.model_provider import get_model

    chainer.global_config.dtype = numpy.dtype(dtype)
    numpy.random.seed(0)
    model = get_model(name, pretrained=False)
    size = getattr(model, 'in_size', (224, 224))
    x = numpy.random.RandomState(1).uniform(-1, 1, (1, 3) + tuple(size)).astype(dtype)
    downstream_side.compare_run(model, (x,), name, outdir)


if __name__ == '__main__':
    downstream_side.report(_run, sys.argv[1:])
