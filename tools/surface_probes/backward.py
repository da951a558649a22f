"""A variable's gradients around ``backward``, ``grad`` and ``backward()``."""

import numpy

from tools.surface_probes import _values


def _a(*shape):
    return numpy.arange(numpy.prod(shape), dtype=numpy.float32).reshape(shape) + 1


def _grads(*vs):
    return [v.grad for v in vs]


def leaf_accumulates(c):
    x = c.chainer.Variable(_a(3))
    c.F.sum(x * x).backward()
    c.F.sum(x * 2).backward()
    return x.grad


def scalar_seed_taken(c):
    x = c.chainer.Variable(_a(3))
    y = c.F.sum(x * 2)
    y.backward()
    return _grads(y, x)


def scalar_seed_retained(c):
    x = c.chainer.Variable(_a(3))
    y = c.F.sum(x * 2)
    y.backward(retain_grad=True, loss_scale=3.0)
    return _grads(y, x)


def given_grad_taken(c):
    x = c.chainer.Variable(_a(3))
    y = x * 2
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    return _grads(y, x)


def given_grad_variable_returned(c):
    x = c.chainer.Variable(_a(3))
    y = c.F.sum(x * 2)
    gy = c.chainer.Variable(numpy.array(5, numpy.float32))
    y.grad_var = gy
    y.backward(retain_grad=True)
    return y.grad_var is gy, x.grad


def leaf_seeds_itself(c):
    x = c.chainer.Variable(numpy.array(2, numpy.float32))
    x.backward(loss_scale=3.0)
    v = c.chainer.Variable(_a(2))
    v.backward()
    return _grads(x, v)


def no_requires_grad(c):
    y = c.F.exp(_a(2, 3)) * 2
    y.backward(retain_grad=True)
    z = c.F.sum(c.F.exp(_a(2)))
    z.backward()
    return _grads(y, z), y.requires_grad


def retained_intermediate(c):
    x = c.chainer.Variable(_a(3))
    h = x * 2
    y = c.F.sum(h) + c.F.sum(h * h)
    y.backward(retain_grad=True)
    return _grads(h, x)


def intermediate_given_grad(c):
    x = c.chainer.Variable(_a(3))
    y = x * 2
    z = c.F.sum(y)
    y.grad = numpy.full(3, 7, numpy.float32)
    z.backward()
    return _grads(y, x)


def siblings(c):
    x = c.chainer.Variable(_a(3))
    y, z = c.F.split_axis(x, [1], 0)
    y.grad = numpy.ones(1, numpy.float32)
    z.grad = numpy.full(2, 2, numpy.float32)
    y.backward()
    return _grads(x, y, z)


def unchain_backward(c):
    x = c.chainer.Variable(_a(3))
    h = x * 2
    y = c.F.sum(h * h)
    h.unchain_backward()
    y.backward(retain_grad=True)
    return _grads(x, h)


def backward_function(c):
    x = c.chainer.Variable(_a(3))
    y = x * 2
    y.grad = numpy.ones(3, numpy.float32)
    c.chainer.backward([y])
    x2 = c.chainer.Variable(_a(3))
    y2 = x2 * 2
    c.chainer.backward([y2], [c.chainer.Variable(numpy.full(3, 2, numpy.float32))])
    return _grads(x, y, x2, y2)


def grad_function(c):
    x = c.chainer.Variable(_a(3))
    y = c.F.sum(x * x)
    y.grad = numpy.array(3, numpy.float32)
    (gx,) = c.chainer.grad([y], [x], enable_double_backprop=True)
    c.F.sum(gx * gx).backward()
    return gx, x.grad, y.grad


def no_backprop_mode(c):
    x = c.chainer.Variable(_a(2))
    with c.chainer.no_backprop_mode():
        y = x * 2
        with c.chainer.force_backprop_mode():
            z = x * 2
    return y.creator is None, z.creator is None, y.requires_grad


PROBES = _values.probes(globals(), __name__)
