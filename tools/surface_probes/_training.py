"""What the probes of the training package share: a linear classifier of
random rows, trained by SGD from an in-order iterator, and a trainer of
it writing to a fresh directory."""

import tempfile

import numpy


def data(c, n=12):
    """``n`` rows of 3 features, labelled by whether they sum above 1.5
    (NumPy's generator seeded with 0 first)."""
    numpy.random.seed(0)
    x = numpy.random.rand(n, 3).astype(numpy.float32)
    t = (x.sum(axis=1) > 1.5).astype(numpy.int32)
    return c.chainer.datasets.TupleDataset(x, t)


def parts(c, n=12, batch=4, repeat=True):
    """``(iterator, optimizer, model, dataset)``: a Classifier of
    Linear(3, 2) set up in SGD(lr=0.1), its data in batches, in order."""
    dataset = data(c, n)
    model = c.L.Classifier(c.L.Linear(3, 2))
    opt = c.O.SGD(lr=0.1)
    opt.setup(model)
    it = c.chainer.iterators.SerialIterator(
        dataset, batch, repeat=repeat, shuffle=False
    )
    return it, opt, model, dataset


def trainer(c, stop, n=12, batch=4, out=None, **kwargs):
    """``(trainer, model, dataset)``: a Trainer of the :func:`parts`' standard
    updater until ``stop``, writing to ``out`` (a new directory)."""
    it, opt, model, dataset = parts(c, n, batch)
    updater = c.chainer.training.updaters.StandardUpdater(it, opt)
    made = c.chainer.training.Trainer(
        updater, stop, out=out or tempfile.mkdtemp(), **kwargs
    )
    return made, model, dataset
