"""Values and gradients at kinks and special values, against Chainer 7.8.1.

Runs the cases of ``tools/kink_cases.py`` (every public function of
``chainerlite.functions`` at its kinks, ties, signed zeros, infinities and
NaN) and records or compares, for each case, the forward outputs, the
first-order gradients of the floating inputs (values, dtype and shape, for
an upstream gradient of ones) or the exception raised and at which stage.

Record the oracle, from the repository root, with Chainer installed::

    python -m tools.kink_sweep record

Compare chainerlite with the recorded file and print a table::

    python -m tools.kink_sweep compare [--mode plain|hook|double] [--all]

``hook`` runs every case with a function hook that watches forward calls
registered (chainerlite then runs the nodes' ``backward`` instead of their
array-level shortcut), ``double`` asks for double backprop. The oracle is
recorded once, in the plain mode: Chainer computes the same in all three.
"""

import argparse
import json
import pathlib
import sys
import warnings

import numpy

from tools import kink_cases

DATA = (
    pathlib.Path(__file__).resolve().parents[1]
    / 'tests/chainerlite_tests/functions_tests/data/kinks_chainer_7.8.1.json'
)
MODES = ('plain', 'hook', 'double')
# rtol, atol of a floating dtype
TOLERANCE = {'float16': (5e-3, 1e-3), 'float32': (1e-4, 1e-5), 'float64': (1e-9, 1e-12)}

# Cases where chainerlite knowingly differs from Chainer: key -> reason.
# Each function named here is listed in docs/differences.rst.
KNOWN = {
    'fixed_decorrelated_batch_normalization/special': (
        "the gradient of mean sums over the batch; Chainer's misses that factor"
    )
}


def encode(array):
    """A JSON-able record of an array: dtype, shape and flat values."""
    array = numpy.asarray(array)
    values = array.ravel().tolist()
    if array.dtype.kind == 'c':
        values = [[v.real, v.imag] for v in values]
    return {'dtype': array.dtype.name, 'shape': list(array.shape), 'values': values}


def _error(exc, stage):
    names = [k.__name__ for k in type(exc).__mro__ if k not in (object, BaseException)]
    return {'stage': stage, 'error': names, 'message': str(exc)[:200]}


def _flatten(out):
    if isinstance(out, (tuple, list)):
        return [leaf for item in out for leaf in _flatten(item)]
    return [out]


def _hook_class(ch):
    class WatchForward(ch.FunctionHook):
        name = 'kink_sweep_watch'

        def forward_preprocess(self, function, in_data):
            pass

    return WatchForward


def run_case(ch, F, case, mode='plain'):
    """Runs ``case`` with the modules ``ch`` (chainer or chainerlite) and
    ``F`` (its functions) and returns its record."""
    args = [
        ch.Variable(x.copy()) if x.dtype.kind == 'f' else x.copy() for x in case.inputs
    ]
    with warnings.catch_warnings(), numpy.errstate(all='ignore'):
        warnings.simplefilter('ignore')
        if mode == 'hook':
            with _hook_class(ch)():
                return _run(ch, F, case, args, False)
        return _run(ch, F, case, args, mode == 'double')


def _run(ch, F, case, args, double):
    try:
        outs = _flatten(case.call(ch, F, *args))
    except Exception as exc:
        return _error(exc, 'forward')
    arrays = [o.array if isinstance(o, ch.Variable) else o for o in outs]
    record = {'stage': 'ok', 'outputs': [encode(x) for x in arrays]}
    if not case.grad:
        return record
    ys = [
        o
        for o in outs
        if isinstance(o, ch.Variable) and o.dtype.kind == 'f' and o.creator is not None
    ]
    xs = [v for v in args if isinstance(v, ch.Variable)]
    try:
        gys = [ch.Variable(numpy.ones_like(y.array)) for y in ys]
        gxs = ch.grad(ys, xs, gys, enable_double_backprop=double)
    except Exception as exc:
        return dict(record, **_error(exc, 'backward'))
    record['grads'] = [None if g is None else encode(g.array) for g in gxs]
    return record


def _decode(rec):
    values = numpy.array(rec['values'], dtype=float if rec['dtype'] != 'bool' else bool)
    if rec['dtype'].startswith('complex'):
        values = values[..., 0] + 1j * values[..., 1] if values.size else values
    return values.reshape(rec['shape'])


def _compare_array(want, got, what):
    if want['dtype'] != got['dtype'] or want['shape'] != got['shape']:
        return (
            f'{what}: {got["dtype"]}{tuple(got["shape"])}, '
            f'Chainer {want["dtype"]}{tuple(want["shape"])}'
        )
    w, g = _decode(want), _decode(got)
    if w.dtype == bool or want['dtype'].startswith(('int', 'uint')):
        return (
            None if numpy.array_equal(w, g) else f'{what}: {g.ravel()} != {w.ravel()}'
        )
    rtol, atol = TOLERANCE.get(
        want['dtype'].replace('complex128', 'float64'), (1e-4, 1e-5)
    )
    nan_w, nan_g = numpy.isnan(w), numpy.isnan(g)
    same = (nan_w == nan_g) & (numpy.isinf(w) == numpy.isinf(g))
    finite = numpy.isfinite(w) & numpy.isfinite(g)
    same &= ~finite | numpy.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    both_inf = numpy.isinf(w) & numpy.isinf(g)
    same &= ~both_inf | (w == g)
    if same.all():
        return None
    bad = numpy.flatnonzero(~same.ravel())[:4]
    got, chainer = g.ravel()[bad].tolist(), w.ravel()[bad].tolist()
    return f'{what} at {bad.tolist()}: {got}, Chainer {chainer}'


def compare(want, got):
    """None where ``got`` agrees with the oracle record ``want``, else what
    differs."""
    if want['stage'] != got['stage']:
        said = want.get('error', ['no error'])[0]
        got_said = got.get('error', ['no error'])[0]
        return (
            f'{got["stage"]} ({got_said}: {got.get("message", "")[:80]}), '
            f'Chainer {want["stage"]} ({said})'
        )
    if 'error' in want and want['error'][0] not in got['error']:
        return f'raised {got["error"][0]}, Chainer {want["error"][0]}'
    pairs = [('output', want.get('outputs', []), got.get('outputs', []))]
    pairs.append(('grad', want.get('grads', []), got.get('grads', [])))
    for what, ws, gs in pairs:
        if len(ws) != len(gs):
            return f'{len(gs)} {what}s, Chainer {len(ws)}'
        for i, (w, g) in enumerate(zip(ws, gs)):
            if (w is None) != (g is None):
                return f'{what} {i}: None on one side only'
            if w is not None:
                detail = _compare_array(w, g, f'{what} {i}')
                if detail:
                    return detail
    return None


def record(path):
    # Chainer 7.8.1 still names numpy.float, which NumPy 1.24 removed
    numpy.float = float
    import chainer
    import chainer.functions as F

    results = {case.key: run_case(chainer, F, case) for case in kink_cases.CASES}
    text = json.dumps(
        {'chainer': chainer.__version__, 'cases': results}, sort_keys=True
    )
    pathlib.Path(path).write_text(text + '\n')
    print(f'{len(results)} cases recorded in {path} ({len(text) // 1024} KiB)')


def load(path=DATA):
    return json.loads(pathlib.Path(path).read_text())['cases']


def compare_all(oracle, modes=MODES, cases=None):
    """Yields (case, mode, detail or None) for every case and mode."""
    import chainerlite
    import chainerlite.functions as F

    for case in kink_cases.CASES if cases is None else cases:
        for mode in modes if case.double else [m for m in modes if m != 'double']:
            got = run_case(chainerlite, F, case, mode)
            yield case, mode, compare(oracle[case.key], got)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('action', choices=('record', 'compare'))
    parser.add_argument('--data', default=str(DATA))
    parser.add_argument('--mode', choices=MODES, action='append')
    parser.add_argument('--all', action='store_true', help='print agreeing cases too')
    args = parser.parse_args(argv)
    if args.action == 'record':
        record(args.data)
        return 0
    counts = {'agree': 0, 'differ (documented)': 0, 'differ': 0}
    for case, mode, detail in compare_all(load(args.data), args.mode or MODES):
        status = 'agree' if detail is None else 'differ'
        if detail is not None and case.key in KNOWN:
            status, detail = 'differ (documented)', f'{detail} [{KNOWN[case.key]}]'
        counts[status] += 1
        if args.all or status != 'agree':
            print(f'{case.func:45} {case.label:20} {mode:7} {status:20} {detail or ""}')
    print(
        ', '.join(f'{n} {k}' for k, n in counts.items()),
        f'({len(kink_cases.CASES)} cases)',
    )
    return 1 if counts['differ'] else 0


if __name__ == '__main__':
    sys.exit(main())
