"""Configuration, backprop modes, devices and dtypes."""

import threading

import numpy

from tools.surface_probes import _values


def defaults(c):
    k = c.chainer.config
    return [
        getattr(k, n)
        for n in (
            'train',
            'enable_backprop',
            'type_check',
            'debug',
            'use_cudnn',
            'cudnn_deterministic',
            'use_ideep',
            'lazy_grad_sum',
            'keep_graph_on_report',
            'autotune',
            'use_static_graph',
            'in_recomputing',
            'warn_nondeterministic',
            'compute_mode',
        )
    ] + [str(k.dtype)]


def using_config(c):
    with c.chainer.using_config('train', False):
        a = c.chainer.config.train
        with c.chainer.using_config('foo', 3):
            b = c.chainer.config.foo
    return a, b, c.chainer.config.train, hasattr(c.chainer.config, 'foo')


def thread_local(c):
    seen = []
    with c.chainer.using_config('train', False):
        t = threading.Thread(target=lambda: seen.append(c.chainer.config.train))
        t.start()
        t.join()
    return seen


def enable_backprop_off(c):
    with c.chainer.using_config('enable_backprop', False):
        y = c.chainer.Variable(numpy.ones(2, numpy.float32)) * 2
    return y.requires_grad, y.creator is None


def devices(c):
    b = c.chainer.backend
    return [str(c.chainer.get_device(s)) for s in ('@numpy', -1, '-1')] + [
        c.chainer.get_device('@numpy') == b.CpuDevice()
    ]


def device_of_a_module(c):
    return str(c.chainer.get_device(numpy))


def device_of_a_gpu(c):
    return str(c.chainer.get_device('@cupy:0'))


def dtypes(c):
    with c.chainer.using_config('dtype', c.chainer.mixed16):
        mixed = [
            str(c.chainer.get_dtype()),
            str(c.chainer.get_dtype(map_mixed16=numpy.float32)),
        ]
    with c.chainer.using_config('dtype', numpy.float16):
        link = c.L.Linear(2, 3)
    return mixed, str(link.W.dtype), str(c.chainer.get_dtype())


def array_module(c):
    b = c.chainer.backend
    return [
        b.get_array_module(numpy.ones(1)).__name__,
        b.get_array_module(c.chainer.Variable(numpy.ones(1))).__name__,
    ]


PROBES = _values.probes(globals(), __name__)
