"""Runner for the helper functions of ``chainer.utils``, ``chainer.backend``
and ``chainer.dataset`` that compute from their arguments: the same
generated arrays, shapes, sizes and batches on both sides; compared: what
they return (arrays by dtype, shape and values; devices by their names)."""

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import generic
from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S


def _device_name(device):
    return getattr(device, 'name', repr(device))


def _batch(data):
    """A list of examples: arrays, tuples of arrays or dicts, shapes that
    may differ (for padding)."""
    n = data.draw(st.integers(1, 3))
    form = data.draw(st.sampled_from(['array', 'tuple', 'dict']))
    same = data.draw(st.booleans())
    seed = data.draw(S.seeds)
    out = []
    for i in range(n):
        length = 2 if same else 1 + i
        x = S.make_array(seed + i, (length,), numpy.float32)
        t = numpy.int32(i)
        out.append({'array': x, 'tuple': (x, t), 'dict': {'x': x, 't': t}}[form])
    return out, same


def _cases():
    """``name -> draw(data) -> (label, stage)``."""
    U, B, D = 'utils', 'backend', 'dataset'

    def outsize(kind):
        def draw(data):
            args = [data.draw(st.integers(0, 9)) for _ in range(2)]
            args += [data.draw(st.integers(1, 3)), data.draw(st.integers(0, 2))]
            cover_all = data.draw(st.booleans())
            d = data.draw(st.integers(1, 2))
            name = f'get_{kind}_outsize'
            return f'{name}{args} cover_all={cover_all} d={d}', lambda lib, s: getattr(
                lib.utils, name
            )(*args, cover_all=cover_all, d=d)

        return draw

    def array_case(fn):
        def draw(data):
            shape = data.draw(S.base_shapes)
            x = S.make_array(
                data.draw(S.seeds), shape, data.draw(st.sampled_from(S.FLOATS))
            )
            return f'{x.dtype}{x.shape}', lambda lib, s: fn(lib, x)

        return draw

    def sum_to(data):
        shape = data.draw(st.sampled_from([(2, 3), (2, 1, 3), (4,), ()]))
        x = S.make_array(data.draw(S.seeds), shape, numpy.float32)
        target = data.draw(S.broadcast_partner(shape))
        return f'sum_to {shape} -> {target}', lambda lib, s: lib.utils.sum_to(x, target)

    def walker(data):
        probs = numpy.asarray(
            data.draw(
                st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=1, max_size=5)
            )
        )
        if probs.sum() == 0:
            probs[0] = 1.0
        seed = data.draw(S.seeds)

        def stage(lib, s):
            sampler = lib.utils.WalkerAlias(probs)
            numpy.random.seed(seed)
            return {
                'threshold': sampler.threshold,
                'values': sampler.values,
                'sample': sampler.sample((3, 2)),
            }

        return f'WalkerAlias {probs.tolist()}', stage

    def coo(data):
        x = S.make_array(data.draw(S.seeds), (3, 4), numpy.float32)
        x[x < 0] = 0
        return 'to_coo (3, 4)', lambda lib, s: _coo(lib, x)

    def concat(data):
        batch, same = _batch(data)
        padding = None if same else data.draw(st.sampled_from([0, -1]))
        return (
            f'concat_examples {len(batch)} padding={padding}',
            lambda lib, s: lib.dataset.concat_examples(batch, padding=padding),
        )

    def to_device(data):
        x = S.make_array(data.draw(S.seeds), (2,), numpy.float32)
        device = data.draw(st.sampled_from([None, -1, '@numpy']))
        return f'to_device {device}', lambda lib, s: lib.dataset.to_device(device, x)

    def backend_case(fn):
        def draw(data):
            x = S.make_array(data.draw(S.seeds), (2, 2), numpy.float32)
            return 'backend (2, 2)', lambda lib, s: fn(lib, x)

        return draw

    return {
        (U, 'get_conv_outsize'): outsize('conv'),
        (U, 'get_deconv_outsize'): outsize('deconv'),
        (U, 'force_array'): array_case(
            lambda lib, x: lib.utils.force_array(x[()] if x.ndim == 0 else x)
        ),
        (U, 'force_type'): array_case(
            lambda lib, x: lib.utils.force_type(numpy.float64, x)
        ),
        (U, 'size_of_shape'): array_case(
            lambda lib, x: lib.utils.size_of_shape(x.shape)
        ),
        (U, 'sum_to'): sum_to,
        (U, 'WalkerAlias'): walker,
        (U, 'to_coo'): coo,
        (U, 'CooMatrix'): coo,
        (D, 'concat_examples'): concat,
        (D, 'to_device'): to_device,
        (B, 'get_array_module'): backend_case(
            lambda lib, x: lib.backend.get_array_module(x, lib.Variable(x)).__name__
        ),
        (B, 'get_device'): backend_case(
            lambda lib, x: _device_name(lib.backend.get_device('@numpy'))
        ),
        (B, 'get_device_from_array'): backend_case(
            lambda lib, x: _device_name(lib.backend.get_device_from_array(x))
        ),
        (B, 'copyto'): backend_case(_copyto),
        (B, 'CpuDevice'): backend_case(_cpu_device),
        (B, 'using_device'): backend_case(_using_device),
    }


def _coo(lib, x):
    m = lib.utils.to_coo(x)
    return {
        'data': m.data,
        'row': m.row,
        'col': m.col,
        'shape': m.shape,
        'dense': m.to_dense(),
    }


def _copyto(lib, x):
    dst = numpy.zeros_like(x)
    lib.backend.copyto(dst, x)
    return dst


def _cpu_device(lib, x):
    d = lib.backend.CpuDevice()
    return {
        'name': d.name,
        'xp': d.xp.__name__,
        'send': d.send(x),
        'eq': d == lib.backend.CpuDevice(),
        'repr': generic.normalized_repr(d),
    }


def _using_device(lib, x):
    with lib.backend.using_device('@numpy'):
        return lib.backend.get_array_module(x).__name__


def run(qualified, libs, tally, examples, seconds):
    module, _, name = qualified.rpartition('.')
    draw = _cases().get((module.rpartition('.')[2], name))
    if draw is None:
        return 'no generated input for it'

    def draw_case(data):
        label, stage = draw(data)
        pair.run_case(libs, [(name, stage)], tally, f'{name} {label}')

    pair.explore(draw_case, examples, seconds)
    generic.run(qualified, libs, tally, examples, seconds)
