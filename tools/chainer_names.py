"""Lists the names that code written for Chainer 7.8.1 can reach.

Run in a venv with Chainer 7.8.1 (the oracle venv)::

    /work/venv-oracle/bin/python -m tools.chainer_names [--tests DIR] [--out FILE]

It walks Chainer's module tree (every importable ``chainer.*`` module
without a private component) and writes one line per name:

- every public name (not starting with ``_``) that a module offers: its
  submodules, the classes and functions it defines, its plain values
  (numbers, strings, booleans, tuples, None), and for a package (or
  ``chainer`` itself) the Chainer classes, functions and modules it
  re-exports;
- the private names that code outside their module reaches: each
  ``chainer.a.b._name`` and ``from chainer.a.b import _name`` in Chainer's
  own source and, with ``--tests``, in Chainer's test files (the form other
  projects' code and tests take too);
- the public members that each public class defines itself (methods,
  properties, class attributes), once, at the class's first public path
  (inherited ones are listed at their own class).

A line is ``KIND PATH [SIGNATURE]``, where KIND is module, class, function,
value, method, property or attribute, and SIGNATURE, for what can be
called, is written as Python writes parameters, each default as ``=`` and
its value where that is a literal (``=None``, ``=0.5``), ``=?`` otherwise.
``tools/names_check.py`` reads the list back and checks it in chainerlite.
"""

import argparse
import importlib
import inspect
import pathlib
import pkgutil
import re
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / 'tests' / 'tools_tests' / 'data' / 'chainer_names.txt'
_LITERALS = (type(None), bool, int, float, str)
_PRIVATE_REF = re.compile(r'\bchainer((?:\.[A-Za-z]\w*)*)\.(_[A-Za-z]\w*)')
_IMPORT_AS = re.compile(r'^\s*import\s+(chainer(?:\.\w+)*)\s+as\s+(\w+)', re.M)
_FROM_IMPORT = re.compile(
    r'^\s*from\s+chainer((?:\.\w+)*)\s+import\s+\(?([^)#\n]+)', re.M
)


def _literal(value):
    if isinstance(value, tuple):
        return all(_literal(v) for v in value)
    return isinstance(value, _LITERALS) and not (
        isinstance(value, float) and value != value
    )


def signature_text(obj):
    """Returns the parameters of ``obj`` as text, or None if unknown."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    parts = []
    for param in sig.parameters.values():
        text = param.name
        if param.kind is param.VAR_POSITIONAL:
            text = '*' + text
        elif param.kind is param.VAR_KEYWORD:
            text = '**' + text
        elif param.default is not param.empty:
            text += '=' + (repr(param.default) if _literal(param.default) else '?')
        if param.kind is param.KEYWORD_ONLY and not any(
            p.startswith('*') for p in parts
        ):
            parts.append('*')
        parts.append(text)
        if param.kind is param.POSITIONAL_ONLY and (
            len(parts) == len(sig.parameters)
            or _next_kind(sig, param) is not param.POSITIONAL_ONLY
        ):
            parts.append('/')
    return '(%s)' % ', '.join(p.replace(' ', '') for p in parts)


def _next_kind(sig, param):
    params = list(sig.parameters.values())
    i = params.index(param)
    return params[i + 1].kind if i + 1 < len(params) else None


def kind_of(obj):
    """Returns the kind of a module-level object (module/class/function/value)."""
    if inspect.ismodule(obj):
        return 'module'
    if inspect.isclass(obj):
        return 'class'
    if callable(obj):
        return 'function'
    return 'value'


def _offered(module, name, obj):
    # What a module offers: its submodules, the classes and functions it
    # defines, the plain values; a package (and ``chainer`` itself, whose
    # module aliases code reads) also what it imports from Chainer.
    package = hasattr(module, '__path__')
    if inspect.ismodule(obj):
        own = obj.__name__ == '%s.%s' % (module.__name__, name)
        return obj.__name__.startswith('chainer.') and (
            own or module.__name__ == 'chainer'
        )
    if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
        defined = getattr(obj, '__module__', None) or ''
        return defined == module.__name__ or (
            package and defined.split('.')[0] == 'chainer'
        )
    return _literal(obj)


def _modules():
    import chainer

    names = ['chainer']
    for info in pkgutil.walk_packages(
        chainer.__path__, 'chainer.', onerror=lambda name: None
    ):
        if not any(part.startswith('_') for part in info.name.split('.')):
            names.append(info.name)
    modules = {}
    for name in sorted(names):
        try:
            modules[name] = importlib.import_module(name)
        except Exception:  # modules that need CuPy, iDeep, ...
            continue
    return modules


def _member_kind(cls, name):
    raw = vars(cls)[name]
    if isinstance(raw, property):
        return 'property'
    if isinstance(raw, (staticmethod, classmethod)) or inspect.isfunction(raw):
        return 'method'
    return 'attribute'


def _members(path, cls):
    lines = []
    own = [n for n in vars(cls) if not n.startswith('_')]
    for name in sorted(own):
        kind = _member_kind(cls, name)
        if (
            kind == 'attribute'
            and not _literal(getattr(cls, name))
            and not callable(getattr(cls, name))
        ):
            continue
        sig = signature_text(getattr(cls, name)) if kind == 'method' else None
        lines.append(_line(kind, '%s.%s' % (path, name), sig))
    return lines


def _line(kind, path, sig):
    return '%s %s %s' % (kind, path, sig) if sig is not None else '%s %s' % (kind, path)


def _private_refs(folders, modules):
    """Yields (module, name) of the private names reached from outside."""
    for folder in folders:
        for file in sorted(pathlib.Path(folder).rglob('*.py')):
            text = file.read_text(errors='replace')
            for mod, name in _PRIVATE_REF.findall(text):
                yield 'chainer' + mod, name, file
            aliases = {alias: mod for mod, alias in _IMPORT_AS.findall(text)}
            for mod, names in _FROM_IMPORT.findall(text):
                for name in names.replace('\\', ' ').split(','):
                    name, _, alias = (part.strip() for part in name.partition(' as '))
                    if name.startswith('_') and not name.startswith('__'):
                        yield 'chainer' + mod, name, file
                    elif 'chainer%s.%s' % (mod, name) in modules:
                        aliases[alias or name] = 'chainer%s.%s' % (mod, name)
            # module._name, the module bound to a local name by an import
            for alias, module in aliases.items():
                pattern = r'(?<![\w.])%s\.(_[A-Za-z]\w*)' % re.escape(alias)
                for name in re.findall(pattern, text):
                    yield module, name, file


def _reached(folders, modules):
    found = set()
    for mod, name, file in _private_refs(folders, modules):
        module = modules.get(mod)
        if module is None or not hasattr(module, name):
            continue
        defined_in = pathlib.Path(module.__file__)
        if defined_in == file or (
            defined_in.name == '__init__.py' and file.parent == defined_in.parent
        ):
            continue
        found.add((mod, name))
    return found


def collect(test_folders=()):
    """Returns the sorted lines of the names list (needs Chainer)."""
    import chainer

    warnings.simplefilter('ignore')
    modules = _modules()
    lines = set()
    classes = {}
    for mod_name, module in modules.items():
        for name, obj in sorted(vars(module).items()):
            if name.startswith('_') or not _offered(module, name, obj):
                continue
            path = '%s.%s' % (mod_name, name)
            kind = kind_of(obj)
            lines.add(
                _line(
                    kind,
                    path,
                    signature_text(obj) if kind in ('class', 'function') else None,
                )
            )
            if kind == 'class':
                classes.setdefault(obj, path)
    folders = [pathlib.Path(chainer.__file__).parent, *test_folders]
    for mod_name, name in _reached(folders, modules):
        obj = getattr(modules[mod_name], name)
        kind = kind_of(obj)
        if kind == 'module' and not obj.__name__.startswith('chainer'):
            continue
        sig = signature_text(obj) if kind in ('class', 'function') else None
        lines.add(_line(kind, '%s.%s' % (mod_name, name), sig))
    for cls, path in classes.items():
        lines.update(_members(path, cls))
    # Read by code that picks its Chainer 7 path (docs/differences.rst).
    lines.add(_line('value', 'chainer.__version__', None))
    return sorted(lines, key=lambda line: line.split(' ')[1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument(
        '--tests', action='append', default=[], help="a folder of Chainer's tests"
    )
    parser.add_argument('--out', default=str(DEFAULT_OUT))
    args = parser.parse_args(argv)
    lines = collect(args.tests)
    pathlib.Path(args.out).write_text(''.join(line + '\n' for line in lines))
    print('%d names written to %s' % (len(lines), args.out))


if __name__ == '__main__':
    sys.exit(main())
