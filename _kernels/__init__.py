"""Compiled CPU kernels of chainerlite: loops over NumPy arrays that the
ops (``chainerlite._core`` and ``chainerlite.functions``) call where they
beat NumPy. The kernels know nothing of Variables, graphs or the package
above them: they import neither ``chainerlite`` nor its engine.

A kernel is one file, ``_kernels/NAME.pyx`` (built as
``chainerlite._kernels.NAME``; ``setup.py`` finds it with no edit), which
holds, in this order:

- ``# build: OPTION ...`` (optional), the build options it needs, each with
  the reason in a comment: ``openmp`` (prange loops), ``strict-fp`` (no
  fused multiply-add, sqrt without errno), ``libdl`` (dlopen); the flags of
  each option are set in one table of ``setup.py``;
- its docstring: what it computes and where it declines;
- its C, if any, inside the ``.pyx`` (``cdef extern from *`` with the code
  in the docstring), including ``dispatch.h`` for SIMD: ``CL_CLONES`` to
  compile a loop for AVX-512/AVX2/baseline, ``cl_cpu_avx2_fma()`` to check
  the CPU at run time;
- ``PRECISION``, its promise: ``'bitwise NumPy'`` or ``'bitwise Chainer'``
  (the same bits as the path it replaces), ``'N ulp ...'`` or ``'rtol X
  ...'`` (per dtype), checked by its tests;
- its entry points.

Compute or decline: an entry point returns its result, or None where it
does not apply (another dtype, layout or array type, arguments it cannot
take as NumPy would, or where NumPy is faster), having written nothing;
the caller then keeps its NumPy (or CuPy) path: ``out = kernel.f(...)``,
``if out is not None: return out``. The caller need not know when a kernel
applies: ``direct_conv``, for one, takes the convolution's images and
parameters as they are and pads the images itself. Kernels that write into
output arrays the caller made for them (conv, pool, lstm) are chosen by the
caller and never decline: a wrong argument is a ValueError that names the
kernel.

Its public ``cdef`` functions (a name without a leading underscore) can be
cimported by the engine, ``from chainerlite._kernels.NAME cimport f``:
``setup.py`` writes the ``.pxd`` from the ``.pyx``. Shared pieces:
``dispatch.h`` (CPU features), ``dtypes.pxd`` (the dtypes, named once),
``chunks.pxd`` (Ctrl-C between chunks of work), ``argcheck.pxd`` (spans and
alignment of arrays). The kernels have no ``.pyi``: they are private, and
the Python code that calls them sees them untyped.
"""
