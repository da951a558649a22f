"""No integer parameter of a public function makes unbounded work.

Every public function of ``chainerlite.functions`` (found by introspection,
so new ones are covered or the coverage test fails) is called from a valid
base call (``_int_sweep_cases.BASES``) with each of its integer arguments,
and the float arguments that size work (``FLOAT_PARAMS``), set to values
from 0 and -1 up to ``2 ** 62``, and tuples of them. Each call must end
within a second of CPU time, with a result or one of the exceptions Chainer
gives for bad arguments (ValueError, TypeError, InvalidType, IndexError,
MemoryError), never a crash or a hang.

The calls run in worker processes (two; ``_int_sweep_cases.py`` as a
script) limited to 4 GiB of address space, so an absurd allocation fails
at once; a worker that does not answer within ``HANG_S`` seconds is killed
and the case reported as a hang. ``make test`` runs a fixed slice of the
cases (every function's base calls, and every parameter at its most
extreme values); ``CHAINERLITE_FUZZ=full`` runs them all.
"""

import importlib.util
import inspect
import json
import os
import selectors
import subprocess
import sys
import threading

import numpy

import chainerlite.functions as F

CASES_PATH = os.path.join(os.path.dirname(__file__), '_int_sweep_cases.py')
FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'
CPU_LIMIT_S = 1.0
HANG_S = 20.0
WORKERS = 2
SLICE_VALUES = (10**9, 2**62, -1)


def _load_cases():
    spec = importlib.util.spec_from_file_location('_int_sweep_cases', CASES_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load_cases()


def public_functions():
    return sorted(
        name
        for name, obj in vars(F).items()
        if not name.startswith('_') and callable(obj) and not inspect.isclass(obj)
    )


def _is_int(v):
    return isinstance(v, (int, numpy.integer)) and not isinstance(
        v, (bool, numpy.bool_)
    )


def _variants(base, values):
    # the values of one argument: ints for an int, for a tuple of ints
    # each value in every place and in the last one alone
    if _is_int(base):
        return list(values)
    out = []
    for v in values:
        out.append([v] * len(base))
        if len(base) > 1:
            out.append([int(b) for b in base[:-1]] + [v])
    return out


def swept_params(name, base):
    """``(param, base value, is_float)`` of each swept argument."""
    func = getattr(F, name)
    args, kwargs = cases.BASES[name][base]()
    b = cases.bound(func, args, kwargs)
    b.apply_defaults()
    out = []
    for param, value in b.arguments.items():
        kind = inspect.signature(func).parameters[param].kind
        if kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            continue
        if (name, param) in cases.PARAMS_EXCLUDED:
            continue
        if _is_int(value) or (
            isinstance(value, tuple) and value and all(_is_int(v) for v in value)
        ):
            out.append((param, value, False))
        elif param in cases.FLOAT_PARAMS:
            out.append((param, value, True))
    return out


def all_cases():
    """Every case: ``(name, base, param, value)``; param None is the base
    call itself."""
    out = []
    for name in sorted(cases.BASES):
        for base in range(len(cases.BASES[name])):
            out.append((name, base, None, None))
            for param, value, is_float in swept_params(name, base):
                if is_float:
                    values = cases.FLOAT_VALUES
                else:
                    values = cases.int_values() if FULL else SLICE_VALUES
                    values = _variants(value, values)
                out.extend((name, base, param, v) for v in values)
    return out


class _Worker:
    """One worker process; ``run`` answers a case or reports why not."""

    def __init__(self):
        env = dict(os.environ, OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1')
        self.proc = subprocess.Popen(
            [sys.executable, CASES_PATH],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)

    def run(self, case):
        try:
            self.proc.stdin.write(json.dumps(case) + '\n')
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self._dead()
        if not self.sel.select(HANG_S):
            self.close()
            return 'HANG (no answer in {} s)'.format(HANG_S), None
        line = self.proc.stdout.readline()
        if not line:
            return self._dead()
        return json.loads(line)

    def _dead(self):
        code = self.proc.wait()
        return 'CRASH (exit status {})'.format(code), None

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.sel.close()


def run_cases(todo):
    """Outcomes ``[(case, outcome, cpu seconds)]`` of the cases, run by
    ``WORKERS`` workers (a new one after a hang or a crash)."""
    results = []
    lock = threading.Lock()
    queue = list(reversed(todo))

    def serve():
        worker = _Worker()
        while True:
            with lock:
                if not queue:
                    break
                case = queue.pop()
            outcome, seconds = worker.run(case)
            results.append((case, outcome, seconds))
            if seconds is None:
                worker = _Worker()
        worker.close()

    threads = [threading.Thread(target=serve) for _ in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_every_public_function_is_swept_or_excluded():
    names = set(public_functions())
    missing = names - set(cases.BASES) - set(cases.EXCLUDED)
    stale = (set(cases.BASES) | set(cases.EXCLUDED)) - names
    assert not missing, 'public functions with no base call: {}'.format(sorted(missing))
    assert not stale, 'base calls of names that are not public: {}'.format(
        sorted(stale)
    )
    assert not set(cases.BASES) & set(cases.EXCLUDED)


def test_the_sweep_varies_the_reported_parameters():
    # the introspection finds the parameters the issue names
    params = {
        (name, p)
        for name in cases.BASES
        for base in range(len(cases.BASES[name]))
        for p, _, _ in swept_params(name, base)
    }
    for name, p in [
        ('max_pooling_2d', 'ksize'),
        ('max_pooling_2d', 'stride'),
        ('convolution_2d', 'dilate'),
        ('deconvolution_2d', 'outsize'),
        ('roi_average_align_2d', 'sampling_ratio'),
        ('roi_average_align_2d', 'spatial_scale'),
        ('n_step_lstm', 'n_layers'),
        ('tile', 'reps'),
        ('repeat', 'repeats'),
        ('depth2space', 'r'),
    ]:
        assert (name, p) in params


# The special functions compute with SciPy; where it is missing (the NumPy 1
# venv of make test-numpy1) they raise ImportError, which says nothing about
# their integer arguments.
_NO_SCIPY = importlib.util.find_spec('scipy') is None


def test_int_parameters_do_not_make_unbounded_work():
    bad = []
    for case, outcome, seconds in run_cases(all_cases()):
        name, base, param, _ = case
        if _NO_SCIPY and outcome.startswith('BAD ImportError: SciPy is not available'):
            continue
        also = cases.ALSO_RAISES.get(name, ('',))[0]
        if seconds is None or (
            outcome.startswith('BAD') and not outcome.startswith('BAD {}:'.format(also))
        ):
            bad.append((case, outcome))
        elif seconds > CPU_LIMIT_S:
            bad.append((case, '{:.2f} s of CPU'.format(seconds)))
        elif param is None and outcome != 'ok':
            bad.append((case, 'the base call fails: ' + outcome))
    assert not bad, '\n'.join('{}: {}'.format(c, o) for c, o in sorted(bad, key=str))
