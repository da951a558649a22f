"""The child program of test_object_fuzz: drives what users call besides
``chainerlite.functions`` with random arguments: Variable operators and
methods, every optimizer (with hooks and loss scaling) on parameters of
random arrays, and the links (built small, then called twice and
backpropagated).

Run as ``python object_fuzz.py SEED CALLS LOG``: for each family a forked
child makes CALLS calls, writing a description of each call to LOG before
making it, and exits 0 when every call returned or raised an exception.
The parent prints one line per family, ``NAME ok`` or ``NAME FAIL <why>:
<the call>``: a signal (a crash), a hang past the time limit, an exit code.
The arguments are those of ``public_fuzz.py`` (odd dtypes,
layouts, shapes, NaN, huge values, wrong types).
"""

import operator
import os
import pathlib
import random
import resource
import sys

import numpy

import chainerlite
import chainerlite.links as L
from chainerlite import optimizer_hooks as H
from chainerlite import optimizers as O

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import public_fuzz as pf  # noqa: E402

OPERATORS = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.matmul,
    operator.lt,
    operator.ge,
    operator.eq,
    operator.iadd,
    operator.imul,
    operator.itruediv,
]
METHODS = [
    'reshape',
    'transpose',
    '__getitem__',
    'swapaxes',
    'repeat',
    'squeeze',
    '__neg__',
    '__abs__',
    'addgrad',
    'copydata',
    'unchain_backward',
    '__len__',
    '__float__',
    'zerograd',
    'backward',
    'item',
    '__repr__',
    'to_device',
]
OPTIMIZERS = sorted(
    name
    for name in dir(O)
    if name[0].isupper()
    and isinstance(getattr(O, name), type)
    and issubclass(getattr(O, name), chainerlite.optimizer.GradientMethod)
    and name != 'GradientMethod'
)
LINKS = {
    'Linear': lambda: L.Linear(None, 3),
    'Convolution2D': lambda: L.Convolution2D(None, 2, 3),
    'Deconvolution2D': lambda: L.Deconvolution2D(None, 2, 3),
    'ConvolutionND': lambda: L.ConvolutionND(3, 2, 2, 2),
    'DilatedConvolution2D': lambda: L.DilatedConvolution2D(None, 2, 3, dilate=2),
    'DepthwiseConvolution2D': lambda: L.DepthwiseConvolution2D(3, 2, 2),
    'LocalConvolution2D': lambda: L.LocalConvolution2D(None, 2, ksize=2),
    'Bilinear': lambda: L.Bilinear(3, 3, 2),
    'EmbedID': lambda: L.EmbedID(5, 3, ignore_label=-1),
    'Maxout': lambda: L.Maxout(3, 2, 2),
    'PReLU': lambda: L.PReLU(),
    'BatchNormalization': lambda: L.BatchNormalization(3),
    'LayerNormalization': lambda: L.LayerNormalization(),
    'GroupNormalization': lambda: L.GroupNormalization(1),
    'LSTM': lambda: L.LSTM(None, 3),
    'StatefulGRU': lambda: L.StatefulGRU(3, 3),
    'StatelessLSTM': lambda: L.StatelessLSTM(None, 3),
    'NStepLSTM': lambda: L.NStepLSTM(1, 3, 3, 0.0),
    'CRF1d': lambda: L.CRF1d(3),
    'NegativeSampling': lambda: L.NegativeSampling(3, [1, 2, 3], 2),
    'Classifier': lambda: L.Classifier(L.Linear(None, 3)),
}


def _variable_call(rng):
    a, b = pf._array(rng), pf._argument(rng)
    if rng.random() < 0.5:
        op = rng.choice(OPERATORS)
        return 'operator.%s%s' % (op.__name__, pf._describe([a, b])), lambda: op(a, b)
    if not isinstance(a, chainerlite.Variable):
        a = chainerlite.Variable(numpy.asarray(a, numpy.float32))
    name = rng.choice(METHODS)
    args = [pf._argument(rng) for _ in range(rng.randrange(3))]
    return 'Variable.%s%s' % (name, pf._describe([a] + args)), (
        lambda: getattr(a, name)(*args)
    )


def _plain(a):
    return a.array if isinstance(a, chainerlite.Variable) else a


def _optimizer_call(rng):
    name = rng.choice(OPTIMIZERS)
    array, grad = _plain(pf._array(rng)), _plain(pf._array(rng))
    hooks = rng.sample(
        [
            lambda: H.WeightDecay(0.1),
            lambda: H.Lasso(0.1),
            lambda: H.GradientClipping(1.0),
            lambda: H.GradientHardClipping(-1, 1),
            lambda: H.GradientLARS(),
        ],
        rng.randrange(3),
    )
    scaling = rng.random() < 0.3

    def call():
        opt = getattr(O, name)()
        link = chainerlite.Link()
        with link.init_scope():
            link.p = chainerlite.Parameter(array)
        opt.setup(link)
        for hook in hooks:
            opt.add_hook(hook())
        if scaling:
            opt.loss_scaling()
        for _ in range(2):
            link.p.grad = grad
            opt.update()

    return 'optimizers.%s%s' % (name, pf._describe([array, grad])), call


def _link_call(rng):
    name = rng.choice(sorted(LINKS))
    args = [
        [pf._array(rng) for _ in range(rng.randrange(3))]
        if rng.random() < 0.1
        else pf._argument(rng)
        for _ in range(rng.randrange(1, 4))
    ]
    train = rng.random() < 0.7

    def call():
        link = LINKS[name]()
        with chainerlite.using_config('train', train):
            for _ in range(2):
                pf._backward(link(*args))

    return 'links.%s%s' % (name, pf._describe(args)), call


FAMILIES = {
    'variable': _variable_call,
    'optimizers': _optimizer_call,
    'links': _link_call,
}


def _child(family, seed, calls, log):
    resource.setrlimit(resource.RLIMIT_AS, (24 << 30, 24 << 30))
    rng = random.Random('%d-%s' % (seed, family))
    for _ in range(calls):
        description, call = FAMILIES[family](rng)
        with open(log, 'w') as f:
            f.write(description)
        try:
            with numpy.errstate(all='ignore'):
                pf._backward(call())
        except (Exception, MemoryError):
            pass  # refusing an argument is fine; crashing or hanging is not
    os._exit(0)


def main(argv):
    pf.fork_each(list(FAMILIES), _child, int(argv[1]), int(argv[2]), argv[3])


if __name__ == '__main__':
    main(sys.argv)
