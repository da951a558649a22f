"""Keyword arguments that every function and link is given by old or
mistaken code: removed ones (``train``, ``use_cudnn``, ``volatile``,
``wscale``), and ones that never existed. Chainer answers each with an
exception of its own type (or accepts it); the probe compares them name by
name over the whole of ``chainer.functions`` and ``chainer.links``."""

import inspect

import numpy

from tools.surface_probes import _values

_KEYWORDS = (
    {'train': False},
    {'use_cudnn': False},
    {'volatile': True},
    {'wscale': 1},
    {'no_such_argument': 1},
)


def _outcomes(call):
    out = []
    for kwargs in _KEYWORDS:
        try:
            call(**kwargs)
            out.append('ok')
        except Exception as e:  # noqa: BLE001 - the exception is the result
            out.append(type(e).__name__)
    return out


def _public(module):
    return sorted(
        n for n in dir(module) if not n.startswith('_') and callable(getattr(module, n))
    )


# functions chainerlite adds to Chainer 7.8.1's (docs/differences.rst)
_ADDED_FUNCTIONS = frozenset({'div', 'gelu', 'mul', 'neg', 'pow', 'sub'})


def functions(c):
    x = numpy.ones((2, 3, 4, 4), numpy.float32)
    out = {}
    for name in _public(c.F):
        fn = getattr(c.F, name)
        if inspect.isclass(fn) or inspect.ismodule(fn) or name in _ADDED_FUNCTIONS:
            continue
        out[name] = _outcomes(lambda fn=fn, **kw: fn(x, **kw))
    return out


# links whose two first arguments are not enough to make one
_LINK_ARGS = {'LocalConvolution2D': (3, 2, 4, 1)}


def links(c):
    out = {}
    for name in _public(c.L):
        cls = getattr(c.L, name)
        if (
            not inspect.isclass(cls)
            or name.endswith('Layers')
            or name in ('GoogLeNet', 'TheanoFunction', 'CaffeFunction')
        ):
            continue
        args = _LINK_ARGS.get(name, (3, 2))
        out[name] = _outcomes(lambda cls=cls, args=args, **kw: cls(*args, **kw))
    return out


PROBES = _values.probes(globals(), __name__)
