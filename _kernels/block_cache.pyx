"""A cache of large freed NumPy data blocks, for the next array of the size.

A training step frees its activations and temporaries and makes arrays of
the same sizes in the next step. glibc serves a block of 32 MiB or more
(less before its first large free) with a fresh ``mmap`` and unmaps it on
``free``, and hands free memory at the top of its heap back to the system:
each such array is then faulted in and zeroed by the kernel again, with
NumPy's huge-page advice 2 MiB at a time. A ResNet-18 step at batch 128
spent about a fifth of its CPU time there.

:func:`install` makes NumPy allocate array data in the calling thread's
context through a handler (``PyDataMem_SetHandler``) that keeps freed
blocks of at least :data:`MIN_BLOCK` bytes, up to ``limit`` bytes in all
(the oldest go first) and each until requests of ``age`` bytes went by
(:data:`SIZE_AGES` times its size for a block larger than that), and
hands one back for a request of its size or up to an eighth smaller (the
smallest that fits, the last freed of those). Everything else (smaller blocks, ``calloc``,
``realloc``, the freeing of blocks the cache does not keep) goes to the
handler that was in place, NumPy's own. :func:`follow` puts the cache in
place in another thread's context. Only NumPy's data is concerned:
the C heap's settings and other libraries' memory are left as they are.
The cost: up to ``limit`` bytes stay resident while no array uses them
(:func:`release` hands them back); ``age`` bounds how long.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New
from libc.string cimport strcmp
cimport numpy as cnp

cnp.import_array()

#: The arrays hold what they would with NumPy's allocator: no value is
#: computed here.
PRECISION = 'bitwise NumPy'
#: the smallest block kept (smaller ones are NumPy's and glibc's business)
MIN_BLOCK = 1 << 20
#: how long a block is kept by default, in bytes requested per byte of the
#: limit. A block not asked for again by then is mostly one that a loop
#: reuses only much later: the backward pass's temporaries, kept through the
#: next forward pass, raised the peak RSS of a ResNet-18 step at batch 128
#: from 809 to 880 MiB; kept for 1/4 of the limit 843, 1/16 829 (PyTorch's
#: 834), for the same step time.
AGE_PER_LIMIT = 0.0625

cdef extern from *:
    """
    #include <pthread.h>
    #include <string.h>

    #define CL_CACHE_SLOTS 256
    #define CL_SIZE_AGES 8ULL

    /* Freed blocks, oldest first; the handler that was in place (NumPy's
     * default) serves and frees everything the cache does not keep. */
    static struct {
        pthread_mutex_t lock;
        void *ptr[CL_CACHE_SLOTS];
        size_t size[CL_CACHE_SLOTS];
        unsigned long long stamp[CL_CACHE_SLOTS]; /* `served` when freed */
        int count;
        size_t held, limit, min_block;
        /* bytes of the requests the cache saw; a block is dropped once
         * more than `age` of them went by while it waited */
        unsigned long long served, age;
        unsigned long long hits, misses;
        PyDataMemAllocator base;
    } cl_cache = {PTHREAD_MUTEX_INITIALIZER};

    /* Removes slot i (the lock held); its block is the caller's. */
    static void cl_cache_take(int i) {
        cl_cache.held -= cl_cache.size[i];
        cl_cache.count--;
        memmove(cl_cache.ptr + i, cl_cache.ptr + i + 1,
                (cl_cache.count - i) * sizeof(void *));
        memmove(cl_cache.size + i, cl_cache.size + i + 1,
                (cl_cache.count - i) * sizeof(size_t));
        memmove(cl_cache.stamp + i, cl_cache.stamp + i + 1,
                (cl_cache.count - i) * sizeof(unsigned long long));
    }

    /* Frees the block of slot i (the lock held). */
    static void cl_cache_drop(int i) {
        void *p = cl_cache.ptr[i];
        size_t s = cl_cache.size[i];
        cl_cache_take(i);
        cl_cache.base.free(cl_cache.base.ctx, p, s);
    }

    static void *cl_cache_malloc(void *ctx, size_t n) {
        if (n >= cl_cache.min_block) {
            int best = -1;
            void *p = NULL;
            pthread_mutex_lock(&cl_cache.lock);
            /* the smallest block that fits, and of those the one freed
             * last (<=: slots run oldest first), whose memory is likeliest
             * still in the CPU's caches: the oldest one, cold, made each
             * F.forget block's backward 35% slower */
            for (int i = 0; i < cl_cache.count; i++) {
                size_t s = cl_cache.size[i];
                if (s >= n && s - n <= n / 8
                        && (best < 0 || s <= cl_cache.size[best]))
                    best = i;
            }
            if (best >= 0) {
                p = cl_cache.ptr[best];
                cl_cache_take(best);
                cl_cache.hits++;
            } else {
                cl_cache.misses++;
            }
            /* blocks kept longer than their age are not those the
             * program reuses (a training step asks for them again
             * before): `age`, or CL_SIZE_AGES times the size of a larger
             * block */
            cl_cache.served += n;
            for (int i = 0; i < cl_cache.count; ) {
                unsigned long long age = CL_SIZE_AGES * cl_cache.size[i];
                if (cl_cache.served - cl_cache.stamp[i]
                        > (age > cl_cache.age ? age : cl_cache.age))
                    cl_cache_drop(i);
                else
                    i++;
            }
            pthread_mutex_unlock(&cl_cache.lock);
            if (p)
                return p;
        }
        return cl_cache.base.malloc(cl_cache.base.ctx, n);
    }

    static void *cl_cache_calloc(void *ctx, size_t n, size_t size) {
        return cl_cache.base.calloc(cl_cache.base.ctx, n, size);
    }

    static void *cl_cache_realloc(void *ctx, void *p, size_t n) {
        return cl_cache.base.realloc(cl_cache.base.ctx, p, n);
    }

    /* Frees the oldest blocks until `room` more bytes fit under the limit
     * and a slot is free (the lock held). */
    static void cl_cache_evict(size_t room) {
        while (cl_cache.count
               && (cl_cache.held + room > cl_cache.limit
                   || cl_cache.count == CL_CACHE_SLOTS))
            cl_cache_drop(0);
    }

    static void cl_cache_free(void *ctx, void *p, size_t n) {
        if (p && n >= cl_cache.min_block && n <= cl_cache.limit) {
            pthread_mutex_lock(&cl_cache.lock);
            cl_cache_evict(n);
            cl_cache.ptr[cl_cache.count] = p;
            cl_cache.size[cl_cache.count] = n;
            cl_cache.stamp[cl_cache.count] = cl_cache.served;
            cl_cache.count++;
            cl_cache.held += n;
            pthread_mutex_unlock(&cl_cache.lock);
            return;
        }
        cl_cache.base.free(cl_cache.base.ctx, p, n);
    }

    static PyDataMem_Handler cl_cache_handler = {
        "chainerlite_block_cache", 1,
        {NULL, cl_cache_malloc, cl_cache_calloc, cl_cache_realloc,
         cl_cache_free}};

    /* Sets the limit (0 frees every block) and the age; returns the bytes
     * held. */
    static size_t cl_cache_set_limit(size_t limit, unsigned long long age) {
        size_t held;
        pthread_mutex_lock(&cl_cache.lock);
        cl_cache.limit = limit;
        cl_cache.age = age;
        cl_cache_evict(0);
        held = cl_cache.held;
        pthread_mutex_unlock(&cl_cache.lock);
        return held;
    }
    """
    ctypedef struct cl_cache_state "cl_cache":
        size_t held, limit, min_block
        unsigned long long hits, misses, age
        int count
        cnp.PyDataMemAllocator base
    cl_cache_state cl_cache
    unsigned long long CL_SIZE_AGES
    cnp.PyDataMem_Handler cl_cache_handler
    size_t cl_cache_set_limit(size_t limit, unsigned long long age) nogil


#: a block larger than ``age / SIZE_AGES`` is kept until requests of this
#: many times its size went by. A step's largest arrays come back after more
#: requests than ``age``: the LSTM language model's 90 MB logits and their
#: gradient, its 23 MB gate arrays (a step asks for about 500 MB of blocks
#: at batch 64). Dropped, they were mapped and faulted in again at each step,
#: the kernel zeroing them: on this virtual machine 0.1-0.3 s of system time
#: in a 1.6 s step, and 1.93 -> 1.58 s median one-thread step with this rule
#: (two threads 0.93 -> 0.87 s wall). The peaks stayed below PyTorch's
#: (ResNet-18 at batch 128 819 MiB against 820 before and PyTorch's 828; the
#: LM at batch 64 200 against 183 and 454).
SIZE_AGES = CL_SIZE_AGES

cdef object _capsule = None


def install(size_t limit, age=None):
    """Makes NumPy allocate data in this thread's context through the cache,
    which keeps at most ``limit`` bytes of freed blocks, each until requests
    of more than ``age`` bytes (of :data:`MIN_BLOCK` or more) went by, or
    of :data:`SIZE_AGES` times the block's size where that is more
    (default: :data:`AGE_PER_LIMIT` times ``limit``).

    Returns:
        bool: True once the cache is in place; False where another handler
        than NumPy's default one is (the user's choice is kept).

    Raises:
        ValueError: If ``limit`` is smaller than :data:`MIN_BLOCK`.

    """
    global _capsule
    cdef cnp.PyDataMem_Handler* handler
    cdef unsigned long long c_age = (
        <unsigned long long>(limit * AGE_PER_LIMIT) if age is None else age)
    if limit < MIN_BLOCK:
        raise ValueError(
            f'block_cache.install: limit must be at least {MIN_BLOCK} bytes, '
            f'got {limit}'
        )
    current = cnp.PyDataMem_GetHandler()
    if _capsule is not None and current is _capsule:
        cl_cache_set_limit(limit, c_age)
        return True
    handler = <cnp.PyDataMem_Handler*>(
        PyCapsule_GetPointer(current, 'mem_handler'))
    if strcmp(handler.name, 'default_allocator') != 0:
        return False
    if _capsule is None:
        cl_cache.base = handler.allocator
        cl_cache.min_block = MIN_BLOCK
        _capsule = PyCapsule_New(&cl_cache_handler, 'mem_handler', NULL)
    cl_cache_set_limit(limit, c_age)
    cnp.PyDataMem_SetHandler(_capsule)
    return True


def follow():
    """Makes NumPy allocate data in this thread's context through the cache
    as well, where :func:`install` put the cache in place (in the context
    of another thread: a thread's context starts with NumPy's default
    handler) and NumPy's default handler is the one here.

    Returns:
        bool: Whether the cache is this context's handler now; False where
        it was not installed, or where another handler than NumPy's
        default one is in place here (the user's choice is kept).

    """
    cdef cnp.PyDataMem_Handler* handler
    if _capsule is None:
        return False
    current = cnp.PyDataMem_GetHandler()
    if current is _capsule:
        return True
    handler = <cnp.PyDataMem_Handler*>(
        PyCapsule_GetPointer(current, 'mem_handler'))
    if strcmp(handler.name, 'default_allocator') != 0:
        return False
    cnp.PyDataMem_SetHandler(_capsule)
    return True


def release():
    """Frees every block the cache holds (it goes on keeping new ones)."""
    cdef size_t limit = cl_cache.limit
    cl_cache_set_limit(0, cl_cache.age)
    cl_cache_set_limit(limit, cl_cache.age)


def stats():
    """The cache's counts: ``held`` (bytes), ``blocks``, ``limit``, and the
    ``hits`` and ``misses`` of requests of at least :data:`MIN_BLOCK` bytes."""
    return dict(
        held=cl_cache.held,
        blocks=cl_cache.count,
        limit=cl_cache.limit,
        age=cl_cache.age,
        hits=cl_cache.hits,
        misses=cl_cache.misses,
    )
