"""Imports this checkout's chainerlite inside another venv (the oracle's).

The oracle venv (/work/venv-oracle: Chainer 7.8.1, NumPy 1.26, h5py) may
hold an installed chainerlite wheel of some earlier day; the tools that
compare Chainer with chainerlite must see the working tree instead. The
compiled core is built in place (``_core/*.so``, NumPy-2 builds that also
load on NumPy 1.26) and installs as ``chainerlite._core``, so a plain
``sys.path`` entry is not enough: a finder placed first on
``sys.meta_path`` maps ``chainerlite`` to ``chainerlite/`` and
``chainerlite._core`` to ``_core/`` and ``chainerlite._kernels`` to
``_kernels/``.
"""

import importlib.abc
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Only the three package roots need mapping: their submodules are found
# through each package's __path__.
_ROOTS = {
    'chainerlite': ROOT / 'chainerlite',
    'chainerlite._core': ROOT / '_core',
    'chainerlite._kernels': ROOT / '_kernels',
}


class _TreeFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        folder = _ROOTS.get(fullname)
        if folder is None:
            return None
        return importlib.util.spec_from_file_location(
            fullname, folder / '__init__.py', submodule_search_locations=[str(folder)]
        )


def use_working_tree():
    """Makes ``import chainerlite`` load this checkout (before any other).

    Raises:
        RuntimeError: If a chainerlite was imported already.

    """
    if 'chainerlite' in sys.modules:
        loaded = pathlib.Path(sys.modules['chainerlite'].__file__).resolve()
        if loaded.parent != ROOT / 'chainerlite':
            raise RuntimeError(
                'use_working_tree: chainerlite from %s is already imported' % loaded
            )
        return
    if not any(isinstance(f, _TreeFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _TreeFinder())
