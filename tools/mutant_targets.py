"""What ``tools/mutants.py`` mutates, and which tests judge each mutant."""

import dataclasses
import importlib
import pathlib
import pkgutil
import re
import sys

import chainerlite.functions
from chainerlite import function_node
from tools import mutant_plugin

PACKAGE = 'chainerlite.functions'
CORE = 'chainerlite._core.'
# Test folders searched for files naming a class (kept narrow: a class name
# such as ``Sum`` or ``Exp`` also appears in hook and example tests).
NAME_SEARCH = ('functions_tests', 'links_tests')


@dataclasses.dataclass(frozen=True)
class Target:
    """A Python node class and the derivative methods it defines itself."""

    module: str
    cls: str
    methods: tuple


def _import_functions():
    modules = [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(chainerlite.functions.__path__, PACKAGE + '.')
    ]
    return [chainerlite.functions] + modules


def _node_classes(module):
    for obj in vars(module).values():
        if (
            isinstance(obj, type)
            and issubclass(obj, function_node.FunctionNode)
            and obj is not function_node.FunctionNode
        ):
            yield obj


def targets():
    """Every FunctionNode subclass defined in Python under ``chainerlite.functions``.

    Returns:
        list of Target: Sorted by module and class; a class that defines
        none of :func:`tools.mutant_plugin.methods_of` has empty ``methods``
        (what it inherits is mutated on the class defining it).
    """
    found = []
    for module in _import_functions():
        for cls in _node_classes(module):
            if cls.__module__ == module.__name__:
                methods = mutant_plugin.methods_of(cls)
                found.append(Target(module.__name__, cls.__name__, methods))
    return sorted(found, key=lambda t: (t.module, t.cls))


def compiled_nodes():
    """Names of the public node classes compiled in ``chainerlite._core``."""
    _import_functions()
    names = set()
    for name, module in list(sys.modules.items()):
        if name.startswith(CORE) and module is not None:
            names.update(
                '%s.%s' % (name, cls.__name__)
                for cls in _node_classes(module)
                if cls.__module__ == name and not cls.__name__.startswith('_')
            )
    return sorted(names)


def _subclasses(cls):
    """``cls`` and every class deriving from it."""
    found = [cls]
    for sub in cls.__subclasses__():
        found.extend(_subclasses(sub))
    return found


class TestFinder:
    """Maps a node class to the test files that exercise it.

    The files are the mirror of the class's module
    (``chainerlite/functions/math/sum.py`` ->
    ``tests/chainerlite_tests/functions_tests/math_tests/test_sum.py``), the
    mirrors of the modules of its subclasses (which inherit its backward),
    the mirrors of the functions modules importing it when the module is
    private or has no mirror, and the function and link tests naming the
    class.

    Args:
        root (pathlib.Path): Repository root (holding ``tests/``).
    """

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self._tests = {
            p: p.read_text() for p in sorted((self.root / 'tests').rglob('test_*.py'))
        }
        self._naming = [
            p
            for p in self._tests
            if set(NAME_SEARCH) & set(p.relative_to(self.root).parts)
        ]
        self._sources = {
            m.__name__: pathlib.Path(m.__file__).read_text()
            for m in _import_functions()
        }

    def mirror(self, module):
        """The test file mirroring ``module``, or None when there is none."""
        parts = module.split('.')
        path = self.root.joinpath(
            'tests', *(p + '_tests' for p in parts[:-1]), 'test_%s.py' % parts[-1]
        )
        return path if path in self._tests else None

    def _importers(self, module):
        pattern = re.compile(
            r'^(from|import) .*\b%s\b' % re.escape(module.rsplit('.', 1)[-1]),
            re.MULTILINE,
        )
        return [
            name
            for name, text in self._sources.items()
            if name != module and pattern.search(text)
        ]

    def files(self, module, cls):
        """Sorted test files (relative to the root) for ``module.cls``."""
        found = {
            self.mirror(sub.__module__)
            for sub in _subclasses(getattr(importlib.import_module(module), cls))
        }
        if self.mirror(module) is None or module.rsplit('.', 1)[-1].startswith('_'):
            for importer in [module] + self._importers(module):
                mirror = self.mirror(importer)
                found.add(mirror)
                if mirror is None:
                    # tests grouped in one file (test_error_functions.py for
                    # erfc, erfcx, ...) name the function the module defines
                    found.update(self._naming_word(importer.rsplit('.', 1)[-1]))
        found.update(self._naming_word(cls))
        found.discard(None)
        return sorted(str(p.relative_to(self.root)) for p in found)

    def _naming_word(self, word):
        if word.startswith('_') or word in ('functions', 'links'):
            return []
        pattern = re.compile(r'\b%s\b' % re.escape(word))
        return [p for p in self._naming if pattern.search(self._tests[p])]
