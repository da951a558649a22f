"""The cache of large NumPy data blocks that chainerlite installs at import.

A training step frees its activations and makes arrays of the same sizes in
the next step; glibc hands large freed blocks back to the system, and the
kernel faults in and zeroes their pages again at the next use (a fifth of
the CPU time of a ResNet-18 step at batch 128). At import, :func:`apply`
makes NumPy allocate array data in the importing thread's context through
``chainerlite._kernels.block_cache``, which keeps freed blocks of 1 MiB or
more for the next array of their size, up to a limit: ``CHAINERLITE_BLOCK_CACHE``
(MiB) where set, ``0`` leaving NumPy's allocator alone; otherwise
:data:`DEFAULT_LIMIT` or an eighth of the physical memory, the smaller. A
block is dropped once requests of a sixteenth of the limit went by without
it (``block_cache.AGE_PER_LIMIT``), or of eight times its size for a larger
block (``block_cache.SIZE_AGES``), so that blocks a step reuses only much
later do not add to its peak.
Where another data handler than NumPy's default one is in place (the
user's), it is kept. A thread's context starts with NumPy's own handler:
a thread gets the cache as it first runs something of chainerlite (as its
state is made, ``chainerlite._core.config.set_on_new_thread``), so that a
training loop run in another thread keeps its blocks too (ResNet-18 at
batch 128 in a thread, one thread: 4.87 s of CPU a step without the cache,
4.48-4.54 with it); a thread that only handles data keeps NumPy's. Other
libraries' memory and the C heap's settings are not touched.
"""

import os

import numpy

#: the variable that sets the limit in MiB (0: no cache)
SWITCH = 'CHAINERLITE_BLOCK_CACHE'
#: the largest default limit in bytes
DEFAULT_LIMIT = 1 << 30

#: the limit of the cache installed at import in bytes, or None
limit = None


def wanted_limit(environ=os.environ):
    """The limit in bytes :func:`apply` sets given ``environ``, or None.

    Raises:
        ValueError: If ``CHAINERLITE_BLOCK_CACHE`` is not a whole number of
            MiB, 0 or from 1 on.

    """
    value = environ.get(SWITCH)
    if value is not None:
        try:
            mib = int(value)
        except ValueError:
            mib = -1
        if mib < 0:
            raise ValueError(
                f'chainerlite: {SWITCH} must be a whole number of MiB (0 for '
                f'no cache), got {value!r}'
            )
        return mib << 20 or None
    try:
        memory = os.sysconf('SC_PHYS_PAGES') * os.sysconf('SC_PAGE_SIZE')
    except (OSError, ValueError, AttributeError):
        return DEFAULT_LIMIT
    return min(DEFAULT_LIMIT, memory // 8)


def apply():
    """Installs the block cache as the module describes; returns its limit
    in bytes, or None where NumPy's allocator is left as it is."""
    global limit
    wanted = wanted_limit()
    if wanted is None:
        return None
    from chainerlite._kernels import block_cache

    if block_cache.install(wanted):
        limit = wanted
        from chainerlite._core.config import set_on_new_thread

        set_on_new_thread(block_cache.follow)
    return limit


def zeros_to_add_into(xp, shape, dtype):
    """Zeros of ``shape`` and ``dtype`` on ``xp`` that a kernel then adds
    values into (scatter-adds, overlapping windows).

    ``numpy.zeros`` of a large array hands out untouched pages (calloc). The
    kernel's first read of one maps the system's shared zero page, and its
    write then replaces that mapping, which makes the system flush the TLBs
    of every CPU running the process's other threads: an interrupt per page
    to the core where the BLAS threads spin after a product (on a virtual
    machine, an exit to the host each). The gradient of the LSTM language
    model's embedding took 80 instead of 6 ms a step on two threads. NumPy
    arrays are therefore made with ``empty`` (a block of the cache where one
    fits) and written with zeros, which faults each new page in once.
    """
    if xp is not numpy:
        return xp.zeros(shape, dtype)
    out = numpy.empty(shape, dtype)
    out.fill(0)
    return out
