"""More of Variable and Parameter as programs use them: NumPy operands,
iteration, debug text, gradient helpers across dtypes, copies of data,
creators set by hand, parameters' initializers and update rules."""

import copy
import pickle

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _a(*shape, dtype=numpy.float32):
    return (numpy.arange(numpy.prod(shape)).reshape(shape) + 1).astype(dtype)


def numpy_operands(c):
    V = c.chainer.Variable
    v, a = V(_a(2, 3)), _a(2, 3)
    out = []
    for make in (
        lambda: a + v,
        lambda: a * v,
        lambda: a - v,
        lambda: a / v,
        lambda: a ** V(_a(2, 3) / 4),
        lambda: numpy.float32(2) * v,
        lambda: a @ V(_a(3, 2)),
        lambda: numpy.exp(v),
    ):
        r = attempt(make)
        out.append(r if r[0] == 'raise' else [type(make()).__name__, r])
    return out


def iteration_and_len(c):
    V = c.chainer.Variable
    v = V(_a(3, 2))
    rows = attempt(lambda: [r.shape for r in v])
    return [
        rows,
        attempt(lambda: len(V(numpy.float32(1)))),
        attempt(lambda: len(V(None))),
        attempt(lambda: list(V(numpy.float32(1)))),
        attempt(lambda: bool(V(_a(1)))),
        attempt(lambda: bool(V(_a(2)))),
        attempt(lambda: float(V(_a(1)))),
        attempt(lambda: int(V(_a(1)))),
    ]


def debug_text(c):
    V = c.chainer.Variable
    v = V(_a(2, 2), name='w')
    v.grad = _a(2, 2) * 0.5
    text = v.debug_print()
    lines = [line.split(':')[0].strip() for line in text.splitlines() if ':' in line]
    return [
        lines,
        attempt(lambda: V(None).debug_print().splitlines()[0].split(' at ')[0]),
        v.summary() if hasattr(v, 'summary') else 'no summary',
    ]


def gradient_helpers(c):
    V = c.chainer.Variable
    v = V(_a(2))
    out = [attempt(lambda: v.addgrad(V(_a(2), grad=_a(2)))), v.grad]
    w = V(_a(2), grad=_a(2))
    wide = _a(2, dtype=numpy.float64)
    out.append(attempt(lambda: w.addgrad(V(wide, grad=wide))))
    out.append(w.grad)
    out.append(attempt(lambda: w.addgrad(V(_a(3), grad=_a(3)))))
    z = V(_a(2))
    z.zerograd()
    out.append(z.grad)
    z.cleargrad()
    out.append(z.grad)
    out.append(attempt(lambda: setattr(z, 'grad', _a(3))))
    out.append(attempt(lambda: setattr(z, 'grad', _a(2, dtype=numpy.float64))))
    out.append(attempt(lambda: setattr(z, 'grad', [1.0, 2.0])))
    return out


def copies_of_data(c):
    V = c.chainer.Variable
    v, w = V(_a(2, 2)), V(_a(2, 2) * 3)
    keep = v.array
    v.copydata(w)
    out = [keep is v.array, v.array]
    out.append(attempt(lambda: v.copydata(V(_a(3)))))
    out.append(attempt(lambda: v.copydata(V(_a(2, 2, dtype=numpy.float64)))))
    u = V(None)
    out.append(attempt(lambda: u.copydata(w)))
    out.append(u.array)
    return out


def creators_by_hand(c):
    V = c.chainer.Variable
    x = V(_a(2))
    y = c.F.exp(x)
    z = V(_a(2))
    z.set_creator(y.creator)
    out = [z.rank, z.creator is y.creator]
    z.creator_node = None
    out.append((z.rank, z.creator))
    z.set_creator_node(y.creator_node)
    out.append(z.rank)
    out.append(attempt(lambda: z.set_creator(object())))
    return out


def parameter_initializers(c):
    P, I = c.chainer.Parameter, c.I
    out = []
    for make in (
        lambda: P(I.Constant(2.0), (2, 3)),
        lambda: P(3.0, (2,)),
        lambda: P(numpy.float32(3.0), (2,)),
        lambda: P(I.Normal(), None),
        lambda: P(_a(2)),
        lambda: P(None),
        lambda: P(I.Constant(1.0)),
    ):
        p = attempt(make)
        if p[0] == 'raise':
            out.append(p)
            continue
        q = make()
        out.append(
            [q.array is None, attempt(lambda: str(q.dtype)), attempt(lambda: q.shape)]
        )
    p = P(I.Constant(2.0))
    p.initialize((2,))
    out.append(p.array)
    out.append(attempt(lambda: P(I.Constant(1.0), (2,)).initialize((3,))))
    q = P(I.Constant(1.0, dtype=numpy.float16), (2,))
    out.append(str(q.dtype))
    return out


def parameter_update_rules(c):
    P = c.chainer.Parameter
    p = P(_a(2))
    out = [p.update_rule]
    rule = c.O.SGD(lr=0.5).create_update_rule()
    p.update_rule = rule
    p.grad = _a(2)
    p.update()
    out.append(p.array)
    out.append(rule.t)
    q = copy.deepcopy(p)
    out.append([q.update_rule is not None, q.update_rule is p.update_rule])
    r = pickle.loads(pickle.dumps(p))
    out.append([r.array, r.grad, r.name])
    out.append(attempt(lambda: P(_a(2)).update()))
    return out


def parameter_as_variable(c):
    P = c.chainer.Parameter
    p = P(_a(2, 2), name='p')
    y = p * 2
    return [
        type(y).__name__,
        y.creator is not None,
        repr(p).split('(')[0],
        p.name,
        p.requires_grad,
        attempt(lambda: setattr(p, 'requires_grad', False)),
        isinstance(p, c.chainer.Variable),
        attempt(lambda: P(_a(2), requires_grad=False)),
    ]


PROBES = _values.probes(globals(), __name__)
