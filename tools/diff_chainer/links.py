"""Runner for ``chainer.links``: a link built from the same generated
arguments on both sides, with Chainer's parameter values copied into
chainerlite's; compared: parameter names, shapes and dtypes, ``repr``,
the forward output, the gradients of parameters and input, and the
serialized link."""

import inspect
import re

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S

NOT_COVERED = {
    'GoogLeNet': 'a pre-trained model; building it takes seconds',
    'ResNet50Layers': 'a pre-trained model; building it takes seconds',
    'ResNet101Layers': 'a pre-trained model; building it takes seconds',
    'ResNet152Layers': 'a pre-trained model; building it takes seconds',
    'VGG16Layers': 'a pre-trained model; building it takes seconds',
    'VGG19Layers': 'a pre-trained model; building it takes seconds',
    'TheanoFunction': 'needs Theano',
}
# Links that draw random numbers in training mode: run in test mode.
TRAIN_RANDOM = frozenset('SimplifiedDropconnect StatefulZoneoutLSTM'.split())
SIZE_NAMES = frozenset(
    'in_size out_size in_channels out_channels n_units n_inputs size n_in n_out '
    'in_size1 in_size2 left_size right_size n_hidden channels'.split()
)
sizes = st.integers(1, 4)


def plan(cls):
    """``(positional kinds, optional parameters)`` of the constructor, or
    a reason (str) when a required parameter has no kind."""
    required, optional = [], {}
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.default is None and p.name in SIZE_NAMES:
            required.append((p.name, 'size'))  # out_size=None: lazy forms
            continue
        if p.default is not p.empty:
            if isinstance(p.default, (bool, int, float)):
                optional[p.name] = p.default
            continue
        if p.name in SIZE_NAMES:
            required.append((p.name, 'size'))
        elif p.name in ('ksize', 'stride', 'pad'):
            required.append((p.name, 'window'))
        elif p.name == 'ndim':
            required.append((p.name, 'ndim'))
        elif p.name == 'n_layers':
            required.append((p.name, 'layers'))
        elif p.name in ('dropout', 'ratio'):
            required.append((p.name, 'zero'))
        else:
            return f'no argument kind for required parameter {p.name!r}'
    return required, optional


@st.composite
def construction(draw, link_plan):
    required, optional = link_plan
    args = {}
    for name, kind in required:
        if kind == 'size':
            args[name] = draw(sizes)
        elif kind == 'window':
            args[name] = draw(st.integers(1, 3))
        elif kind in ('ndim', 'layers'):
            args[name] = draw(st.integers(1, 2))
        else:
            args[name] = 0.0
    kwargs = {
        n: draw(S.scalar_near(d)) for n, d in optional.items() if draw(st.booleans())
    }
    return args, kwargs


def neutral_repr(obj):
    """``repr(obj)`` without the package's name and the object's address."""
    text = re.sub(r' at 0x[0-9a-f]+', '', repr(obj))
    return re.sub(r'\bchainerlite\b', 'chainer', text)


def input_shape(cls_name, args, batch):
    """A plausible input shape: batch, then the input size or channels,
    then spatial axes for convolutions and poolings."""
    first = args.get(
        'in_size', args.get('in_channels', args.get('size', args.get('n_inputs', 3)))
    )
    if 'ksize' not in args:
        return (batch, first)
    spatial = args.get('ndim') or (
        1 if '1D' in cls_name else 3 if '3D' in cls_name else 2
    )
    return (batch, first) + (5,) * spatial


def stages(name, args, kwargs, x, gy_seed):
    def construct(lib, s):
        link = getattr(lib.links, name)(*args.values(), **kwargs)
        s['link'] = link
        if 'link' in s.get('peer', {}):
            theirs = dict(s['peer']['link'].namedparams())
            for path, param in link.namedparams():
                if path in theirs and theirs[path].array is not None:
                    param.array = theirs[path].array.copy()
        shapes = [
            (p, None if v.array is None else (v.shape, v.dtype.name))
            for p, v in link.namedparams()
        ]
        return {'params': sorted(shapes, key=str), 'repr': neutral_repr(link)}

    def forward(lib, s):
        s['x'] = lib.Variable(x.copy())
        link = s['link']
        with lib.using_config('train', name not in TRAIN_RANDOM):
            if (
                name in TRAIN_RANDOM
                and 'train' in inspect.signature(link.forward).parameters
            ):
                s['y'] = link(s['x'], train=False)
            else:
                s['y'] = link(s['x'])
        return s['y']

    def gradient(lib, s):
        y = s['y']
        s['link'].cleargrads()
        lib.functions.sum(y * S.make_array(gy_seed, y.shape, y.dtype)).backward()
        grads = {p: v.grad for p, v in s['link'].namedparams()}
        return {'params': grads, 'x': s['x'].grad}

    return [
        ('construct', construct),
        ('forward', forward),
        ('grad', gradient),
        ('serialize', pair.serialized('link')),
    ]


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name in NOT_COVERED:
        return NOT_COVERED[name]
    link_plan = plan(getattr(libs[0].links, name))
    if isinstance(link_plan, str):
        return link_plan

    def draw_case(data):
        args, kwargs = data.draw(construction(link_plan))
        shape = input_shape(name, args, data.draw(st.integers(1, 3)))
        x = data.draw(S.arrays(shape, (numpy.float32,)))
        label = f'{name}({args}, {kwargs}) x{shape}'
        pair.run_case(
            libs, stages(name, args, kwargs, x, data.draw(S.seeds)), tally, label
        )

    pair.explore(draw_case, examples, seconds)
