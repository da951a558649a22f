"""Exports every call on one library, runs the files, prints JSON.

``python -m tools.onnx_probe.child chainer|chainerlite [--tree] [--only a,b]``:
for each call, opset and floating dtype, a record ``{'export': 'ok' or the error,
'run': 'ok' or the error, 'agree': whether ONNX Runtime's outputs equal the
forward's, 'error': the largest difference, 'ops': the file's operator
types but Constant}``. ``--tree`` imports the
checkout's chainerlite (in the oracle venv).
"""

import argparse
import importlib
import itertools
import json
import sys
import traceback
import warnings

import numpy

from tools.onnx_probe import calls

OPSETS = (None, 9)  # None: the exporter's default (11 in both)
DTYPES = ('float32', 'float16', 'float64')
TOLERANCE = {'float16': 1e-2, 'float32': 1e-4, 'float64': 1e-7}


def _error(exc):
    # ONNX Runtime's reason comes last in a long first line
    line = str(exc).split('\n')[0]
    if len(line) > 200:
        line = line[:60] + ' ... ' + line[-140:]
    return '{}: {}'.format(type(exc).__name__, line)


def _libraries(name, tree):
    if name == 'chainer':
        return importlib.import_module('chainer'), importlib.import_module(
            'onnx_chainer'
        )
    if tree:
        from tools.oracle_tree import use_working_tree

        use_working_tree()
    return importlib.import_module('chainerlite'), importlib.import_module(
        'chainerlite.onnx'
    )


def _compare(actual, expected):
    if len(actual) != len(expected):
        return False, None
    worst = 0.0
    for a, e in zip(actual, expected):
        e = numpy.asarray(e)
        if a.shape != e.shape or a.dtype != e.dtype:
            return False, None
        if e.size == 0:
            continue
        tol = TOLERANCE.get(e.dtype.name, 0)
        if not numpy.allclose(a, e, rtol=tol, atol=tol, equal_nan=True):
            both = numpy.isfinite(a) & numpy.isfinite(e)
            diff = numpy.abs(a.astype(numpy.float64) - e)[both]
            return False, float(diff.max()) if diff.size else None
        if e.dtype.kind == 'f':
            both = numpy.isfinite(a) & numpy.isfinite(e)
            if both.any():
                worst = max(worst, float(numpy.abs(a[both] - e[both]).max()))
    return True, worst


def _forward(lib, case, seed, dtype):
    # the labels are model inputs where the call takes them as Variables
    error = None
    for labels in (True, False):
        inputs, arrays = calls.redrawn(case, seed, labels, dtype)
        args = [inputs[i] for i in arrays]
        model = calls.model(lib, case, inputs, arrays)
        try:
            with lib.using_config('train', False):
                expected = model(*[lib.Variable(a.copy()) for a in args])
        except Exception as exc:
            error = error or exc
            continue
        if not args or not expected:
            raise ValueError('no array input or no output')
        return model, args, [y.array for y in expected]
    raise error


def probe(lib, exporter, ort, case, seed, opset, dtype='float32'):
    """The record of one call on ``dtype`` inputs exported at ``opset``."""
    record = {'export': 'ok', 'run': None, 'agree': None, 'error': None}
    try:
        model, args, expected = _forward(lib, case, seed, dtype)
    except Exception as exc:
        record['export'] = 'forward ' + _error(exc)
        return record
    names = ['out{}'.format(i) for i in range(len(expected))]
    try:
        proto = exporter.export(
            model, tuple(args), opset_version=opset, output_names=names
        )
    except Exception as exc:
        record['export'] = _error(exc)
        return record
    try:
        initialized = {t.name for t in proto.graph.initializer}
        graph_inputs = [i.name for i in proto.graph.input if i.name not in initialized]
        session = ort.InferenceSession(
            proto.SerializeToString(), providers=['CPUExecutionProvider']
        )
        actual = session.run(names, dict(zip(graph_inputs, args)))
    except Exception as exc:
        record['run'] = _error(exc)
        return record
    record['run'] = 'ok'
    record['ops'] = sorted({n.op_type for n in proto.graph.node} - {'Constant'})
    record['agree'], record['error'] = _compare(actual, expected)
    return record


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument('library', choices=('chainer', 'chainerlite'))
    parser.add_argument('--tree', action='store_true')
    parser.add_argument('--only', default='')
    args = parser.parse_args(argv)
    warnings.simplefilter('ignore')
    lib, exporter = _libraries(args.library, args.tree)
    import onnxruntime as ort

    ort.set_default_logger_severity(4)
    only = set(filter(None, args.only.split(',')))
    out = {}
    for seed, (key, case) in enumerate(calls.cases().items()):
        if only and case.func not in only:
            continue
        for opset, dtype in itertools.product(OPSETS, DTYPES):
            try:
                record = probe(lib, exporter, ort, case, seed, opset, dtype)
            except Exception:
                record = {'export': 'probe ' + traceback.format_exc(limit=-1)[-300:]}
            out['{}@{}@{}'.format(key, opset or 'default', dtype)] = record
    json.dump(out, sys.stdout, indent=0, sort_keys=True)


if __name__ == '__main__':
    main()
