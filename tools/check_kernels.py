"""Compiles the CUDA source of every CuPy kernel of chainerlite, no GPU needed.

``make check-kernels`` runs this in a venv with ``cupy-cuda12x`` and
``nvidia-cuda-nvrtc-cu12``. CuPy's own compile path asks for a device, so
the source is made here the way CuPy makes it when a kernel is first
called (CuPy's code generators, with the argument layout of a call on
contiguous arrays) and compiled to PTX through the low-level NVRTC
bindings. Every kernel is compiled once for each dtype set of its
``check_types``.

Before that, a kernel with an undefined identifier must fail to compile
(so that a broken compiler setup cannot pass everything), and no module of
the package may make a CuPy kernel outside ``chainerlite.backends``: every
kernel goes through :mod:`chainerlite.backends.cuda_kernel`, so that this
check sees it.

Exit status: 0 when every kernel compiled, 1 otherwise (with NVRTC's log).
"""

import argparse
import importlib
import os
import pathlib
import re
import sys

import numpy

import cupy
from cupy._core import _carray
from cupy._core import _kernel
from cupy._core import _reduction
from cupy._core import _scalar
from cupy._core import core
from cupy_backends.cuda.libs import nvrtc

ARCH = '-arch=compute_90'
# What CuPy puts in front of every kernel it compiles.
CUPY_HEADERS = (
    'cupy/complex.cuh',
    'cupy/carray.cuh',
    'cupy/atomics.cuh',
    'cupy/math_constants.h',
)
# Argument kinds of CuPy's _ArgInfo.
NDARRAY, INDEXER, SCALAR = 1, 2, 3
# Modules allowed to create CuPy kernels directly: the public factories of
# chainerlite.backends.cuda (Chainer's API) and the registry itself.
KERNEL_FACTORIES = re.compile(
    r'\b(ElementwiseKernel|ReductionKernel|RawKernel|RawModule)\s*\('
)
ALLOWED = {'backends/cuda.py', 'backends/cuda_kernel.py'}


class CompileError(Exception):
    pass


def _arg(kind, dtype, ndim):
    cls = {
        NDARRAY: core._ndarray_base,
        INDEXER: _carray.Indexer,
        SCALAR: _scalar.CScalar,
    }[kind]
    return _kernel._ArgInfo(kind, cls, dtype, ndim, True, True)


def _dtypes(params, types):
    return tuple(
        numpy.dtype(types[p.ctype]) if p.dtype is None else p.dtype for p in params
    )


def _data_args(params, dtypes, ndim, outputs=False):
    # Outputs, placeholder-typed and raw parameters as arrays, fixed-type
    # non-raw inputs as scalars (how the package passes them).
    return tuple(
        _arg(SCALAR, d, 0)
        if (not outputs and p.dtype is not None and not p.raw)
        else _arg(NDARRAY, d, ndim)
        for p, d in zip(params, dtypes)
    )


def elementwise_source(spec, types):
    """The CUDA source CuPy makes for an Elementwise kernel."""
    k = cupy.ElementwiseKernel(
        spec.in_params,
        spec.out_params,
        spec.operation,
        spec.name,
        preamble=spec.preamble,
    )
    in_params, out_params = k.params[: k.nin], k.params[k.nin : k.nargs]
    in_types, out_types, type_map = k._decide_params_type(
        _dtypes(in_params, types), _dtypes(out_params, types)
    )
    args = (
        _data_args(in_params, in_types, 1)
        + _data_args(out_params, out_types, 1, outputs=True)
        + (_arg(INDEXER, None, 1),)
    )
    return _kernel._get_elementwise_kernel_code(
        args, type_map, k.params, k.operation, k.name, k.preamble
    )


def reduction_source(spec, types, block_size=512):
    """The CUDA source CuPy makes for a Reduction kernel (a 2-d input
    reduced over one axis)."""
    k = cupy.ReductionKernel(
        spec.in_params,
        spec.out_params,
        spec.map_expr,
        spec.reduce_expr,
        spec.post_map_expr,
        spec.identity,
        spec.name,
        reduce_type=spec.reduce_type,
        preamble=spec.preamble,
    )
    in_types, out_types, type_map = _kernel._decide_params_type(
        k.in_params,
        k.out_params,
        _dtypes(k.in_params, types),
        _dtypes(k.out_params, types),
    )
    # CuPy's reduction code indexes with IndexT, typed by the launch (int
    # for arrays indexed in 32 bits, as the arguments here are).
    type_map = _kernel._TypeMap(type_map._pairs + (('IndexT', 'int'),))
    args = (
        _data_args(k.in_params, in_types, 2)
        + _data_args(k.out_params, out_types, 1, outputs=True)
        + (
            _arg(INDEXER, None, 2),
            _arg(INDEXER, None, 1),
            _arg(SCALAR, numpy.dtype(numpy.int32), 0),
        )
    )
    return _reduction._ReductionKernel_get_cached_function_code(
        k.nin,
        k.nout,
        k._params,
        args,
        type_map,
        k.name,
        block_size,
        k.reduce_type,
        k.identity,
        k.map_expr,
        k.reduce_expr,
        k.post_map_expr,
        k.preamble,
        (),
    )


def compile_ptx(source, name):
    """Compiles CUDA source to PTX with NVRTC; CompileError on failure."""
    header = ''.join('#include <{}>\n'.format(h) for h in CUPY_HEADERS)
    options = list(core.assemble_cupy_compiler_options((ARCH,)))
    prog = nvrtc.createProgram(header + source, name + '.cu', [], [])
    try:
        try:
            nvrtc.compileProgram(prog, options)
        except nvrtc.NVRTCError:
            raise CompileError(nvrtc.getProgramLog(prog))
        return nvrtc.getPTX(prog)
    finally:
        nvrtc.destroyProgram(prog)


def source_of(spec, types):
    from chainerlite.backends import cuda_kernel

    if isinstance(spec, cuda_kernel.Reduction):
        return reduction_source(spec, types)
    return elementwise_source(spec, types)


def kernel_modules(package_dir):
    """The modules that define kernels (they use cuda_kernel), and the
    files that make CuPy kernels directly (not allowed)."""
    modules, direct = [], []
    for path in sorted(pathlib.Path(package_dir).rglob('*.py')):
        rel = path.relative_to(package_dir).as_posix()
        text = path.read_text()
        if rel not in ALLOWED and KERNEL_FACTORIES.search(text):
            direct.append(rel)
        if 'cuda_kernel' in text and rel != 'backends/cuda_kernel.py':
            modules.append('chainerlite.' + rel[:-3].replace('/', '.'))
    return modules, direct


def check_broken_kernel_fails():
    from chainerlite.backends import cuda_kernel

    broken = cuda_kernel.Elementwise(
        'T x', 'T y', 'y = x + undefined_name', 'check_kernels_broken'
    )
    cuda_kernel._registry.remove(broken)
    try:
        compile_ptx(elementwise_source(broken, {'T': 'float32'}), broken.name)
    except CompileError:
        return
    raise SystemExit(
        'check-kernels: a kernel with an undefined identifier '
        'compiled; the compiler setup cannot be trusted'
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        '--verbose', '-v', action='store_true', help='print each kernel and dtype set'
    )
    args = parser.parse_args(argv)

    import chainerlite
    from chainerlite.backends import cuda_kernel

    package_dir = os.path.dirname(chainerlite.__file__)
    modules, direct = kernel_modules(package_dir)
    if direct:
        raise SystemExit(
            'check-kernels: CuPy kernels made outside '
            'chainerlite.backends.cuda_kernel (so not checked): {}'.format(
                ', '.join(direct)
            )
        )
    check_broken_kernel_fails()
    for module in modules:
        importlib.import_module(module)

    kernels = cuda_kernel.registered()
    names = [k.name for k in kernels]
    twice = sorted({n for n in names if names.count(n) > 1})
    failures = []
    if twice:
        failures.append('kernel names defined twice: {}'.format(twice))
    variants = 0
    for spec in kernels:
        for types in spec.check_types:
            label = '{} {}'.format(spec.name, types)
            try:
                compile_ptx(source_of(spec, types), spec.name)
            except CompileError as e:
                failures.append('{}:\n{}'.format(label, e))
                continue
            variants += 1
            if args.verbose:
                print('compiled', label)
    print(
        'check-kernels: {} kernels from {} modules, {} compiled '
        '(dtype sets), {} failed'.format(
            len(kernels), len(modules), variants, len(failures)
        )
    )
    for failure in failures:
        print('FAILED', failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
