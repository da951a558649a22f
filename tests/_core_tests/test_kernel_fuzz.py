"""Every compiled entry point survives random arguments.

``kernel_fuzz.py`` (run in a subprocess, each entry point in a forked child)
calls every function and class of the modules of ``chainerlite._core`` and
``chainerlite._kernels`` with random shapes, dtypes (byte-swapped too),
strides (Fortran order, steps, negative), misaligned and read-only arrays,
arrays passed twice or overlapping, and wrong types. The arrays lie against
guard pages and read-only arrays in read-only pages, so that reading past an
array or writing into a read-only one kills the child. A kernel passes when
each call returns (or declines) or raises ValueError, TypeError,
OverflowError or BufferError; an entry point that takes Python objects
passes when nothing crashes or hangs.

``make test`` runs a bounded slice; ``CHAINERLITE_FUZZ=full`` (``make
fuzz``) many more calls.
"""

import inspect
import os
import pathlib
import subprocess
import sys

import pytest

from chainerlite.testing import random as testing_random

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import kernel_fuzz  # noqa: E402

sys.path.remove(str(HERE))

FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'
KERNEL_CALLS = 5000 if FULL else 300
GENERIC_CALLS = 500 if FULL else 20


def _generic_entries():
    return [
        module + '.' + name
        for module, names in kernel_fuzz.GENERIC.items()
        for name in names
    ]


def test_every_entry_point_is_fuzzed():
    # a new function in chainerlite._core or chainerlite._kernels fails
    # here until it is given a generator of arguments (KERNELS), listed as
    # taking Python objects (GENERIC), or skipped with a reason (SKIP);
    # classes are fuzzed as taking Python objects
    entries = kernel_fuzz.entry_points()
    known = set(kernel_fuzz.KERNELS) | set(_generic_entries()) | set(kernel_fuzz.SKIP)
    functions = []
    for entry in entries:
        module, name = entry.split('.')
        value = getattr(kernel_fuzz.module(module), name)
        if not inspect.isclass(value):
            functions.append(entry)
    assert sorted(set(functions) - known) == []
    assert sorted(known - set(functions)) == []
    assert all(reason for reason in kernel_fuzz.SKIP.values())


def _run(entries, calls, tmp_path):
    seed = testing_random.base_seed()
    log = tmp_path / 'last_call.txt'
    proc = subprocess.run(
        [sys.executable, str(HERE / 'kernel_fuzz.py'), str(seed), str(calls), str(log)]
        + entries,
        capture_output=True,
        text=True,
        timeout=3600 if FULL else 120,
        env=dict(os.environ, OMP_NUM_THREADS='2'),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    failures = [line for line in lines if not line.endswith(' ok')]
    assert failures == [], '\n'.join(failures)
    assert len(lines) == len(entries)


def test_kernels_fuzz(tmp_path):
    _run(sorted(kernel_fuzz.KERNELS), KERNEL_CALLS, tmp_path)


def test_object_entry_points_fuzz(tmp_path):
    classes = [
        e
        for e in kernel_fuzz.entry_points()
        if e not in kernel_fuzz.KERNELS
        and e not in kernel_fuzz.SKIP
        and e not in _generic_entries()
    ]
    _run(_generic_entries() + classes, GENERIC_CALLS, tmp_path)


@pytest.mark.parametrize('case', ['overrun', 'write_read_only'])
def test_guard_pages_catch(case, tmp_path):
    # the fuzzer's traps work: a read past an array's end and a write into
    # a read-only array kill the process
    program = '''
import sys
sys.path.insert(0, {here!r})
import numpy as np
import kernel_fuzz
arena = kernel_fuzz.Arena()
a = arena.array(np.arange(10.0), readonly=True)
print('placed', flush=True)
if {case!r} == 'overrun':
    np.lib.stride_tricks.as_strided(a, (11,)).sum()
else:
    import ctypes
    ctypes.memmove(a.ctypes.data, b'x', 1)
'''.format(here=str(HERE), case=case)
    proc = subprocess.run(
        [sys.executable, '-c', program], capture_output=True, text=True, timeout=60
    )
    assert proc.stdout.strip() == 'placed'
    assert proc.returncode == -11
