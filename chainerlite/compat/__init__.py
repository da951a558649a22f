"""Run a program written for Chainer with chainerlite answering ``import chainer``.

``python -m chainerlite.compat SCRIPT.py ARGS...`` runs ``SCRIPT.py`` as
``__main__`` (with ``sys.argv`` set to ``[SCRIPT.py, ARGS...]``) after
:func:`install` has made ``import chainer`` and every ``chainer.X`` give
the matching ``chainerlite`` module (and ``import chainermn`` give
``chainerlite.chainermn``), and ``import chainerx`` give a
stand-in that reports itself unavailable, as Chainer does on a machine
without ChainerX; ``importlib.metadata.version('chainer')`` gives the
Chainer version chainerlite implements. When a real Chainer is installed
too, a line on stderr says which package answers (never silently).
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import pathlib
import re
import sys
import types

_ALIASES = {
    'chainer': 'chainerlite',
    'chainermn': 'chainerlite.chainermn',
    'onnx_chainer': 'chainerlite.onnx',
}


class _AliasLoader(importlib.abc.Loader):
    """Loads an alias by importing its target and reusing the module."""

    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        # The submodules the target has imported get their alias names now:
        # importing an alias submodule later would otherwise rebind the
        # alias package's attribute of that name (onnx_chainer.export, the
        # function) to the submodule.
        prefix = self.target + '.'
        for name, sub in list(sys.modules.items()):
            if name.startswith(prefix):
                sys.modules.setdefault(spec.name + name[len(self.target) :], sub)
        return module

    def exec_module(self, module):
        # the target module was executed when it was imported
        pass


class _ChainerDistribution(importlib.metadata.Distribution):
    """What ``importlib.metadata`` says of ``chainer`` under the alias: the
    Chainer version whose API chainerlite implements (``chainerlite.
    __version__``), so requirement checks that name Chainer
    (``version('chainer')``) see the Chainer 7 they ask for."""

    def read_text(self, filename):
        if filename != 'METADATA':
            return None
        import chainerlite

        return (
            'Metadata-Version: 2.1\nName: chainer\nVersion: {}\n'
            'Summary: chainerlite {} answering for Chainer\n'.format(
                chainerlite.__version__, chainerlite.__chainerlite_version__
            )
        )

    def locate_file(self, path):
        import chainerlite

        return pathlib.Path(chainerlite.__file__).parent / path


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Maps ``chainer`` and ``chainer.X`` to ``chainerlite`` and ``chainerlite.X``
    (and answers ``importlib.metadata`` for ``chainer``)."""

    def find_distributions(
        self, context=importlib.metadata.DistributionFinder.Context()
    ):
        """Yields the ``chainer`` distribution when it is asked for by name."""
        if context.name is not None and _canonical(context.name) == 'chainer':
            yield _ChainerDistribution()

    def find_spec(self, fullname, path=None, target=None):
        head, _, rest = fullname.partition('.')
        base = _ALIASES.get(head)
        if base is None:
            return None
        real = base + ('.' + rest if rest else '')
        if importlib.util.find_spec(real) is None:
            return None  # a missing submodule stays missing
        return importlib.machinery.ModuleSpec(
            fullname, _AliasLoader(real), is_package=True
        )


def _canonical(name):
    return re.sub(r'[-_.]+', '-', name).lower()


def _chainerx_standin():
    module = types.ModuleType(
        'chainerx', 'Stand-in for ChainerX, which chainerlite does not have.'
    )

    def is_available():
        """Always False: ChainerX is not available."""
        return False

    module.is_available = is_available
    return module


def _real_chainer_location():
    """Where a real ``chainer`` package lives, or None."""
    for finder in sys.meta_path:
        if isinstance(finder, _AliasFinder):
            continue
        find = getattr(finder, 'find_spec', None)
        if find is None:
            continue
        spec = find('chainer', None)
        if spec is not None:
            return spec.origin or '(namespace package)'
    return None


def install(stream=None):
    """Makes ``import chainer`` (and ``chainerx``) answer with chainerlite.

    Idempotent. If a real Chainer is installed, says so on ``stream``
    (``sys.stderr`` by default) and names the package that answers.

    Returns:
        str or None: Where the real Chainer lives, if there is one.
    """
    real = _real_chainer_location()
    if real is not None:
        print(
            'chainerlite.compat: a real Chainer is installed at {}; '
            'chainerlite answers "import chainer" in this run'.format(real),
            file=sys.stderr if stream is None else stream,
        )
    if 'chainer' in sys.modules and not sys.modules['chainer'].__name__.startswith(
        'chainerlite'
    ):
        raise RuntimeError(
            'chainerlite.compat.install: the real chainer is already '
            'imported in this process ({}); install the alias before '
            'importing it'.format(sys.modules['chainer'].__file__)
        )
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
    if 'chainerx' not in sys.modules:
        sys.modules['chainerx'] = _chainerx_standin()
    return real
