"""Build script: compiles every ``_core/NAME.pyx`` into ``chainerlite._core.NAME``
(the graph engine) and every ``_kernels/NAME.pyx`` into
``chainerlite._kernels.NAME`` (the CPU kernels); a new ``.pyx`` in either
folder is picked up with no edit here.

Cython resolves ``cimport chainerlite._core.X`` by path, so the ``.pxd`` files
are mirrored into ``build/pxd/chainerlite/<package>/`` before cythonizing. A
kernel has no hand-written ``.pxd``: the one that lets other modules cimport
its public ``cdef`` functions is written there from its ``.pyx``
(:func:`_kernel_pxd`). A kernel asks for build options on a line
``# build: OPTION ...`` at the top of its ``.pyx`` (:func:`_build_options`).
The dependencies depend on the platform the wheel is built for
(:func:`_dependencies`).
"""

import os
import pathlib
import platform
import re
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
KERNELS = ROOT / '_kernels'
#: package name -> source folder
PACKAGES = {'chainerlite._core': CORE, 'chainerlite._kernels': KERNELS}
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


def _build_options(openmp):
    """What each option a kernel may ask for adds: (compile args, link
    args). The kernel's ``.pyx`` says why it needs one."""
    return {
        # OpenMP threads for prange loops (plain loops without OpenMP)
        'openmp': (openmp, openmp),
        # every operation rounded as written: no fused multiply-add, and a
        # sqrt that need not set errno (so that its loop vectorises); MSVC
        # neither fuses nor vectorises differently by default
        'strict-fp': (
            [] if sys.platform == 'win32' else ['-ffp-contract=off', '-fno-math-errno'],
            [],
        ),
        # dlopen, in libdl before glibc 2.34
        'libdl': ([], ['-ldl'] if sys.platform.startswith('linux') else []),
    }


_BUILD_LINE = re.compile(r'^# build: (.+)$', re.MULTILINE)


def _requested(pyx, options):
    """The build options that ``pyx`` asks for (``# build:`` lines)."""
    names = [n for line in _BUILD_LINE.findall(pyx.read_text()) for n in line.split()]
    unknown = sorted(set(names) - set(options))
    if unknown:
        raise SystemExit('{}: unknown build option(s) {}'.format(pyx, unknown))
    return names


# a top-level cdef function that other modules may cimport: public name, not
# inline; its signature may span lines up to the colon that ends it
_EXPORTED = re.compile(
    r'^cdef (?!(?:inline|class|struct|union|enum|extern|packed|ctypedef|fused)\b)'
    r'([^(=\n]*?\b([A-Za-z]\w*)\s*\([^)]*\)[^:\n]*):\s*$',
    re.MULTILINE,
)


def _kernel_pxd(pyx):
    """The declarations of the public cdef functions of the kernel ``pyx``
    (the ``.pxd`` other modules cimport them by), or None if it has none."""
    decls = [
        'cdef ' + ' '.join(m.group(1).split())
        for m in _EXPORTED.finditer(pyx.read_text())
    ]
    if not decls:
        return None
    head = '# Written by setup.py from _kernels/{}: do not edit.\n'.format(pyx.name)
    if any('cnp.' in d for d in decls):
        head += 'cimport numpy as cnp\n'
    return head + '\n' + '\n'.join(decls) + '\n'


def _write_if_changed(path, data):
    # only when missing or changed, so that cythonize's timestamp check
    # does not regenerate every module on each build
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def _mirror_pxd():
    (PXD_ROOT / 'chainerlite').mkdir(parents=True, exist_ok=True)
    _write_if_changed(PXD_ROOT / 'chainerlite' / '__init__.pxd', b'')
    for package, folder in PACKAGES.items():
        target = PXD_ROOT.joinpath(*package.split('.'))
        target.mkdir(parents=True, exist_ok=True)
        _write_if_changed(target / '__init__.pxd', b'')
        for pxd in folder.glob('*.pxd'):
            _write_if_changed(target / pxd.name, pxd.read_bytes())
    for pyx in KERNELS.glob('*.pyx'):
        text = _kernel_pxd(pyx)
        if text is not None:
            target = PXD_ROOT / 'chainerlite' / '_kernels' / (pyx.stem + '.pxd')
            _write_if_changed(target, text.encode())


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
    options = _build_options(_openmp_flags())
    exts = []
    for package, folder in PACKAGES.items():
        for pyx in sorted(folder.glob('*.pyx')):
            wanted = [options[name] for name in _requested(pyx, options)]
            exts.append(
                Extension(
                    package + '.' + pyx.stem,
                    [str(pyx.relative_to(ROOT))],
                    include_dirs=[numpy.get_include(), str(KERNELS)],
                    define_macros=MACROS,
                    extra_compile_args=[a for c, _ in wanted for a in c],
                    extra_link_args=[a for _, ln in wanted for a in ln],
                    depends=[str(h.relative_to(ROOT)) for h in KERNELS.glob('*.h')],
                )
            )
    return cythonize(
        exts, compiler_directives=DIRECTIVES, include_path=[str(PXD_ROOT)], quiet=True
    )


def _dependencies():
    """NumPy; on glibc Linux x86-64, oneDNN's CPU build with GNU OpenMP too
    (loaded at run time for the convolutions, products and batch
    normalization under ``config.use_ideep``). Its wheels are manylinux
    x86-64 ones alone, and an environment marker cannot tell glibc from
    musl, so the wheel's platform decides: a musllinux wheel (built on
    musl) does without, and keeps chainerlite's own kernels."""
    deps = ['numpy>=1.25']  # numpy.random.get_bit_generator
    if (
        sys.platform == 'linux'
        and platform.machine() == 'x86_64'
        and platform.libc_ver()[0] == 'glibc'
    ):
        deps.append(
            "onednn-cpu-gomp>=2023.2; sys_platform == 'linux' "
            "and platform_machine == 'x86_64'"
        )
    return deps


setup(
    install_requires=_dependencies(),
    packages=find_packages(include=['chainerlite', 'chainerlite.*']) + list(PACKAGES),
    package_dir={name: folder.name for name, folder in PACKAGES.items()},
    ext_modules=_extensions(),
)
