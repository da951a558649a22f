"""What chainerlite sets up for its process at import: the cache of large
NumPy data blocks (chainerlite._array_memory) and OpenMP's waiting policy
and OpenBLAS's spin (chainerlite._openmp_settings). Each case that imports
chainerlite does it in a fresh interpreter, since they are chosen once per
process."""

import json
import os
import subprocess
import sys

import pytest

from chainerlite import _array_memory
from chainerlite import _openmp_settings

BLOCKS = '''
import json
import numpy as np
import chainerlite
from chainerlite._kernels import block_cache
try:
    from numpy._core.multiarray import get_handler_name
except ImportError:  # NumPy 1
    from numpy.core.multiarray import get_handler_name

a = np.ones(48 << 18, np.float32)
where = a.ctypes.data
del a
b = np.empty(48 << 18, np.float32)
print(json.dumps(dict(
    limit=chainerlite._array_memory.limit,
    handler=get_handler_name(b),
    reused=b.ctypes.data == where,
    stats=block_cache.stats(),
)))
'''

POLICY = '''
import os
import chainerlite
print('policy', os.environ.get('OMP_WAIT_POLICY'))
'''

CHOSEN_BY_THE_USER = (
    _array_memory.SWITCH,
    _openmp_settings.OPENBLAS_TIMEOUT,
) + _openmp_settings.USER_VARIABLES


def run(program, **environ):
    """stdout and stderr of ``program`` in a fresh interpreter, in this
    environment less the variables of the settings, plus ``environ``."""
    env = {k: v for k, v in os.environ.items() if k not in CHOSEN_BY_THE_USER}
    env.update(environ)
    done = subprocess.run(
        [sys.executable, '-c', program],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def test_freed_block_serves_the_next_array_of_its_size():
    got = json.loads(run(BLOCKS)[0])
    assert got['limit'] == _array_memory.wanted_limit({})
    assert got['reused']
    assert got['stats']['hits'] >= 1
    assert got['handler'] == 'chainerlite_block_cache'


def test_block_cache_limit_from_the_environment():
    assert json.loads(run(BLOCKS, CHAINERLITE_BLOCK_CACHE='64')[0])['limit'] == 64 << 20


def test_block_cache_zero_leaves_numpy_alone():
    got = json.loads(run(BLOCKS, CHAINERLITE_BLOCK_CACHE='0')[0])
    assert got['limit'] is None and got['handler'] == 'default_allocator'
    assert got['stats']['hits'] == got['stats']['misses'] == 0


def test_block_cache_bad_value_fails_the_import_with_its_name():
    done = subprocess.run(
        [sys.executable, '-c', 'import chainerlite'],
        env=dict(os.environ, CHAINERLITE_BLOCK_CACHE='lots'),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert 'CHAINERLITE_BLOCK_CACHE must be a whole number' in done.stderr


THREADS = '''
import json, threading
import numpy as np
import chainerlite
import chainerlite.functions as F
try:
    from numpy._core.multiarray import get_handler_name
except ImportError:  # NumPy 1
    from numpy.core.multiarray import get_handler_name

got = {}


def data_only():
    got['data only'] = get_handler_name(np.empty(8))


def runs_chainerlite():
    got['before'] = get_handler_name(np.empty(8))
    y = F.relu(chainerlite.Variable(np.ones(3, np.float32)))
    got['after'] = get_handler_name(np.empty(8))
    got['output'] = get_handler_name(y.array)


for target in (data_only, runs_chainerlite):
    t = threading.Thread(target=target)
    t.start()
    t.join()
print(json.dumps(got))
'''


def test_a_thread_that_runs_chainerlite_allocates_through_the_cache():
    got = json.loads(run(THREADS)[0])
    assert got == {
        'data only': 'default_allocator',
        'before': 'default_allocator',
        'after': 'chainerlite_block_cache',
        'output': 'chainerlite_block_cache',
    }
    got = json.loads(run(THREADS, CHAINERLITE_BLOCK_CACHE='0')[0])
    assert set(got.values()) == {'default_allocator'}


def test_block_cache_default_limit():
    assert 0 < _array_memory.wanted_limit({}) <= _array_memory.DEFAULT_LIMIT
    assert _array_memory.wanted_limit({'CHAINERLITE_BLOCK_CACHE': '0'}) is None
    with pytest.raises(ValueError, match='CHAINERLITE_BLOCK_CACHE'):
        _array_memory.wanted_limit({'CHAINERLITE_BLOCK_CACHE': '-1'})


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='libgomp (Linux)')
def test_openmp_passive_unless_the_user_chose():
    # libgomp, loaded by the kernels, reports the policy it runs with
    out, err = run(POLICY, OMP_DISPLAY_ENV='TRUE')
    assert 'policy PASSIVE' in out and "OMP_WAIT_POLICY = 'PASSIVE'" in err
    out, err = run(POLICY, OMP_DISPLAY_ENV='TRUE', OMP_WAIT_POLICY='ACTIVE')
    assert 'policy ACTIVE' in out and "OMP_WAIT_POLICY = 'ACTIVE'" in err
    assert 'policy None' in run(POLICY, GOMP_SPINCOUNT='1000')[0]


def test_openmp_apply_on_a_mapping():
    env = {}
    assert _openmp_settings.apply(env)
    assert env == {'OMP_WAIT_POLICY': 'PASSIVE', 'OPENBLAS_THREAD_TIMEOUT': '4'}
    env = {'GOMP_SPINCOUNT': '10', 'OPENBLAS_THREAD_TIMEOUT': '20'}
    assert not _openmp_settings.apply(env)
    assert env == {'GOMP_SPINCOUNT': '10', 'OPENBLAS_THREAD_TIMEOUT': '20'}


OPENBLAS = """
import os
import chainerlite
import numpy
print('timeout', os.environ.get('OPENBLAS_THREAD_TIMEOUT'))
"""


def test_openblas_spin_is_short_unless_the_user_chose():
    assert 'timeout 4' in run(OPENBLAS)[0]
    assert 'timeout 12' in run(OPENBLAS, OPENBLAS_THREAD_TIMEOUT='12')[0]


SETTLE = """
import json, os, sys, threading, time
import numpy
a = numpy.ones((400, 400))
a @ a  # OpenBLAS's workers start, with the spin it loaded with
if sys.argv[1] == 'thread':
    stop = threading.Event()
    threading.Thread(target=stop.wait).start()
import chainerlite
from chainerlite import _openmp_settings
if sys.argv[1] == 'thread':
    stop.set()
spins = []
for _ in range(3):
    b = a @ a
    start = time.process_time()
    time.sleep(0.05)
    spins.append(time.process_time() - start)
print(json.dumps(dict(
    settled=_openmp_settings.settled,
    loaded=_openmp_settings.loaded_openblas_paths(),
    spin=min(spins),
    right=bool(numpy.allclose(b, numpy.full((400, 400), 400.0))),
)))
"""


def settle(how='alone', **environ):
    env = dict(OPENBLAS_NUM_THREADS='2', **environ)
    out, _ = run(SETTLE.replace('sys.argv[1]', repr(how)), **env)
    got = json.loads(out)
    if not got['loaded']:
        pytest.skip("this NumPy's BLAS is not OpenBLAS")
    return got


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='/proc/self/maps')
def test_openblas_loaded_before_chainerlite_takes_the_short_spin():
    got = settle()
    assert got['right']
    if not got['settled']:
        pytest.skip('this OpenBLAS lacks openblas_read_env or blas_thread_shutdown_')
    assert got['settled'] == got['loaded'][: len(got['settled'])]
    # a worker left spinning bills about the whole 50 ms sleep
    assert got['spin'] < 0.02, got


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='/proc/self/maps')
def test_openblas_left_alone_with_the_users_timeout_or_another_thread():
    got = settle(OPENBLAS_THREAD_TIMEOUT='12')
    assert got['settled'] == [] and got['right']
    got = settle('thread')
    assert got['settled'] == [] and got['right']


def test_openblas_paths_from_the_maps_of_a_process(tmp_path):
    maps = tmp_path / 'maps'
    maps.write_text(
        '7f00-7f10 r--p 00000000 08:01 11 /usr/lib/libc.so.6\n'
        '7f10-7f20 r-xp 00000000 08:01 12 /x/numpy.libs/libscipy_openblas64_-a.so\n'
        '7f20-7f30 r--p 00001000 08:01 12 /x/numpy.libs/libscipy_openblas64_-a.so\n'
        '7f30-7f40 rw-p 00000000 00:00 0 \n'
        '7f40-7f50 r-xp 00000000 08:01 13 /opt/my libs/libopenblas.so.0\n'
        '7f50-7f60 r-xp 00000000 08:01 14 /x/openblas_notes.txt\n'
    )
    assert _openmp_settings.loaded_openblas_paths(str(maps)) == [
        '/x/numpy.libs/libscipy_openblas64_-a.so',
        '/opt/my libs/libopenblas.so.0',
    ]
    assert _openmp_settings.loaded_openblas_paths(str(tmp_path / 'none')) == []


def test_zeros_to_add_into_are_zeros_even_in_a_reused_block():
    import numpy

    # a large dirty block freed to the cache comes back through empty():
    # every element must be written with zero
    dirty = numpy.full((600, 700), 7.0, numpy.float32)
    del dirty
    out = _array_memory.zeros_to_add_into(numpy, (600, 700), numpy.float32)
    assert out.shape == (600, 700) and out.dtype == numpy.float32
    assert not out.any() and out.flags.c_contiguous and out.flags.writeable
    small = _array_memory.zeros_to_add_into(numpy, 3, 'f8')
    assert small.dtype == numpy.float64 and small.tolist() == [0.0, 0.0, 0.0]


def test_gradients_accumulated_into_zeros_are_exact():
    import numpy

    import chainerlite
    import chainerlite.functions as F

    # EmbedIDGrad and GetItemGrad add rows into such zeros: repeated ids sum
    ids = numpy.array([3, 1, 3, 3], numpy.int32)
    gy = numpy.arange(4 * 700, dtype=numpy.float32).reshape(4, 700)
    W = chainerlite.Parameter(numpy.full((500, 700), 9.0, numpy.float32))
    y = F.embed_id(ids, W)
    y.grad = gy
    y.backward()
    expected = numpy.zeros((500, 700), numpy.float32)
    numpy.add.at(expected, ids, gy)
    numpy.testing.assert_array_equal(W.grad, expected)
    x = chainerlite.Variable(numpy.ones((500, 700), numpy.float32))
    z = x[ids]
    z.grad = gy
    z.backward()
    numpy.testing.assert_array_equal(x.grad, expected)
