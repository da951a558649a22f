# Long compiled loops end on Ctrl-C: a kernel does its items (planes,
# images, rows, elements) in chunks of about WORK_PER_CHECK units of work
# a thread, with the GIL released, and between two chunks, holding the GIL
# and outside any parallel region, looks for a pending signal
# (PyErr_CheckSignals, which raises KeyboardInterrupt):
#
#     cdef Chunks c = chunks(items, work_per_item, cl_max_threads())
#     while next_chunk(&c):
#         with nogil:
#             work(c.begin, c.end)
#
# A unit is about a nanosecond of one thread's work, so a chunk takes some
# ten milliseconds: a look per chunk costs nothing measurable, and Ctrl-C
# ends the call at once. Chunks split the items, never an item, so the
# results are those of one pass over all of them.
from cpython.exc cimport PyErr_CheckSignals


cdef extern from *:
    """
    /* the threads of a parallel loop: OpenMP's where the module is built
     * with it, else 1 */
    #ifdef _OPENMP
    #include <omp.h>
    #define cl_max_threads() omp_get_max_threads()
    #else
    #define cl_max_threads() 1
    #endif
    """
    int cl_max_threads() noexcept nogil


cdef enum:
    WORK_PER_CHECK = 1 << 24


cdef struct Chunks:
    Py_ssize_t begin  # the items of the chunk at hand: [begin, end)
    Py_ssize_t end
    Py_ssize_t total
    Py_ssize_t size   # items in a chunk


cdef inline Chunks chunks(Py_ssize_t total, Py_ssize_t work_per_item,
                          int threads) noexcept nogil:
    # Chunks of the items [0, total) for a loop over them shared by
    # `threads` threads: about WORK_PER_CHECK units for each thread, a
    # multiple of `threads` items (so that they share each chunk evenly),
    # at least one. (An ordinary call is one chunk: a parallel region
    # apiece would add the cost of starting the threads again, and on a
    # loaded machine that of waiting for them.)
    cdef Chunks c
    if threads < 1:
        threads = 1
    c.begin = c.end = 0
    c.total = total
    c.size = (<Py_ssize_t>WORK_PER_CHECK * threads
              // (work_per_item if work_per_item > 1 else 1))
    c.size = (c.size + threads - 1) // threads * threads if c.size else threads
    return c


cdef inline int next_chunk(Chunks* c) except -1:
    # Moves c on to its next chunk and returns 1, or 0 once every item is
    # done; between two chunks, raises KeyboardInterrupt on Ctrl-C.
    if c.end > 0:
        PyErr_CheckSignals()
    c.begin = c.end
    c.end = c.total if c.total - c.begin <= c.size else c.begin + c.size
    return c.begin < c.total


cdef enum:
    # below this many units of work a chunk stays on one thread: waking
    # the others costs more than it saves
    PARALLEL_MIN_WORK = 1 << 18


cdef inline int parts_of(Py_ssize_t items, Py_ssize_t work_per_item,
                         int threads) noexcept nogil:
    # the threads that share a chunk of `items` items (1: the calling
    # thread alone)
    if threads < 2 or items * work_per_item < PARALLEL_MIN_WORK:
        return 1
    return threads if threads < items else <int>items


cdef inline Py_ssize_t cut(Py_ssize_t begin, Py_ssize_t end, int parts,
                           Py_ssize_t t) noexcept nogil:
    # where part t of the items [begin, end) in `parts` parts begins
    return begin + (end - begin) * t // parts
