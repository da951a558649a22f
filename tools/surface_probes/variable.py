"""Variable's own surface: construction, attributes, setters, operators."""

import copy
import pickle

import numpy

from tools.surface_probes import _values


def _a(*shape, dtype=numpy.float32):
    return (numpy.arange(numpy.prod(shape)).reshape(shape) + 1).astype(dtype)


_try = _values.attempt


def construction(c):
    V = c.chainer.Variable
    return [
        _try(lambda: V(None).array),
        _try(lambda: V(_a(2), name='v').name),
        _try(lambda: V(_a(2), grad=_a(2)).grad),
        _try(lambda: V(_a(2), requires_grad=False).requires_grad),
        _try(lambda: V(numpy.float32(1))),
        _try(lambda: V([1.0, 2.0])),
        _try(lambda: V(_a(2, dtype=numpy.int32)).dtype.name),
        _try(lambda: V(_a(2), _a(2))),
        _try(lambda: V(V(_a(2)))),
    ]


def attributes(c):
    v = c.chainer.Variable(_a(2, 3), name='v')
    return [
        v.shape,
        v.ndim,
        v.size,
        str(v.dtype),
        len(v),
        v.label,
        v.rank,
        v.creator,
        v.creator_node,
        v.node.name,
        v.node.label,
        v.node.rank,
        v.xp.__name__,
        str(v.device),
        v.T.shape,
        v.node.shape,
        str(v.node.dtype),
        v.node.requires_grad,
        v.node.data is v.array,
        v.data is v.array,
    ]


def text(c):
    out = []
    for v in (
        c.chainer.Variable(_a(2), name='v'),
        c.chainer.Variable(None),
        c.chainer.Variable(numpy.array(1.5, numpy.float32)),
        c.chainer.Parameter(_a(2)),
        c.chainer.Parameter(),
    ):
        out.append([repr(v), str(v), _try(lambda v=v: v.node.label)])
    return out


def setters(c):
    V = c.chainer.Variable
    out = []

    def set_array(v, a):
        v.array = a
        return v.array

    def set_grad(v, g):
        v.grad = g
        return v.grad

    def set_grad_var(v, g):
        v.grad_var = g
        return v.grad

    for fn, value in (
        (set_array, _a(3)),
        (set_array, _a(2, dtype=numpy.float64)),
        (set_array, None),
        (set_array, [1, 2]),
        (set_grad, _a(2)),
        (set_grad, _a(3)),
        (set_grad, _a(2, dtype=numpy.float64)),
        (set_grad, _a(2, dtype=numpy.int32)),
        (set_grad, [1.0, 2.0]),
        (set_grad, numpy.float32(1)),
        (set_grad, None),
        (set_grad_var, V(_a(2))),
        (set_grad_var, _a(2)),
    ):
        out.append(_try(lambda fn=fn, value=value: fn(V(_a(2)), value)))
    return out


def name_and_requires_grad(c):
    v = c.chainer.Variable(_a(2))
    v.name = 'x'
    out = [v.name, v.label]
    out.append(_try(lambda: setattr(v, 'requires_grad', False)))
    out.append(v.requires_grad)
    return out


def grad_methods(c):
    V = c.chainer.Variable
    v = V(_a(2))
    out = [_try(lambda: (v.zerograd(), v.grad)[1])]
    v.grad = _a(2)
    v.cleargrad()
    out.append(v.grad)
    w = V(_a(2))
    w.grad = _a(2)
    out.append(_try(lambda: (v.addgrad(w), v.grad)[1]))
    out.append(_try(lambda: (v.addgrad(w), v.grad)[1]))
    out.append(_try(lambda: v.addgrad(V(_a(3)))))
    u = V(_a(2))
    out.append(_try(lambda: (u.copydata(V(_a(2) * 5)), u.array)[1]))
    out.append(_try(lambda: u.copydata(V(_a(3)))))
    return out


def comparisons_and_truth(c):
    v = c.chainer.Variable(_a(2))
    w = c.chainer.Variable(_a(2))
    return [
        _try(lambda: v == w),
        _try(lambda: v != w),
        _try(lambda: v < w),
        _try(lambda: bool(v)),
        _try(lambda: bool(c.chainer.Variable(_a(1)))),
        _try(lambda: hash(v) == hash(v)),
        _try(lambda: list(v)),
        _try(lambda: v in [w]),
    ]


def operators(c):
    V = c.chainer.Variable
    x, y = V(_a(2)), V(_a(2) + 1)
    cases = [
        lambda: x + y,
        lambda: x - 1,
        lambda: 1 - x,
        lambda: x * 2,
        lambda: 2.0 * x,
        lambda: x / y,
        lambda: 3 / x,
        lambda: x**2,
        lambda: 2**x,
        lambda: x**y,
        lambda: -x,
        lambda: abs(-x),
        lambda: +x,
        lambda: x + _a(2),
        lambda: _a(2) + x,
        lambda: x * numpy.float64(2),
        lambda: numpy.float64(2) * x,
        lambda: x + numpy.int32(1),
        lambda: x @ V(_a(2, 2)),
        lambda: x + V(_a(2, dtype=numpy.float64)),
        lambda: x * True,
        lambda: x // 2,
        lambda: x % 2,
        lambda: x + 'a',
        lambda: x + None,
        lambda: x * numpy.array(2.0),
        lambda: x + numpy.array([1, 2]),
        lambda: V(_a(2, dtype=numpy.int32)) * 2,
        lambda: V(_a(2, dtype=numpy.int32)) / 2,
        lambda: V(_a(2, dtype=numpy.int32)) + 0.5,
    ]
    out = []
    for f in cases:
        r = _try(f)
        if r[0] == 'ok':
            v = f()
            r.append([type(v).__name__, str(getattr(v, 'dtype', None))])
        out.append(r)
    return out


def getitem(c):
    v = c.chainer.Variable(_a(3, 4))
    keys = [
        1,
        -1,
        slice(None, None, -1),
        (Ellipsis, 1),
        (None, 0),
        [0, 2],
        numpy.array([True, False, True]),
        (slice(1, None), [0, 3]),
        (0, 0),
        numpy.array([[0, 1]]),
        (1, None, slice(None)),
        5,
        (0, 0, 0),
        1.5,
    ]
    out = []
    for k in keys:

        def f(k=k):
            y = v[k]
            c.F.sum(y * y).backward()
            g = v.grad.copy()
            v.cleargrad()
            return y, g

        out.append(_try(f))
    return out


def shape_methods(c):
    v = c.chainer.Variable(_a(2, 3, 4))
    return [
        _try(lambda: v.reshape(6, 4).shape),
        _try(lambda: v.reshape((4, 6)).shape),
        _try(lambda: v.reshape(-1).shape),
        _try(lambda: v.reshape(5, 5)),
        _try(lambda: v.transpose().shape),
        _try(lambda: v.transpose(1, 0, 2).shape),
        _try(lambda: v.transpose((2, 0, 1)).shape),
        _try(lambda: v.T.shape),
        _try(lambda: v.mean()),
        _try(lambda: v.mean(axis=1).shape),
        _try(lambda: v.mean(axis=(0, 2), keepdims=True).shape),
        _try(lambda: c.chainer.Variable(_a(1)).item()),
        _try(lambda: v.item()),
    ]


def copies(c):
    v = c.chainer.Variable(_a(2), name='v')
    v.grad = _a(2)
    y = v * 2
    out = []
    for dup in (copy.copy, copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))):
        d = dup(v)
        out.append([d.name, d.array, d.grad, d.array is v.array, d.creator is None])
        out.append(_try(lambda dup=dup: dup(y).creator is None))
    return out


def unchain_and_creator(c):
    V = c.chainer.Variable
    x = V(_a(2))
    y = x * 2
    z = y * 3
    out = [y.creator is not None, y.rank, z.rank]
    y.unchain()
    out += [y.creator is None, y.rank, z.rank, z.creator is not None]
    w = V(_a(2))
    out.append(_try(lambda: (w.set_creator(z.creator), w.rank)[1]))
    out.append(_try(lambda: w.set_creator(object())))
    out.append(_try(lambda: setattr(w, 'creator', None) or w.creator))
    return out


def retain_data(c):
    x = c.chainer.Variable(_a(2))
    y = c.F.exp(x)
    n = y.node
    out = [n.data is not None]
    del y
    out.append(n.data is not None)
    y2 = c.F.exp(x)
    n2 = y2.node
    y2.node.retain_data()
    del y2
    out.append(n2.data is not None)
    return out


def parameters(c):
    P = c.chainer.Parameter
    out = []
    p = P()
    out += [
        p.array is None,
        _try(lambda: p.grad),
        _try(lambda: p.shape),
        _try(lambda: p.dtype),
    ]
    p.initialize((2, 3))
    out += [p.array, p.grad]
    q = P(c.I.Constant(2.0), (2,))
    out += [q.array, _try(lambda: q.zerograd() or q.grad)]
    r = P(numpy.float32(3), (2,))
    out.append(_try(lambda: r.array))
    s = P(_a(2))
    out += [s.requires_grad, s.update_rule, s.grad]
    t = P(c.I.Normal(), (2,))
    out.append(_try(lambda: t.dtype.name))
    u = P(None, (2,))
    out.append(_try(lambda: u.array))
    return out


PROBES = _values.probes(globals(), __name__)
