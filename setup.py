"""Build script: compiles every ``_core/NAME.pyx`` into ``chainerlite._core.NAME``.

Cython resolves ``cimport chainerlite._core.X`` by path, so the ``.pxd`` files
are mirrored into ``build/pxd/chainerlite/_core/`` before cythonizing.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import Cython
import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

ROOT = pathlib.Path(__file__).resolve().parent
CORE = ROOT / '_core'
PXD_ROOT = ROOT / 'build' / 'pxd'

# Bounds checks and negative-index wrapping stay on: the core indexes Python
# tuples that come from user code (inputs, type-check tuples), and without
# the checks Cython reads past the end of a short tuple instead of raising
# IndexError. Their cost is one comparison per indexing.
DIRECTIVES = {
    'language_level': 3,
    'binding': True,
    'embedsignature': True,
    'boundscheck': True,
    'wraparound': True,
    'initializedcheck': False,
    'cdivision': True,
}
if os.environ.get('CHAINERLITE_CYTHON_DEBUG') == '1':
    DIRECTIVES.update(initializedcheck=True, cdivision=False)
MACROS = [('NPY_NO_DEPRECATED_API', 'NPY_1_7_API_VERSION')]
if os.environ.get('CHAINERLITE_CYTHON_TRACE') == '1':
    DIRECTIVES.update(linetrace=True, profile=True)
    MACROS.append(('CYTHON_TRACE', '1'))


# The CPU kernels share the batch among OpenMP threads; without OpenMP (a
# compiler that lacks it) their prange loops compile as plain loops.
OPENMP_MODULES = ('conv_kernels', 'direct_conv', 'lstm_kernels', 'pool_kernels')


# vec_math finds libmvec at run time; before glibc 2.34 dlopen is in libdl.
_DL = {'vec_math': ['-ldl']} if sys.platform.startswith('linux') else {}

# optim_kernels must round every operation as NumPy does: no fused
# multiply-add; and sqrt need not set errno, so that its loop vectorises
# (MSVC neither fuses nor vectorises differently by default).
_STRICT_FP = (
    {}
    if sys.platform == 'win32'
    else {'optim_kernels': ['-ffp-contract=off', '-fno-math-errno']}
)


def _openmp_flags():
    if os.environ.get('CHAINERLITE_NO_OPENMP') == '1':
        return []
    cc = (os.environ.get('CC') or sysconfig.get_config_var('CC') or 'cc').split()
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp) / 'omp.c'
        src.write_text(
            '#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n'
        )
        try:
            subprocess.run(
                cc + ['-fopenmp', str(src), '-o', str(pathlib.Path(tmp) / 'omp')],
                check=True,
                capture_output=True,
            )
        except (OSError, subprocess.CalledProcessError):
            return []
    return ['-fopenmp']


def _mirror_pxd():
    # Files are written only when missing or changed, so that cythonize's
    # timestamp check does not regenerate every module on each build.
    target = PXD_ROOT / 'chainerlite' / '_core'
    target.mkdir(parents=True, exist_ok=True)
    for pkg in (PXD_ROOT / 'chainerlite', target):
        init = pkg / '__init__.pxd'
        if not init.exists():
            init.touch()
    for pxd in CORE.glob('*.pxd'):
        copy = target / pxd.name
        if not copy.exists() or copy.read_bytes() != pxd.read_bytes():
            shutil.copy2(pxd, copy)


def _write_build_info():
    # The Cython that compiled the core, for print_runtime_info; git ignores
    # the file, and the sdist and wheel carry the one their build wrote.
    text = (
        '"""Written by setup.py when it compiles the core."""\n'
        'CYTHON_VERSION = {!r}\n'.format(Cython.__version__)
    )
    path = ROOT / 'chainerlite' / '_build_info.py'
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _extensions():
    _mirror_pxd()
    _write_build_info()
    openmp = _openmp_flags()
    exts = [
        Extension(
            'chainerlite._core.' + pyx.stem,
            [str(pyx.relative_to(ROOT))],
            include_dirs=[numpy.get_include()],
            define_macros=MACROS,
            extra_compile_args=(openmp if pyx.stem in OPENMP_MODULES else [])
            + _STRICT_FP.get(pyx.stem, []),
            extra_link_args=(openmp if pyx.stem in OPENMP_MODULES else [])
            + _DL.get(pyx.stem, []),
            # a C header of the same name holds the module's kernels
            depends=[str(h.relative_to(ROOT)) for h in CORE.glob(pyx.stem + '.h')],
        )
        for pyx in sorted(CORE.glob('*.pyx'))
    ]
    return cythonize(
        exts, compiler_directives=DIRECTIVES, include_path=[str(PXD_ROOT)], quiet=True
    )


setup(
    packages=find_packages(include=['chainerlite', 'chainerlite.*'])
    + ['chainerlite._core'],
    package_dir={'chainerlite._core': '_core'},
    ext_modules=_extensions(),
)
