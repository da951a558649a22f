"""Loaded first in each process that runs a library on one side.

As a pytest plugin (``-p downstream_side``) or by ``prepare()``: puts back
the NumPy aliases that the libraries still use (``np.float`` and its
kind, removed in NumPy 1.24), and, when ``DOWNSTREAM_SIDE=chainerlite``,
makes ``import chainer`` answer with chainerlite. ``CHAINERLITE_TREE``
names a checkout to load chainerlite from instead of the installed one
(its tools/oracle_tree.py does it).

This folder holds only files meant to be on the libraries' ``sys.path``.
"""

import importlib.util
import io
import json
import os
import pathlib
import time
import traceback

import numpy

_ALIASES = {
    'float': float,
    'int': int,
    'bool': bool,
    'object': object,
    'complex': complex,
    'str': str,
}


def prepare():
    """Sets up this process for the side named by ``DOWNSTREAM_SIDE``."""
    for name, kind in _ALIASES.items():
        if name not in numpy.__dict__:
            setattr(numpy, name, kind)
    side = os.environ.get('DOWNSTREAM_SIDE', 'chainer')
    if side not in ('chainer', 'chainerlite'):
        raise ValueError(
            'downstream_side: DOWNSTREAM_SIDE must be chainer or chainerlite, not %r'
            % side
        )
    if side == 'chainer':
        return
    tree = os.environ.get('CHAINERLITE_TREE')
    if tree:
        path = pathlib.Path(tree) / 'tools' / 'oracle_tree.py'
        spec = importlib.util.spec_from_file_location('_downstream_oracle_tree', path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.use_working_tree()
    from chainerlite import compat

    compat.install(stream=io.StringIO())


def compare_run(model, inputs, name, outdir):
    """Runs ``model(*inputs)`` in test mode and backpropagates a fixed loss.

    Chainer's side saves the parameters to ``OUTDIR/NAME.params.npz``;
    chainerlite's side loads them first (after one call, which makes lazily
    shaped parameters). Each side saves the output and every parameter
    gradient to ``OUTDIR/NAME.SIDE.npz``.
    """
    import chainer

    side = os.environ.get('DOWNSTREAM_SIDE', 'chainer')
    params = os.path.join(outdir, name + '.params.npz')
    with chainer.using_config('train', False):
        if side == 'chainerlite':
            model(*inputs)
            chainer.serializers.load_npz(params, model)
        y = model(*inputs)
        if isinstance(y, (tuple, list)):
            y = y[0]
        weight = numpy.random.RandomState(2).uniform(-1, 1, y.shape).astype(y.dtype)
        model.cleargrads()
        chainer.functions.sum(y * weight).backward()
    if side == 'chainer':
        chainer.serializers.save_npz(params, model)
    arrays = {'y': y.array}
    for path, param in model.namedparams():
        if param.grad is not None:
            arrays['grad' + path.replace('/', '|')] = param.grad
    numpy.savez(os.path.join(outdir, '%s.%s.npz' % (name, side)), **arrays)


def report(run, argv):
    """Calls ``run(*argv)`` and prints one JSON line saying how it went."""
    start = time.time()
    record = {'name': argv[0]}
    try:
        run(*argv)
        record['ok'] = True
    except Exception as e:
        record['ok'] = False
        record['error'] = '%s: %s' % (type(e).__name__, str(e)[:300])
        record['traceback'] = traceback.format_exc()[-1500:]
    record['seconds'] = round(time.time() - start, 2)
    print(json.dumps(record))


prepare()
