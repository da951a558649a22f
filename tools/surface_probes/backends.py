"""Configuration and devices as programs use them beyond the defaults: the
config object itself, debug and backprop modes, and the backend helpers
that move, copy and classify arrays."""

import io
import threading

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def config_object(c):
    k = c.chainer.config
    out = [attempt(lambda: k.no_such_entry)]
    out.append(attempt(lambda: delattr(k, 'train')))
    k.my_entry = 5
    out.append(k.my_entry)
    del k.my_entry
    out.append(hasattr(k, 'my_entry'))
    out.append(c.chainer.global_config.train)
    return out


def config_restored_after_an_error(c):
    try:
        with c.chainer.using_config('train', False):
            with c.chainer.using_config('new_one', 1):
                raise KeyError('inside')
    except KeyError:
        pass
    return c.chainer.config.train, hasattr(c.chainer.config, 'new_one')


def config_show(c):
    out = io.StringIO()
    with c.chainer.using_config('train', False):
        c.chainer.config.show(out)
    names = [line.split()[0] for line in out.getvalue().splitlines() if line.strip()]
    return sorted(names)


def config_assignment_is_per_thread(c):
    seen = []
    c.chainer.config.train = False
    try:
        t = threading.Thread(target=lambda: seen.append(c.chainer.config.train))
        t.start()
        t.join()
        here = c.chainer.config.train
    finally:
        del c.chainer.config.train
    return seen, here, c.chainer.config.train


def debug_modes(c):
    ch = c.chainer
    out = [ch.is_debug()]
    with ch.using_config('debug', True):
        out.append(ch.is_debug())
    ch.set_debug(True)
    out.append((ch.is_debug(), ch.config.debug))
    ch.set_debug(False)
    out.append(ch.is_debug())
    return out


def backprop_modes_nested(c):
    ch = c.chainer
    x = ch.Variable(numpy.ones(2, numpy.float32))
    out = []
    with ch.no_backprop_mode():
        out.append((x * 2).creator is None)
        with ch.force_backprop_mode():
            out.append((x * 2).creator is None)
            out.append(ch.config.enable_backprop)
        out.append(ch.config.enable_backprop)
    out.append(ch.config.enable_backprop)
    return out


def backend_helpers(c):
    b = c.chainer.backend
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    dst = numpy.zeros((2, 3), numpy.float32)
    b.copyto(dst, a)
    out = [
        dst,
        str(b.get_device_from_array(a)),
        str(b.get_device_from_array(c.chainer.Variable(a))),
        b.get_array_module([a, a]).__name__,
        b.get_array_module().__name__,
        attempt(lambda: b.copyto(dst, numpy.zeros((3, 2), numpy.float32))),
        attempt(lambda: b.copyto(a.tolist(), a)),
        attempt(lambda: b.is_arrays_compatible([a, a])),
    ]
    return out


def device_objects(c):
    ch = c.chainer
    d = ch.get_device('@numpy')
    out = [
        d.xp.__name__,
        d.name,
        d == ch.get_device(-1),
        d != ch.backend.CpuDevice(),
        hash(d) == hash(ch.backend.CpuDevice()),
        repr(d),
        attempt(lambda: ch.get_device(object())),
        attempt(lambda: ch.get_device('@cupy:-1')),
        attempt(lambda: ch.get_device('numpy')),
        attempt(lambda: ch.get_device('@intel64')),
        attempt(lambda: ch.get_device((0, 1))),
    ]
    with ch.using_device(d):
        out.append('used')
    out.append(attempt(lambda: d.__enter__()))
    return out


def device_send(c):
    d = c.chainer.get_device('@numpy')
    a = numpy.ones(3, numpy.float32)
    sent = d.send([a, a])
    return [
        type(sent).__name__,
        sent[0] is a,
        attempt(lambda: d.send([a, (a, None)])),
        attempt(lambda: d.send({'k': a})),
        attempt(lambda: d.send(None)),
        attempt(lambda: d.send(object())),
        d.send(numpy.float32(2)),
        type(d.send(numpy.float32(2))).__name__,
    ]


def cuda_module_without_a_gpu(c):
    cuda = c.chainer.backends.cuda
    a = numpy.ones(2, numpy.float32)
    return [
        cuda.available,
        cuda.cudnn_enabled,
        cuda.to_cpu(a) is a,
        cuda.to_cpu(None),
        type(cuda.to_cpu([a, a])).__name__,
        cuda.get_array_module(a).__name__,
        attempt(lambda: cuda.to_gpu(a)),
        attempt(lambda: cuda.get_device_from_id(0)),
        attempt(lambda: cuda.check_cuda_available()),
        c.chainer.backends.intel64.is_ideep_available(),
    ]


PROBES = _values.probes(globals(), __name__)
