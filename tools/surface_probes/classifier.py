"""L.Classifier as training code uses it: where the label is taken from,
what it reports and keeps, its loss and accuracy functions, and its
errors."""

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _parts(c):
    numpy.random.seed(1)
    x = numpy.random.rand(4, 3).astype(numpy.float32)
    t = numpy.array([0, 1, 1, 0], numpy.int32)
    return x, t


def label_positions(c):
    x, t = _parts(c)
    out = []
    for label_key, args, kwargs in (
        (-1, (x, t), {}),
        (0, (t, x), {}),
        ('t', (x,), {'t': t}),
        (-1, (x,), {'t': t}),
        ('t', (x, t), {}),
        (5, (x, t), {}),
        (1.5, (x, t), {}),
    ):
        try:
            numpy.random.seed(0)
            model = c.L.Classifier(c.L.Linear(3, 2), label_key=label_key)
            loss = model(*args, **kwargs)
            out.append(['ok', _values.summary(loss)])
        except Exception as e:  # noqa: BLE001 - the exception is the result
            out.append(['raise', type(e).__name__])
    return out


def reports_and_attributes(c):
    x, t = _parts(c)
    numpy.random.seed(0)
    model = c.L.Classifier(c.L.Linear(3, 2))
    reporter = c.chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    return [
        sorted(observation),
        loss,
        model.y,
        model.loss is loss,
        model.accuracy,
        model.compute_accuracy,
        model.label_key,
    ]


def without_accuracy_and_custom_functions(c):
    x, t = _parts(c)
    numpy.random.seed(0)
    model = c.L.Classifier(
        c.L.Linear(3, 2),
        lossfun=lambda y, t: c.F.sum(y) * 0 + c.F.softmax_cross_entropy(y, t),
        accfun=lambda y, t: c.F.accuracy(y, t) * 0.5,
    )
    reporter = c.chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        model(x, t)
    first = sorted(observation.items())
    model.compute_accuracy = False
    observation = {}
    with reporter.scope(observation):
        model(x, t)
    return first, sorted(observation), model.accuracy


def predictor_with_two_inputs(c):
    x, t = _parts(c)
    numpy.random.seed(0)

    class Two(c.chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.linear = c.L.Linear(3, 2)

        def forward(self, x, z):
            return self.linear(x) + z

    model = c.L.Classifier(Two())
    z = numpy.ones((4, 2), numpy.float32)
    loss = model(x, z, t)
    return [loss, sorted(n for n, _ in model.namedparams())]


PROBES = _values.probes(globals(), __name__)
