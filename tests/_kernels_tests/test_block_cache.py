"""The cache of large freed NumPy data blocks (chainerlite._kernels.block_cache):
what it keeps, what it hands back, its limit. chainerlite installed it at
import in this context; each test sets its own limit and restores it."""

import numpy
import pytest

from chainerlite._kernels import block_cache

MiB = 1 << 20


@pytest.fixture
def cache():
    before = block_cache.stats()
    block_cache.release()
    yield block_cache
    block_cache.release()
    if before['limit']:
        block_cache.install(before['limit'], before['age'])


def counts():
    s = block_cache.stats()
    return s['hits'], s['misses']


def test_installed_at_import():
    s = block_cache.stats()
    assert s['limit'] > 0 and s['age'] == int(s['limit'] * block_cache.AGE_PER_LIMIT)


def test_same_size_reuses_the_block(cache):
    cache.install(64 * MiB)
    a = numpy.full(2 * MiB, 3, numpy.uint8)
    address = a.ctypes.data
    del a
    assert cache.stats()['held'] == 2 * MiB
    hits, _ = counts()
    b = numpy.zeros(2 * MiB - 1000, numpy.uint8)  # calloc: NumPy's own
    assert b.ctypes.data != address and not b.any()
    c = numpy.empty(2 * MiB - 1000, numpy.uint8)  # an eighth smaller at most
    assert c.ctypes.data == address
    assert counts()[0] == hits + 1
    assert cache.stats()['held'] == 0
    c[:] = 7
    del c
    d = numpy.arange(3 * MiB // 8, dtype=numpy.float32)  # under 8/9 of the block
    assert d.ctypes.data != address
    assert d[-1] == 3 * MiB // 8 - 1


def test_of_blocks_of_one_size_the_last_freed_comes_back(cache):
    # its memory is the likeliest to be in the CPU's caches still (handing
    # back the oldest made each F.forget block's backward 35% slower)
    cache.install(64 * MiB)
    blocks = [numpy.empty(2 * MiB, numpy.uint8) for _ in range(3)]
    addresses = [b.ctypes.data for b in blocks]
    while blocks:
        del blocks[0]  # freed in order: the third last
    again = numpy.empty(2 * MiB, numpy.uint8)
    assert again.ctypes.data == addresses[2]
    other = numpy.empty(2 * MiB, numpy.uint8)
    assert other.ctypes.data == addresses[1]


def test_small_blocks_are_not_kept(cache):
    cache.install(64 * MiB)
    a = numpy.ones(MiB // 2, numpy.uint8)
    del a
    assert cache.stats()['held'] == 0


def test_limit_evicts_the_oldest(cache):
    cache.install(5 * MiB, age=1 << 40)
    arrays = [numpy.ones(2 * MiB, numpy.uint8) for _ in range(3)]
    addresses = [a.ctypes.data for a in arrays]
    while arrays:
        del arrays[0]  # freed in order: the first is the oldest block
    s = cache.stats()
    assert s['blocks'] == 2 and s['held'] == 4 * MiB
    again = [numpy.empty(2 * MiB, numpy.uint8) for _ in range(2)]
    assert {a.ctypes.data for a in again} == set(addresses[1:])
    del again
    cache.install(3 * MiB, age=1 << 40)  # a lower limit frees blocks at once
    assert cache.stats()['held'] <= 3 * MiB
    cache.release()
    s = cache.stats()
    assert (s['held'], s['blocks'], s['limit']) == (0, 0, 3 * MiB)


def test_blocks_not_asked_for_again_soon_are_dropped(cache):
    age = 2 * MiB * block_cache.SIZE_AGES  # a 2 MiB block waits age bytes
    cache.install(64 * MiB, age=age)
    assert cache.stats()['age'] == age
    kept = numpy.ones(2 * MiB, numpy.uint8)
    del kept
    step = 3 * MiB // 2  # no match
    others = [numpy.ones(step, numpy.uint8) for _ in range(age // step)]
    assert cache.stats()['blocks'] == 1  # not more than age asked yet
    others.append(numpy.ones(step, numpy.uint8))
    assert cache.stats()['blocks'] == 0  # more than age asked since it was kept
    n = len(others)
    del others
    assert cache.stats()['blocks'] == n


def test_large_blocks_wait_for_their_size_times_size_ages(cache):
    # each block waits max(age, SIZE_AGES * its size) bytes of requests
    ages = block_cache.SIZE_AGES
    assert ages >= 4
    cache.install(256 * MiB, age=4 * MiB)
    big = numpy.ones(2 * MiB, numpy.uint8)  # waits 2 * ages MiB
    small = numpy.ones(MiB, numpy.uint8)  # waits ages MiB
    del big, small
    assert cache.stats()['blocks'] == 2
    step = 3 * MiB // 2  # requests that neither block serves
    others = []

    def ask_up_to(total):
        while len(others) * step <= total - step:
            others.append(numpy.ones(step, numpy.uint8))

    ask_up_to(ages * MiB)  # not more than the small block's age yet
    assert cache.stats()['blocks'] == 2
    ask_up_to(ages * MiB + step)
    assert (cache.stats()['blocks'], cache.stats()['held']) == (1, 2 * MiB)
    ask_up_to(2 * ages * MiB)
    assert cache.stats()['blocks'] == 1
    ask_up_to(2 * ages * MiB + step)
    assert cache.stats()['blocks'] == 0


def test_limit_below_a_block_refused(cache):
    with pytest.raises(ValueError, match='block_cache.install: limit must be'):
        cache.install(1000)
    assert cache.stats()['limit'] > 0


def test_values_of_reused_blocks_are_the_arrays(cache):
    cache.install(64 * MiB)
    for i in range(4):
        x = numpy.arange(3 * MiB // 8, dtype=numpy.float64) + i
        y = x * 2
        numpy.testing.assert_array_equal(y[:3], [2 * i, 2 * i + 2, 2 * i + 4])
        del x, y
