"""The child program of test_public_fuzz: calls every public function of
``chainerlite.functions`` with random arguments.

Run as ``python public_fuzz.py SEED CALLS LOG``: for each function a forked
child makes CALLS calls (then a backward pass from the first differentiable
output), writing a description of each call to LOG before making it, and
exits 0 when every call returned or raised an exception. The parent prints
one line per function, ``NAME ok`` or ``NAME FAIL <why>: <the call>``: a
signal (a crash), a hang past the time limit, an exit code.

Arguments mix arrays (float16/32/64, integers, bool, complex; 0-d, empty,
up to 5-d; reversed, Fortran, unaligned, read-only; NaN and infinities;
plain or as Variables) with ints at the int32/int64 bounds, floats, NaN,
tuples, lists, strings and None, so each function meets arguments it must
refuse as well as ones it accepts.
"""

import inspect
import os
import random
import resource
import signal
import sys
import time
import warnings

import numpy

import chainerlite
import chainerlite.functions as F

# Functions left out, and why.
SKIP = {'forget': 'calls its first argument: a random one is not a function'}
SHAPES = [
    (),
    (0,),
    (3,),
    (2, 3),
    (1, 1, 4, 4),
    (2, 3, 5, 5),
    (2, 0, 3),
    (1, 2, 3, 4, 5),
]
DTYPES = [
    numpy.float16,
    numpy.float32,
    numpy.float64,
    numpy.int32,
    numpy.int64,
    numpy.bool_,
    numpy.uint8,
    numpy.complex64,
]
SCALARS = [
    None,
    0,
    1,
    -1,
    2,
    3,
    2**31,
    -(2**31),
    2**63,
    1.5,
    -0.5,
    float('nan'),
    (1, 2),
    (0, 0),
    [1, 2],
    (),
    'max',
    True,
    (2, 2, 2),
]
SECONDS = 60  # per function


def _array(rng):
    shape = rng.choice(SHAPES)
    dtype = rng.choice(DTYPES)
    values = numpy.random.RandomState(rng.randrange(1000)).standard_normal(shape)
    a = numpy.asarray(values * rng.choice([1, 1e30, 1e-30])).astype(dtype)
    if a.dtype.kind == 'f' and a.size and rng.random() < 0.2:
        a.flat[0] = rng.choice([numpy.nan, numpy.inf, -numpy.inf])
    layout = rng.randrange(6)
    if layout == 0 and a.ndim:
        a = a[(slice(None, None, -1),) * a.ndim]
    elif layout == 1:
        a = numpy.asfortranarray(a)
    elif layout == 2 and a.size:
        raw = numpy.zeros(a.nbytes + 1, numpy.uint8)
        b = numpy.frombuffer(raw, a.dtype, a.size, 1).reshape(a.shape)
        b[...] = a
        a = b
    elif layout == 3:
        a = a.copy()
        a.setflags(write=False)
    if a.dtype.kind == 'f' and rng.random() < 0.7:
        return chainerlite.Variable(a)
    return a


def _argument(rng):
    return _array(rng) if rng.random() < 0.45 else rng.choice(SCALARS)


def _describe(args):
    return repr(
        [
            (type(a).__name__, getattr(a, 'shape', a), str(getattr(a, 'dtype', '')))
            for a in args
        ]
    )


def _backward(result):
    outputs = result if isinstance(result, (tuple, list)) else [result]
    for y in outputs:
        if (
            isinstance(y, chainerlite.Variable)
            and y.dtype.kind == 'f'
            and y.creator is not None
        ):
            y.grad = numpy.ones(y.shape, y.dtype)
            y.backward()
            return


def _child(name, seed, calls, log):
    # a bound on memory, so that a huge allocation fails instead of
    # taking the machine
    resource.setrlimit(resource.RLIMIT_AS, (24 << 30, 24 << 30))
    function = getattr(F, name)
    rng = random.Random('%d-%s' % (seed, name))
    try:
        count = len(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        count = 3
    for _ in range(calls):
        args = [_argument(rng) for _ in range(rng.randrange(1, count + 2))]
        with open(log, 'w') as f:
            f.write('%s%s' % (name, _describe(args)))
        try:
            with numpy.errstate(all='ignore'):
                _backward(function(*args))
        except (Exception, MemoryError):
            pass  # refusing an argument is fine; crashing or hanging is not
    os._exit(0)


def _wait(pid):
    start = time.monotonic()
    while time.monotonic() - start < SECONDS:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            if os.WIFSIGNALED(status):
                return 'signal %d' % os.WTERMSIG(status)
            code = os.WEXITSTATUS(status)
            return None if code == 0 else 'exit code %d' % code
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return 'no answer in %d s' % SECONDS


def functions():
    """The public functions of ``chainerlite.functions`` the fuzzer calls."""
    return sorted(
        name
        for name in dir(F)
        if not name.startswith('_')
        and name[0].islower()
        and callable(getattr(F, name))
        and name not in SKIP
    )


def fork_each(names, child, seed, calls, log):
    """Runs ``child(name, seed, calls, log)`` in a forked child for each
    name and prints ``NAME ok`` or ``NAME FAIL <why>: <the last call>``."""
    warnings.simplefilter('ignore')
    for name in names:
        pid = os.fork()
        if pid == 0:
            child(name, seed, calls, log)
        why = _wait(pid)
        if why is None:
            print('%s ok' % name, flush=True)
        else:
            with open(log) as f:
                print('%s FAIL %s: %s' % (name, why, f.read()), flush=True)


def main(argv):
    fork_each(functions(), _child, int(argv[1]), int(argv[2]), argv[3])


if __name__ == '__main__':
    main(sys.argv)
