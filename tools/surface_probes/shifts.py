"""The hyperparameter shift extensions driven by hand: the values they set
after each call, their init, target and optimizer arguments, what they
save and how they resume, and their errors."""

import importlib
import types

from tools.surface_probes import _values


def _trainer(c, lr=0.5):
    opt = c.O.MomentumSGD(lr=lr)
    opt.setup(c.L.Linear(2, 2))
    updater = types.SimpleNamespace(get_optimizer=lambda name: {'main': opt}[name])
    return types.SimpleNamespace(updater=updater), opt


def _drive(c, make, n=8, attr='lr', lr=0.5):
    trainer, opt = _trainer(c, lr)
    ext = make()
    ext.initialize(trainer)
    values = [getattr(opt, attr)]
    for _ in range(n):
        ext(trainer)
        values.append(getattr(opt, attr))
    s = c.chainer.serializers.DictionarySerializer()
    ext.serialize(s)
    return [values, s.target]


def _resumed(c, make, n=3, m=3):
    # n calls, saved; a new extension loaded from it, initialized, m calls
    trainer, opt = _trainer(c)
    ext = make()
    ext.initialize(trainer)
    for _ in range(n):
        ext(trainer)
    s = c.chainer.serializers.DictionarySerializer()
    ext.serialize(s)
    trainer2, opt2 = _trainer(c)
    ext2 = make()
    ext2.serialize(c.chainer.serializers.NpzDeserializer(s.target))
    ext2.initialize(trainer2)
    values = [opt2.lr]
    for _ in range(m):
        ext2(trainer2)
        values.append(opt2.lr)
    return values


def exponential_shift(c):
    E = c.chainer.training.extensions
    return [
        _drive(c, lambda: E.ExponentialShift('lr', 0.5)),
        _drive(c, lambda: E.ExponentialShift('lr', 0.5, init=2.0, target=0.3)),
        _drive(c, lambda: E.ExponentialShift('lr', 2.0, target=3.0)),
        _drive(c, lambda: E.ExponentialShift('momentum', 0.9), attr='momentum'),
        _drive(c, lambda: E.ExponentialShift('lr', 0)),
        _values.attempt(lambda: E.ExponentialShift('lr', -0.5)),
        _resumed(c, lambda: E.ExponentialShift('lr', 0.5)),
    ]


def linear_shift(c):
    E = c.chainer.training.extensions
    return [
        _drive(c, lambda: E.LinearShift('lr', (1.0, 2.0), (2, 6))),
        _drive(c, lambda: E.LinearShift('lr', (2.0, 0.0), (0, 4))),
        _drive(c, lambda: E.LinearShift('lr', (1, 3), (3, 3))),
        _resumed(c, lambda: E.LinearShift('lr', (1.0, 2.0), (2, 6))),
    ]


def inverse_shift(c):
    E = c.chainer.training.extensions
    return [
        _drive(c, lambda: E.InverseShift('lr', 0.5, 0.75)),
        _drive(c, lambda: E.InverseShift('lr', 0.5, 2, init=1.0, target=0.2)),
        _drive(c, lambda: E.InverseShift('lr', 1.0, -1, target=2.0)),
        _values.attempt(lambda: E.InverseShift('lr', -0.1, 1)),
        _resumed(c, lambda: E.InverseShift('lr', 0.5, 0.75)),
    ]


def polynomial_shift(c):
    E = c.chainer.training.extensions
    return [
        _drive(c, lambda: E.PolynomialShift('lr', 0.5, 6)),
        _drive(c, lambda: E.PolynomialShift('lr', 2, 4, init=1.0, target=0.1), n=3),
        _drive(c, lambda: E.PolynomialShift('lr', -1, 10, target=1.0)),
        _resumed(c, lambda: E.PolynomialShift('lr', 0.5, 6)),
    ]


def polynomial_shift_target_at_the_end(c):
    # the schedule reaches 0 with a target: Chainer divides the target by 0
    E = c.chainer.training.extensions
    return _drive(c, lambda: E.PolynomialShift('lr', 2, 4, init=1.0, target=0.1))


def multistep_shift(c):
    E = c.chainer.training.extensions
    return [
        _drive(c, lambda: E.MultistepShift('lr', 0.1, [2, 5, 6], 1.0)),
        _drive(c, lambda: E.MultistepShift('lr', 0.5, [3], None)),
        _drive(c, lambda: E.MultistepShift('lr', 2, [], 0.25)),
    ]


def step_shift(c):
    E = c.chainer.training.extensions
    return [
        _drive(c, lambda: E.StepShift('lr', 0.5, 3)),
        _drive(c, lambda: E.StepShift('lr', 0.5, 2, init=1.0, target=0.2)),
        _drive(c, lambda: E.StepShift('lr', 2, 2, target=3.0)),
        _resumed(c, lambda: E.StepShift('lr', 0.5, 2)),
    ]


def warmup_shift(c):
    E = c.chainer.training.extensions
    return [
        _drive(c, lambda: E.WarmupShift('lr', 0.0, 4, 1.0)),
        _drive(c, lambda: E.WarmupShift('lr', None, 3, 2.0)),
    ]


def warmup_of_no_iterations(c):
    # Chainer's leaves the value at warmup_start for ever
    E = c.chainer.training.extensions
    return _drive(c, lambda: E.WarmupShift('lr', 1.0, 0, 2.0), n=2)


def count_schedules_resumed(c):
    # the schedules that save only their count: at the initialization after
    # a resume Chainer's set init (warmup_start), not the value at the count
    E = c.chainer.training.extensions
    return [
        _resumed(c, lambda: E.MultistepShift('lr', 0.1, [2, 4], 1.0)),
        _resumed(c, lambda: E.WarmupShift('lr', 0.0, 4, 1.0)),
    ]


def shift_of_a_named_optimizer(c):
    # optimizer= is used instead of the trainer's 'main'
    E = c.chainer.training.extensions
    trainer, main = _trainer(c)
    _, other = _trainer(c, lr=1.0)
    out = []
    for make in (
        lambda: E.ExponentialShift('lr', 0.5, optimizer=other),
        lambda: E.LinearShift('lr', (1.0, 0.0), (0, 2), optimizer=other),
        lambda: E.StepShift('lr', 0.5, 1, optimizer=other),
        lambda: E.MultistepShift('lr', 0.5, [1], None, optimizer=other),
        lambda: E.WarmupShift('lr', 0.0, 2, 1.0, optimizer=other),
        lambda: E.InverseShift('lr', 1.0, 1.0, optimizer=other),
        lambda: E.PolynomialShift('lr', 1.0, 2, optimizer=other),
    ):
        other.lr = 1.0
        ext = make()
        ext.initialize(trainer)
        ext(trainer)
        out.append([main.lr, other.lr])
    return out


def shifts_in_a_run(c):
    # in a Trainer: values at each iteration as observe_lr reports them
    T = c.chainer.training
    E = T.extensions
    out = []
    for make in (
        lambda: E.ExponentialShift('lr', 0.5),
        lambda: E.StepShift('lr', 0.1, 2),
        lambda: E.WarmupShift('lr', 0.0, 3, 0.3),
    ):
        testing = importlib.import_module(c.chainer.__name__ + '.testing')
        trainer = testing.get_trainer_with_mock_updater((5, 'iteration'))
        opt = c.O.SGD(lr=0.3)
        opt.setup(c.L.Linear(2, 2))
        trainer.updater.get_optimizer = lambda name, opt=opt: opt
        lrs = []
        trainer.extend(make(), trigger=(1, 'iteration'))
        trainer.extend(
            T.make_extension(trigger=(1, 'iteration'))(lambda t: lrs.append(opt.lr))
        )
        trainer.run()
        out.append(lrs)
    return out


PROBES = _values.probes(globals(), __name__)
