"""The child program of test_kernel_fuzz: calls compiled entry points of
``chainerlite._core`` (the engine) and ``chainerlite._kernels`` (the CPU
kernels) with random arguments.

Run as ``python kernel_fuzz.py SEED CALLS LOG ENTRY...``: for each entry
(``module.name``) a forked child makes CALLS calls, writing a description of
each call to LOG before making it, and exits 0 when every call returned or
raised a clean exception. The parent prints one line per entry:
``ENTRY ok`` or ``ENTRY FAIL <why>: <the call>``.

Arrays are placed against guard pages (mmap + mprotect through ctypes): an
inaccessible page right after the array's last byte (or right before its
first byte), so that reading past the end (or before the start) is a
segmentation fault of the child. Read-only arrays live in pages mapped
read-only, so that writing into one is a segmentation fault as well.
"""

import ctypes
import mmap
import os
import random
import signal
import sys
import time
import warnings

import numpy

PAGE = mmap.PAGESIZE
PROT_NONE = 0  # (not in the mmap module)
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_long,
]
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_MAP_FAILED = ctypes.c_void_p(-1).value

# exceptions that a compiled kernel may raise for arguments it refuses
CLEAN = (ValueError, TypeError, OverflowError, BufferError)
# extreme values for the integer parameters of the kernels
EXTREMES = [0, -1, 1, 2, -(2**31), 2**31 - 1, 2**30, 2**63 - 1, -(2**63), 2**64]


class Arena:
    """Mappings of one call, each an array against guard pages."""

    def __init__(self):
        self.maps = []

    def _map(self, size):
        pages = max(1, -(-size // PAGE))
        length = (pages + 2) * PAGE
        prot = mmap.PROT_READ | mmap.PROT_WRITE
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
        addr = _libc.mmap(None, length, prot, flags, -1, 0)
        if addr in (None, _MAP_FAILED):
            raise OSError(ctypes.get_errno(), 'mmap failed')
        self.maps.append((addr, length))
        for guard in (addr, addr + length - PAGE):
            if _libc.mprotect(guard, PAGE, PROT_NONE):
                raise OSError(ctypes.get_errno(), 'mprotect failed')
        return addr + PAGE, pages * PAGE

    def array(self, values, at_start=False, misaligned=False, readonly=False):
        """A C-contiguous copy of ``values`` against a guard page: the one
        after its end, or the one before its start; one byte off its
        dtype's alignment if asked; in read-only pages if asked."""
        values = numpy.ascontiguousarray(values)
        nbytes = values.nbytes
        size = nbytes + (1 if misaligned else 0)
        base, usable = self._map(size)
        start = base if at_start else base + usable - size
        offset = start - base + (1 if misaligned else 0)
        raw = (ctypes.c_char * usable).from_address(base)
        flat = numpy.frombuffer(raw, numpy.uint8)[offset : offset + nbytes]
        out = flat.view(values.dtype).reshape(values.shape)
        out[...] = values
        if readonly:
            _libc.mprotect(base, usable, mmap.PROT_READ)
            out.flags.writeable = False
        return out

    def release(self):
        for addr, length in self.maps:
            _libc.munmap(addr, length)
        self.maps = []


class Gen:
    """Random arguments of one call: arrays of the right kind most of the
    time, with one of their properties spoiled now and then."""

    def __init__(self, rng, arena):
        self.rng = rng
        self.arena = arena
        self.inputs = []  # arrays read, for aliasing

    def chance(self, p):
        return self.rng.random() < p

    def dim(self, hi=5):
        return self.rng.choice([0, 1, 1, 2, 3, hi, self.rng.randint(1, hi)])

    def real(self):
        return self.rng.choice([numpy.float32, numpy.float64])

    def values(self, shape, dtype, lo=None, hi=None):
        dtype = numpy.dtype(dtype)
        if dtype.kind in 'iu':
            lo = -3 if lo is None else lo
            hi = max(lo + 1, 10 if hi is None else hi)
            return numpy.random.randint(lo, hi, size=shape).astype(dtype)
        if dtype.kind == 'b':
            return numpy.random.rand(*shape) > 0.5
        v = numpy.random.standard_normal(shape).astype(dtype)
        if v.size and self.chance(0.1):
            v.flat[self.rng.randrange(v.size)] = self.rng.choice(
                [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0]
            )
        return v

    def array(self, shape, dtype, out=False, lo=None, hi=None, spoil=0.15):
        """An array of ``shape`` and ``dtype`` (written by the kernel when
        ``out``), placed and laid out at random; with probability
        ``spoil`` its shape, dtype, layout or type is wrong."""
        shape = tuple(shape)
        if self.chance(spoil):
            spoiled = self._spoil(shape, dtype, out)
            if spoiled is not None:
                return spoiled
        return self._make(shape, dtype, out, lo, hi)

    def _make(self, shape, dtype, out, lo=None, hi=None, layout=None):
        rng = self.rng
        layout = layout or rng.choice(['c'] * 6 + ['f', 'step', 'reversed'])
        readonly = not out and self.chance(0.3)
        place = dict(
            at_start=self.chance(0.5), misaligned=self.chance(0.05), readonly=readonly
        )
        values = self.values(shape, dtype, lo, hi)
        if layout == 'f' and len(shape) > 1:
            a = self.arena.array(values.T, **place).T
        elif layout == 'step' and shape:
            wide = numpy.repeat(values, 2, axis=-1)
            a = self.arena.array(wide, **place)[..., ::2]
        elif layout == 'reversed' and shape:
            a = self.arena.array(values[..., ::-1], **place)[..., ::-1]
        else:
            a = self.arena.array(values, **place)
        if not out:
            self.inputs.append(a)
        return a

    def _spoil(self, shape, dtype, out):
        rng = self.rng
        kind = rng.choice(
            ['shape', 'ndim', 'dtype', 'swapped', 'junk', 'alias', 'readonly']
        )
        if kind == 'shape' and shape:
            axis = rng.randrange(len(shape))
            wrong = list(shape)
            wrong[axis] = max(0, wrong[axis] + rng.choice([-1, 1, 2, 7]))
            return self._make(wrong, dtype, out)
        if kind == 'ndim':
            wrong = shape[1:] if shape and self.chance(0.5) else (2,) + shape
            return self._make(wrong, dtype, out)
        if kind == 'dtype':
            other = rng.choice(
                [
                    numpy.float16,
                    numpy.float32,
                    numpy.float64,
                    numpy.int32,
                    numpy.int64,
                    numpy.intp,
                    numpy.uint8,
                    numpy.complex64,
                    bool,
                ]
            )
            return self._make(shape, other, out)
        if kind == 'swapped':
            return self._make(shape, numpy.dtype(dtype).newbyteorder(), out)
        if kind == 'junk':
            return rng.choice(
                [
                    None,
                    0,
                    1.5,
                    'x',
                    [],
                    [1.0, 2.0],
                    (1, 2),
                    object(),
                    numpy.float32(1),
                    numpy.zeros(()),
                    numpy.zeros(shape, object),
                ]
            )
        if kind == 'alias' and self.inputs:
            # an array already passed (read), or an overlapping view of it
            other = rng.choice(self.inputs)
            if self.chance(0.5) or not other.size:
                return other
            flat = other.reshape(-1) if other.flags.c_contiguous else other.ravel()
            if flat.base is None or not numpy.shares_memory(flat, other):
                return other
            return flat[1:] if flat.size > 1 else flat
        if kind == 'readonly' and out:
            a = self._make(shape, dtype, False)
            self.inputs.pop()
            return a
        return None

    def int_param(self, lo, hi):
        """An integer in [lo, hi], or now and then an extreme one."""
        if self.chance(0.05):
            return self.rng.choice(EXTREMES)
        return self.rng.randint(lo, hi)

    def float_param(self):
        if self.chance(0.1):
            return self.rng.choice(
                [0.0, -1.0, 1e300, numpy.nan, numpy.inf, numpy.float32(0.5), None, 'x']
            )
        return self.rng.uniform(-2, 2)


# -- the entry points: arguments of one call each -----------------------------


def _elementwise(g, scalars=0, arrays=1):
    shape = [g.dim(8) for _ in range(g.rng.randint(0, 3))]
    dt = g.real()
    args = [g.array(shape, dt) for _ in range(arrays)]
    return args + [g.float_param() for _ in range(scalars)]


def _relu(g):
    shape = [g.dim() for _ in range(g.rng.randint(0, 4))]
    return [g.array(shape, g.real())]


def _relu_grad(g):
    shape, dt = [g.dim() for _ in range(g.rng.randint(0, 4))], g.real()
    return [g.array(shape, dt), g.array(shape, dt)]


def _pair(g):
    # two arrays of one shape, now and then large enough for ewise's
    # threads (rarely: such arrays take long to place)
    n = g.rng.choice([1 << 18, (1 << 18) + 3]) if g.chance(0.02) else g.dim()
    dt = g.real()
    return [g.array((n,), dt), g.array((n,), dt)]


def _scale(g):
    # an array and a 0-d array of its dtype (ewise.scale's constant)
    n = g.rng.choice([1 << 18, (1 << 18) + 3]) if g.chance(0.02) else g.dim()
    dt = g.real()
    return [g.array((n,), dt), g.array((), dt)]


def _rows(g):
    # a 2-d array, now and then large enough for colsum's threads
    if g.chance(0.05):
        shape = g.rng.choice([(1024, 256), (1 << 17, 2), (1, 1 << 18)])
    else:
        shape = [g.dim(9) for _ in range(g.rng.choice([1, 2, 2, 2, 3]))]
    return [g.array(shape, g.real())]


def _strided(g, shape=None, dtype=None):
    # an array laid out at random (transposed, stepped, reversed, broadcast),
    # now and then large enough for the threads' copies (copies.pyx)
    if shape is None and g.chance(0.1):
        shape = [g.rng.choice([64, 65]) for _ in range(3)]
    elif shape is None:
        shape = [g.dim(9) for _ in range(g.rng.randint(0, 4))]
    a = g.array(shape, dtype or g.real())
    if not isinstance(a, numpy.ndarray) or not a.ndim:
        return a
    if g.chance(0.5):
        a = a.transpose(g.rng.sample(range(a.ndim), a.ndim))
    if g.chance(0.3):
        a = a[tuple(slice(None, None, g.rng.choice([1, -1, 2])) for _ in a.shape)]
    if g.chance(0.1) and a.shape[0]:
        a = numpy.broadcast_to(a[:1], (2,) + a.shape[1:])
    return a


def _new_shape(g, x):
    # a shape of x's size (one length unknown now and then), or a wrong one
    if g.chance(0.1):
        return g.rng.choice([(-1, -1), (-2, 4), (), 'ab', None, (1.5,), (2**62, 2**62)])
    size = getattr(x, 'size', 1)
    first = g.rng.choice([d for d in (2, 3, 5, 64, 65) if size % d == 0] or [1])
    return g.rng.choice([(first, -1), (-1,), (first, size // first)])


def _reshape(g):
    x = _strided(g)
    return [x, _new_shape(g, x)]


def _stack(g):
    x = _strided(g)
    shape = getattr(x, 'shape', ())
    dtype = getattr(x, 'dtype', None)
    dtype = dtype if dtype in (numpy.float32, numpy.float64) else g.real()
    xs = [x] + [_strided(g, shape, dtype) for _ in range(g.rng.randint(0, 3))]
    return [g.rng.choice([xs, tuple(xs), x]), g.int_param(-4, 4)]


def _int_params(g, *ranges):
    return [g.int_param(lo, hi) for lo, hi in ranges]


def _window(g):
    # sy, sx, py, px, dy, dx
    return _int_params(g, (1, 3), (1, 3), (0, 3), (0, 3), (1, 2), (1, 2))


def _images_and_columns(g, dtypes, image_size, columns_out):
    # images (n, c, h, w) and columns (n, c, kh, kw, oh, ow) of one dtype
    n, c, h, w = g.dim(3), g.dim(3), g.dim(image_size), g.dim(image_size)
    kh, kw, oh, ow = g.dim(3), g.dim(3), g.dim(6), g.dim(6)
    dt = g.rng.choice(dtypes)
    img = g.array((n, c, h, w), dt, out=not columns_out)
    col = g.array((n, c, kh, kw, oh, ow), dt, out=columns_out)
    return img, col


_PIXELS = [numpy.float32, numpy.float64, numpy.float16]


def _im2col(g):
    img, col = _images_and_columns(g, _PIXELS, 6, True)
    return [img, col] + _window(g) + [g.float_param()]


def _im2col_padded(g):
    padded, col = _images_and_columns(g, _PIXELS, 8, True)
    sy, sx, _, _, dy, dx = _window(g)
    return [padded, col, sy, sx, dy, dx]


def _col2im(g):
    img, col = _images_and_columns(g, [numpy.float32, numpy.float64], 6, False)
    return [col, img] + _window(g)


def _channels_to_batch(g):
    n, c, p, dt = g.dim(), g.dim(), g.dim(), g.real()
    bias = None if g.chance(0.3) else g.array((c,), dt)
    return [g.array((c, n * p), dt), bias, g.array((n, c, p), dt, out=True)]


def _conv_params(g):
    # stride, pad, dilate, groups: most often those the direct kernels take
    def pair(lo, hi):
        return (g.rng.randint(lo, hi), g.rng.randint(lo, hi))

    stride = (1, 1) if g.chance(0.8) else pair(1, 2)
    dilate = (1, 1) if g.chance(0.8) else pair(1, 2)
    pad = pair(0, 3) if g.chance(0.9) else g.rng.choice([pair(-1, 1), (1,) * 3, [1, 1]])
    return [stride, pad, dilate, 1 if g.chance(0.9) else 2]


def _spanned(g, dims, ksize, pad, sign):
    # dims + sign * (k - 1 - 2 p), now and then one off
    if not (isinstance(pad, tuple) and len(pad) == 2):
        return dims
    return tuple(
        d + sign * (k - 1 - 2 * p) + (g.chance(0.05) and g.rng.choice([-1, 1]))
        for d, k, p in zip(dims, ksize, pad)
    )


def _cache(g, x):
    # the padded images the direct kernels keep: none, empty, or stale
    kind = g.rng.choice(['none', 'empty', 'stale'])
    if kind == 'stale':
        return [x, (1, 1), g.array((1, 1, 2, 2), numpy.float32)]
    return None if kind == 'none' else []


def _direct_conv(g):
    n, cin, cout, kh, kw = g.dim(3), g.dim(3), g.dim(4), g.dim(3), g.dim(9)
    x = g.array((n, cin, g.dim(6), g.dim(9)), numpy.float32)
    W = g.array((cout, cin, kh, kw), numpy.float32)
    bias = None if g.chance(0.3) else g.array((cout,), numpy.float32)
    return [x, W, bias] + _conv_params(g) + [_cache(g, x), g.chance(0.5)]


def _direct_conv_transpose(g):
    n, cin, cout, kh, kw = g.dim(3), g.dim(3), g.dim(4), g.dim(3), g.dim(9)
    dims = (g.dim(6), g.dim(9))
    x = g.array((n, cin) + dims, numpy.float32)
    W = g.array((cin, cout, kh, kw), numpy.float32)
    params = _conv_params(g)
    return [x, W, _spanned(g, dims, (kh, kw), params[1], 1)] + params + [g.chance(0.5)]


def _direct_conv_grad(g):
    n, cin, cout, kh, kw = g.dim(3), g.dim(3), g.dim(4), g.dim(3), g.dim(9)
    dims = (g.dim(6), g.dim(9))
    x = g.array((n, cin) + dims, numpy.float32)
    params = _conv_params(g)
    outs = _spanned(g, dims, (kh, kw), params[1], -1)
    gy = g.array((n, cout) + tuple(max(0, d) for d in outs), numpy.float32)
    return [x, gy, (kh, kw)] + params + [_cache(g, x), g.chance(0.5)]


def _onednn_conv(g):
    n, cin, cout, kh, kw = g.dim(3), g.dim(3), g.dim(4), g.dim(3), g.dim(9)
    dims = (g.dim(6), g.dim(9))
    x = g.array((n, cin) + dims, numpy.float32)
    W = g.array((cout, cin, kh, kw), numpy.float32)
    bias = None if g.chance(0.3) else g.array((cout,), numpy.float32)
    params = _conv_params(g)
    stride, pad, dilate = params[:3]
    outs = dims
    if isinstance(pad, tuple) and len(pad) == 2:
        # the output lengths of the problem, now and then one off
        outs = tuple(
            (d + 2 * p - (k - 1) * dl - 1) // s + 1 + (g.chance(0.05) and 1)
            for d, k, p, s, dl in zip(dims, (kh, kw), pad, stride, dilate)
        )
    return [x, W, bias, outs] + params


def _onednn_transpose(g):
    # the direct kernel's leading arguments: gy, W, dims, stride, pad,
    # dilate, groups
    return _direct_conv_transpose(g)[:7]


def _onednn_grad(g):
    # the direct kernel's leading arguments: x, gy, ksize, stride, pad,
    # dilate, groups
    return _direct_conv_grad(g)[:7]


def _onednn_bn(g):
    c = g.dim(4)
    shape = (g.dim(3), c) + ((g.dim(4), g.dim(4)) if g.chance(0.7) else ())
    x = g.array(shape, numpy.float32)
    params = [g.array((c,), numpy.float32) for _ in range(2)]
    return [x] + params + [2e-5]


def _onednn_bn_grad(g):
    x, gamma, mean = _onednn_bn(g)[:3]
    c = mean.size if isinstance(mean, numpy.ndarray) else 1
    var = g.array((c,), numpy.float32, lo=0.0, hi=2.0)
    shape = x.shape if isinstance(x, numpy.ndarray) else (1, c)
    return [x, gamma, mean, var, g.array(shape, numpy.float32), 2e-5]


def _lstm_shapes(g):
    rows, units = g.dim(4), g.dim(4)
    batch = g.rng.randint(0, rows)
    # (cells of 16 or more float32 elements take the vector kernels)
    rest = tuple(g.dim(g.rng.choice([3, 40])) for _ in range(g.rng.randint(0, 2)))
    return rows, batch, units, rest, g.real()


def _lstm_forward(g):
    rows, batch, units, rest, dt = _lstm_shapes(g)
    save = g.chance(0.5)
    # (where given, the activations go into a caller's array)
    act = None
    if g.chance(0.5):
        act = g.array((batch, units, 5, int(numpy.prod(rest))), dt, out=True)
    return [
        g.array((rows, units) + rest, dt),
        g.array((batch, 4 * units) + rest, dt),
        g.array((rows, units) + rest, dt, out=True),
        g.array((batch, units) + rest, dt, out=True),
        save,
        act,
    ]


def _lstm_backward(g):
    rows, batch, units, rest, dt = _lstm_shapes(g)
    size = 1
    for r in rest:
        size *= r
    act = None if g.chance(0.5) else g.array((batch, units, 5, size), dt)
    return [
        g.array((rows, units) + rest, dt),
        g.array((batch, 4 * units) + rest, dt),
        g.array((rows, units) + rest, dt),
        g.array((rows, units) + rest, dt),
        g.array((batch, units) + rest, dt),
        g.array((rows, units) + rest, dt, out=True),
        g.array((batch, 4 * units) + rest, dt, out=True),
        act,
    ]


def _lstm_steps(g, rows):
    # batches and starts of a few steps: mostly within N rows, now and then
    # outside them, of other lengths or not integers
    steps = g.rng.randint(1, 4)
    batches = [g.rng.randint(1, max(1, rows)) for _ in range(steps)]
    starts = [sum(batches[:i]) for i in range(steps)]
    total = sum(batches)
    if g.chance(0.1):
        batches[g.rng.randint(0, steps - 1)] = g.rng.choice(EXTREMES + [0, rows + 1])
    if g.chance(0.05):
        starts = g.rng.choice([starts[:-1], [1.5] * steps, None, 'ab'])
    return batches, starts, total


def _lstm_layer_forward(g):
    rows, n = g.dim(4), g.dim(40)
    batches, starts, total = _lstm_steps(g, rows)
    act = g.array((total, 5 * n), numpy.float32, out=True) if g.chance(0.5) else None
    return [
        g.array((total, 4 * n), numpy.float32),
        g.array((rows, n), numpy.float32),
        g.array((rows, n), numpy.float32),
        g.array((4 * n, n), numpy.float32),
        batches,
        starts,
        g.array((total, n), numpy.float32, out=True),
        g.array((total, n), numpy.float32, out=True),
        act,
    ]


def _lstm_layer_backward(g):
    rows, n = g.dim(4), g.dim(40)
    batches, starts, total = _lstm_steps(g, rows)
    act = None if g.chance(0.1) else g.array((total, 5 * n), numpy.float32)
    return [
        g.array((4 * n, n), numpy.float32),
        g.array((rows, n), numpy.float32),
        g.array((total, n), numpy.float32),
        act,
        g.array((total, n), numpy.float32),
        g.array((rows, n), numpy.float32, out=True),
        g.array((rows, n), numpy.float32, out=True),
        g.array((total, 4 * n), numpy.float32, out=True),
        batches,
        starts,
    ]


def _adam(g):
    shape = [g.dim(6) for _ in range(g.rng.randint(0, 3))]
    dt = g.real()
    return [
        g.array(shape, dt, out=True),
        g.array(shape, dt),
        g.array(shape, dt, out=True),
        g.array(shape, dt, out=True),
    ] + [g.float_param() for _ in range(6)]


def _pool_params(g):
    # kh, kw, sy, sx, py, px
    return _int_params(g, (1, 4), (1, 4), (1, 3), (1, 3), (0, 2), (0, 2))


def _max_pooling(g):
    n, c, h, w, oh, ow = (g.dim() for _ in range(6))
    dt = g.real()
    return [
        g.array((n, c, h, w), dt),
        g.array((n, c, oh, ow), dt, out=True),
        g.array((n, c, oh, ow), numpy.intp, out=True),
    ] + _pool_params(g)


def _max_pooling_grad(g):
    n, c, h, w, oh, ow = (g.dim() for _ in range(6))
    dt = g.real()
    params = _pool_params(g)
    taps = max(1, min(params[0] * params[1], 64))
    return [
        g.array((n, c, oh, ow), dt),
        g.array(
            (n, c, oh, ow),
            numpy.intp,
            lo=-1 if g.chance(0.1) else 0,
            hi=taps + (5 if g.chance(0.1) else 0),
        ),
        g.array((n, c, h, w), dt, out=True),
    ] + params


def _run_parts(g):
    # a part function that fails now and then, and that checks each row is
    # given to one part only
    rows = g.rng.choice([0, 1, 2, 3, 7, 64])
    parts = g.rng.choice([-1, 0, 1, 2, 3, 8, 100])
    seen = numpy.zeros(rows, numpy.int8)
    fail = g.chance(0.3)

    def run(begin, end):
        if not 0 <= begin <= end <= rows:
            raise AssertionError('part [{}, {}) of {} rows'.format(begin, end, rows))
        seen[begin:end] += 1
        if seen.max(initial=0) > 1:
            raise AssertionError('a row given to two parts')
        if fail and begin == 0:
            raise ValueError('a part failed')

    return [run, rows, parts, g.rng.choice([None, lambda: None])]


def _sce_forward(g):
    n, c = g.dim(6), g.dim(6)
    x = g.array((n, c), g.real())
    t = g.array((n,), g.rng.choice([numpy.int32, numpy.int64]), lo=-1, hi=c + 1)
    ignore = g.rng.choice([-1, 0, 2**70, 1.5, None])
    return [x, t, ignore, g.rng.choice([0, 1, 2, 3, -1])]


def _sce_backward(g):
    n, c, dt = g.dim(6), g.dim(6), g.real()
    x = g.array((n, c), dt)
    if g.chance(0.3):
        stats = g.rng.choice([None, (), (1, 2, 3), [x, x, x], 'abc'])
    else:
        stats = (
            g.array(
                (n,),
                numpy.intp,
                lo=-1 if g.chance(0.2) else 0,
                hi=c + (3 if g.chance(0.1) else 0),
            ),
            g.array((n,), dt),
            g.array((n,), dt),
        )
    mean = g.chance(0.5)
    grad = g.array(() if mean else (n,), dt)
    return [x, stats, grad, g.float_param() if mean else None]


def _softmax(g, grad):
    shape = [g.dim(6) for _ in range(g.rng.randint(1, 3))]
    dt = g.real()
    arrays = [g.array(shape, dt) for _ in range(2 if grad else 1)]
    return arrays + [g.int_param(-3, 2), g.chance(0.5)]


def _row_norm(g, grad):
    # layer_norm(x, gamma, beta, eps) / layer_norm_grad(x, gamma, gy, eps)
    n, d, dt = g.dim(6), g.dim(9), g.real()
    x = g.array((n, d), dt)
    third = (n, d) if grad else (d,)
    return [x, g.array((d,), dt), g.array(third, dt), g.float_param()]


def _group_norm(g, grad):
    n, groups, per, hw, dt = g.dim(3), g.dim(3), g.dim(3), g.dim(4), g.real()
    c = groups * per
    x = g.array((n, c, hw, hw), dt)
    third = (n, c, hw, hw) if grad else (c,)
    groups = groups if g.chance(0.9) else g.int_param(-1, 5)
    return [x, g.array((c,), dt), g.array(third, dt), groups, g.float_param()]


def _batch_norm(g, kind):
    n, c, hw, dt = g.dim(4), g.dim(5), g.dim(4), g.real()
    x = g.array((n, c, hw, hw), dt)
    vec = [g.array((c,), dt) for _ in range(4)]
    eps = g.float_param()
    if kind == 'forward':
        return [x, vec[0], vec[1], eps]
    if kind == 'grad':
        return [x, vec[0], g.array((n, c, hw, hw), dt), vec[1], vec[2], eps]
    if kind == 'fixed':
        return [x, vec[0], vec[1], vec[2], g.array((c,), dt, lo=0), eps]
    return [x, g.array((n, c, hw, hw), dt), vec[0], vec[1]]


def _add_rows(g):
    v, d, n, dt = g.dim(6), g.dim(6), g.dim(6), g.real()
    ids = g.array((n,), g.rng.choice([numpy.int32, numpy.int64]), lo=-2, hi=v + 2)
    skip = g.rng.choice([None, -1, 0, 2**70, 1.5])
    return [g.array((v, d), dt, out=True), ids, g.array((n, d), dt), skip]


def _sgd(g, momentum):
    shape = [g.dim(6) for _ in range(g.rng.randint(0, 3))]
    dt = g.real()
    arrays = [g.array(shape, dt, out=True), g.array(shape, dt)]
    if momentum:
        arrays.append(g.array(shape, dt, out=True))
    return arrays + [g.float_param() for _ in range(2 if momentum else 1)]


def _pack(g):
    dt = g.rng.choice([numpy.float32, numpy.float32, numpy.float64])
    w = g.array((g.dim(40), g.dim(40)), dt)
    return [w, g.rng.choice([True, False, 0, 1, None])]


def _packed_matmul(g):
    from chainerlite._kernels import packed_gemm

    m, k, n = g.dim(12), g.dim(40), g.dim(40)
    w = g.values((n, k) if g.chance(0.5) else (k, n), numpy.float32)
    b = g.rng.choice(
        [packed_gemm.pack(w, w.shape == (n, k)), None, packed_gemm.Packed()]
    )
    x = g.array((m, k), numpy.float32)
    out = g.array((m, n), numpy.float32, out=True) if g.chance(0.5) else None
    add = g.array((m, n), numpy.float32) if g.chance(0.5) else None
    return [x, b, out, add]


def _dropout_words(g):
    # a key of the random stream and the keep threshold: in range, or now
    # and then an extreme integer or not an integer
    key = g.rng.choice([0, 1, 2**64 - 1, g.rng.getrandbits(64)])
    threshold = g.rng.choice([0, 1, 2**31, 2**32 - 1, g.rng.getrandbits(32)])
    if g.chance(0.05):
        key = g.rng.choice(EXTREMES + [-1, 2**64, 1.5, None])
    if g.chance(0.05):
        threshold = g.rng.choice(EXTREMES + [-1, 2**32, None])
    return [key, threshold]


def _dropout_keep_mask(g):
    shape = tuple(g.dim(9) for _ in range(g.rng.randint(0, 3)))
    if g.chance(0.05):
        shape = g.rng.choice([(-1,), (2**62, 2**62), 'ab', None, (1.5,)])
    return [shape] + _dropout_words(g)


def _dropout_forward(g):
    shape = [g.dim(9) for _ in range(g.rng.randint(0, 3))]
    return [g.array(shape, g.real())] + _dropout_words(g) + [g.float_param()]


def _dropout_backward(g):
    shape = [g.dim(9) for _ in range(g.rng.randint(0, 3))]
    return [g.array(shape, g.real()), g.array(shape, bool), g.float_param()]


def _onednn_matmul(g):
    batch = [g.dim(3) for _ in range(g.rng.randint(0, 2))]
    m, k, n = g.dim(9), g.dim(9), g.dim(9)
    transa, transb = g.chance(0.5), g.chance(0.5)
    a = g.array(batch + ([k, m] if transa else [m, k]), numpy.float32)
    b = g.array(
        [g.rng.choice([d, 1]) for d in batch] + ([n, k] if transb else [k, n]),
        numpy.float32,
    )
    bias = None if g.chance(0.5) else g.array((n,), numpy.float32)
    return [a, b, bias, transa, transb]


KERNELS = {
    'act.leaky_relu_grad': lambda g: _elementwise(g, 1, 2),
    'act.softplus_grad': lambda g: _elementwise(g, 1, 2),
    'act.gelu': lambda g: _elementwise(g, 0, 1),
    'act.normal_cdf': lambda g: _elementwise(g, 0, 1),
    'act.gelu_grad': lambda g: _elementwise(g, 0, 2),
    'act.elu_grad': lambda g: _elementwise(g, 1, 3),
    'vec_math.sigmoid': lambda g: _elementwise(g, 0, 1),
    'vec_math.elu': lambda g: _elementwise(g, 1, 1),
    'vec_math.softplus': lambda g: _elementwise(g, 2, 1),
    'vec_math.gelu': lambda g: _elementwise(g, 0, 1),
    'vec_math.gelu_grad': lambda g: _elementwise(g, 0, 2),
    'relu.relu': _relu,
    'relu.relu_grad': _relu_grad,
    'ewise.add': _pair,
    'ewise.mul': _pair,
    'ewise.scale': _scale,
    'colsum.column_sum': _rows,
    'copies.c_copy': lambda g: [_strided(g)],
    'copies.needs_copy': _reshape,
    'copies.reshaped': _reshape,
    'copies.stack': _stack,
    'conv.im2col_2d': _im2col,
    'conv.im2col_padded_2d': _im2col_padded,
    'conv.col2im_2d': _col2im,
    'conv.channels_to_batch': _channels_to_batch,
    'direct_conv.conv2d': _direct_conv,
    'direct_conv.conv2d_transpose': _direct_conv_transpose,
    'direct_conv.conv2d_grad_weight': _direct_conv_grad,
    'onednn.conv2d': _onednn_conv,
    'onednn.conv2d_transpose': _onednn_transpose,
    'onednn.conv2d_grad_weight': _onednn_grad,
    'onednn.batch_norm': _onednn_bn,
    'onednn.batch_norm_grad': _onednn_bn_grad,
    'onednn.matmul': _onednn_matmul,
    'onednn.chosen_matmul': _onednn_matmul,
    'dropout.keep_mask': _dropout_keep_mask,
    'dropout.forward': _dropout_forward,
    'dropout.backward': _dropout_backward,
    'lstm.lstm_forward': _lstm_forward,
    'lstm.lstm_backward': _lstm_backward,
    'lstm_layer.forward': _lstm_layer_forward,
    'lstm_layer.backward': _lstm_layer_backward,
    'optim.adam': _adam,
    'optim.sgd': lambda g: _sgd(g, False),
    'optim.momentum_sgd': lambda g: _sgd(g, True),
    'norm.softmax': lambda g: _softmax(g, False),
    'norm.softmax_grad': lambda g: _softmax(g, True),
    'norm.layer_norm': lambda g: _row_norm(g, False),
    'norm.layer_norm_grad': lambda g: _row_norm(g, True),
    'norm.group_norm': lambda g: _group_norm(g, False),
    'norm.group_norm_grad': lambda g: _group_norm(g, True),
    'norm.batch_norm': lambda g: _batch_norm(g, 'forward'),
    'norm.batch_norm_grad': lambda g: _batch_norm(g, 'grad'),
    'norm.batch_norm_fixed': lambda g: _batch_norm(g, 'fixed'),
    'norm.batch_norm_fixed_grad': lambda g: _batch_norm(g, 'fixed_grad'),
    'scatter.add_rows': _add_rows,
    'packed_gemm.pack': _pack,
    'packed_gemm.matmul': _packed_matmul,
    'pool.max_pooling_2d': _max_pooling,
    'pool.max_pooling_2d_grad': _max_pooling_grad,
    'sce.sce_forward': _sce_forward,
    'sce.sce_backward': _sce_backward,
    'row_threads.run_parts': _run_parts,
    # (an int: the pool keeps it, and the fuzzer unmaps its arrays' memory)
    'row_threads._pool_of': lambda g: [g.rng.choice([-1, 0, 1, 2, 3, 8])],
}


def _junk(g):
    # one argument for an entry point that takes Python objects
    from chainerlite._core import node

    choices = [
        None,
        0,
        -1,
        2**70,
        1.5,
        'x',
        b'x',
        (),
        [],
        {},
        object(),
        len,
        numpy.float32(1),
        (None,),
        [None, None],
        {'a': 1},
    ]
    pick = g.rng.randrange(len(choices) + 3)
    if pick < len(choices):
        return choices[pick]
    dt = g.rng.choice([numpy.float32, numpy.float64, numpy.int32, numpy.float16])
    a = g.array([g.dim(4) for _ in range(g.rng.randint(0, 3))], dt, spoil=0.3)
    if pick == len(choices) and isinstance(a, numpy.ndarray) and a.dtype.kind == 'f':
        return node.Variable(a)
    if pick == len(choices) + 1:
        return [a, a]
    return a


def _generic(g):
    """Arguments for an entry point that takes Python objects: 0 to 4 of
    them, plain values, arrays or Variables."""
    return [_junk(g) for _ in range(g.rng.randint(0, 4))]


# Entry points that take Python objects (Variables, lists, hooks,
# configuration values): fuzzed with wrong types, odd values and arrays.
# The classes of the core are fuzzed too (constructors with such
# arguments, then every method of the instance).
GENERIC = {
    'backprop': ['backprop', 'backward', 'grad'],
    'config': [
        'in_light_mode',
        'set_light_mode',
        '_show',
        'using_config',
        'no_backprop_mode',
        'force_backprop_mode',
    ],
    'handover': ['provide', 'missing'],
    'hooks': [
        'forward_preprocess',
        'forward_postprocess',
        'backward_preprocess',
        'backward_postprocess',
        'get_function_hooks',
        'callback_set',
    ],
    'node': [
        'get_array_module',
        'force_array',
        '_rebuild_variable',
        '_rebuild_node',
        '_as_variable',
        'substitute_forward',
        'retained_indexes',
    ],
    'facts': ['class_flags', 'open_classes', 'expect_axes'],
    'ops_math': ['scalar_like'],
    'ops_array': ['broadcast_view', 'broadcast_to', 'reshape', 'sum', 'normalize_axis'],
    'ops_nn': ['relu', 'tanh', 'is_2d', 'linear2d'],
    'direct_conv': ['direct_conv_simd'],
    'vec_math': ['vec_math_available', 'numpy_tanh_chosen'],
    'onednn': ['available', 'unavailable_reason', '_candidates'],
    'block_cache': ['install', 'follow', 'release', 'stats'],
    'ready': ['set_ready_grads', 'recording_ready_grads'],
    'row_threads': ['_forget_pool', '_wait'],
}

# Entry points not fuzzed, with the reason.
SKIP = {
    'node._set_cupy': 'installs a module as CuPy for the whole process: '
    'every later call would test a fake CuPy, not the kernels',
    'timer._set_cupy': 'installs a module as CuPy for the whole process',
    'config.set_on_new_thread': 'replaces, for the whole process, what each '
    'new thread calls as it first runs chainerlite: a fuzzed value would be '
    'called by the next thread of the run',
}


#: The compiled packages whose entry points are fuzzed (their module names
#: differ, so that an entry point is ``module.name``).
PACKAGES = ('chainerlite._core', 'chainerlite._kernels')


def _modules():
    """``{name: module}`` of every module of :data:`PACKAGES`."""
    import importlib
    import pkgutil

    found = {}
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        for info in pkgutil.iter_modules(path):
            assert info.name not in found, 'two modules ' + info.name
            found[info.name] = importlib.import_module(package + '.' + info.name)
    return found


def module(name):
    """The module ``name`` of one of :data:`PACKAGES`."""
    return _modules()[name]


def entry_points():
    """Every callable defined by a module of :data:`PACKAGES`, as
    ``module.name``: its functions and its classes."""
    names = []
    for short, mod in _modules().items():
        for name, value in vars(mod).items():
            if name.startswith('__') or not callable(value):
                continue
            if getattr(value, '__module__', None) == mod.__name__:
                names.append(short + '.' + name)
    return sorted(names)


def _call_class(cls, g, describe):
    # constructor, then every method of the instance (and of an instance
    # made by __new__ alone, never initialised)
    instances = []
    args = _generic(g)
    describe(cls.__name__ + '(*{!r})'.format(args))
    try:
        instances.append(cls(*args))
    except Exception:
        pass
    try:
        instances.append(cls.__new__(cls))
    except Exception:
        pass
    for obj in instances:
        for name in sorted(dir(cls)):
            if name in ('__del__', '__dealloc__') or (
                name.startswith('__')
                and name not in ('__call__', '__enter__', '__exit__', '__repr__')
            ):
                continue
            try:
                attr = getattr(obj, name)
            except Exception:
                continue
            if not callable(attr) or isinstance(attr, type):
                continue
            args = _generic(g)
            describe('{}.{}(*{!r})'.format(cls.__name__, name, args))
            try:
                attr(*args)
            except Exception:
                pass


def _describe_arg(a):
    if isinstance(a, numpy.ndarray):
        return (
            'array(shape={}, dtype={}, strides={}, C={}, aligned={}, '
            'writeable={}, at={:#x})'.format(
                a.shape,
                a.dtype.str,
                a.strides,
                a.flags.c_contiguous,
                a.flags.aligned,
                a.flags.writeable,
                a.ctypes.data,
            )
        )
    return repr(a)


def fuzz_entry(entry, seed, calls, log):
    """Makes ``calls`` calls of ``entry``; raises AssertionError on a call
    that raises an exception other than a clean one."""
    warnings.simplefilter('ignore')
    module_name, name = entry.split('.')
    func = getattr(module(module_name), name)
    rng = random.Random('{}:{}'.format(seed, entry))
    numpy.random.seed(rng.randrange(2**32))

    def describe(text):
        log.seek(0)
        log.write(text)
        log.truncate()
        log.flush()

    for _ in range(calls):
        arena = Arena()
        g = Gen(rng, arena)
        if isinstance(func, type):
            _call_class(func, g, describe)
        else:
            args = KERNELS[entry](g) if entry in KERNELS else _generic(g)
            describe('{}({})'.format(entry, ', '.join(map(_describe_arg, args))))
            try:
                result = func(*args)
            except CLEAN:
                pass
            except Exception as e:
                if entry in KERNELS:
                    raise AssertionError('{} raised {!r}'.format(entry, e)) from None
            else:
                del result
            del args
        g.inputs = []
        arena.release()


def main(argv):
    seed, calls, log_path = int(argv[1]), int(argv[2]), argv[3]
    entry_points()  # imported once, before the children are forked
    for entry in argv[4:]:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            code = 3
            try:
                with open(log_path, 'w') as log:
                    fuzz_entry(entry, seed, calls, log)
                code = 0
            except BaseException as e:
                with open(log_path, 'w') as log:
                    log.write('{!r}'.format(e))
            finally:
                os._exit(code)
        began = time.monotonic()
        deadline = began + 60
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                status = None
                break
            time.sleep(0.01)
        if status == 0:
            print(entry, '{:.2f}s'.format(time.monotonic() - began), 'ok', flush=True)
            continue
        with open(log_path) as log:
            last = log.read()
        if status is None:
            why = 'hung (killed after 60 s)'
        elif os.WIFSIGNALED(status):
            why = 'killed by signal {}'.format(os.WTERMSIG(status))
        else:
            why = 'exit status {}'.format(os.WEXITSTATUS(status))
        print(entry, 'FAIL', why + ':', last.replace('\n', ' '), flush=True)


if __name__ == '__main__':
    main(sys.argv)
