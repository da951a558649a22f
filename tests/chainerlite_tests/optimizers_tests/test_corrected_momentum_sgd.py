import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'lr': 0.1, 'momentum': 0.5}])
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.01)
    momentum = kwargs.get('momentum', 0.9)
    w = run_optimizer(optimizers.CorrectedMomentumSGD(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    v = numpy.zeros_like(expected)
    for g in grads.astype(numpy.float64):
        v = momentum * v - g
        expected = expected + lr * v
    check_update(w.array, param, expected, len(grads))


def test_lr_change_acts_at_once():
    # The velocity holds no learning rate: halving lr halves the next step.
    import chainerlite

    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.zeros(1))
    opt = optimizers.CorrectedMomentumSGD(lr=1.0, momentum=1.0).setup(link)
    link.w.grad = numpy.ones(1)
    opt.update()
    opt.lr = 0.5
    link.w.grad = numpy.zeros(1)
    opt.update()
    numpy.testing.assert_allclose(link.w.array, [-1.5])
