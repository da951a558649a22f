"""Optimizers: states after steps, hyperparameters, loss scaling."""

import numpy

from tools.surface_probes import _values

NAMES = (
    'SGD',
    'MomentumSGD',
    'NesterovAG',
    'AdaGrad',
    'AdaDelta',
    'Adam',
    'AdamW',
    'AMSGrad',
    'AdaBound',
    'AMSBound',
    'RMSprop',
    'RMSpropGraves',
    'SMORMS3',
    'CorrectedMomentumSGD',
    'MSVAG',
)


def _steps(c, opt, n=3):
    numpy.random.seed(0)
    link = c.L.Linear(3, 2)
    opt.setup(link)
    for i in range(n):
        x = numpy.random.RandomState(i).rand(4, 3).astype(numpy.float32)
        link.cleargrads()
        c.F.sum(link(x) ** 2).backward()
        opt.update()
    return link


def _state_probe(name):
    def probe(c):
        opt = getattr(c.O, name)()
        link = _steps(c, opt)
        return [
            [p.array for p in link.params()],
            opt.t,
            dict(link.W.update_rule.state),
            sorted(opt.hyperparam.get_dict()),
        ]

    return probe


def lossfun_update(c):
    numpy.random.seed(0)
    link = c.L.Linear(3, 2)
    opt = c.O.SGD()
    opt.setup(link)
    opt.update(lambda: c.F.sum(link(numpy.ones((1, 3), numpy.float32))))
    return opt.t, [p.array for p in link.params()]


def hyperparameters(c):
    numpy.random.seed(0)
    link = c.L.Linear(3, 2)
    opt = c.O.Adam()
    opt.setup(link)
    opt.alpha = 0.5
    link.W.update_rule.hyperparam.alpha = 0.3
    return (
        opt.alpha,
        link.W.update_rule.hyperparam.alpha,
        link.b.update_rule.hyperparam.alpha,
    )


def dynamic_loss_scaling(c):
    link = c.chainer.Link()
    with link.init_scope():
        link.w = c.chainer.Parameter(numpy.zeros(2))
    seen = []
    opt = c.O.SGD(lr=1.0)
    opt.setup(link)
    opt.add_hook(lambda o: seen.append(o.t), name='pre')
    opt.loss_scaling(interval=2)
    scales = []
    for g in ([1, 1], [1, 1], [numpy.inf, 1], [1, 1], [1, 1], [numpy.nan, 1]) + (
        [1, 1],
    ) * 20:
        link.w.grad = numpy.array(g, numpy.float64)
        opt.update()
        scales.append(opt._loss_scale)
    return scales, opt.t, seen, link.w.array


def serialized_state(c):
    opt = c.O.Adam()
    _steps(c, opt)
    s = c.chainer.serializers.DictionarySerializer()
    opt.serialize(s)
    return {k: v for k, v in s.target.items()}


PROBES = _values.probes(globals(), __name__)
PROBES.update({'state of ' + name: _state_probe(name) for name in NAMES})
