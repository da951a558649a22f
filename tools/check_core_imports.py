"""Fails when the compiled core imports the package above it, or a kernel
imports anything of chainerlite but the kernels.

``chainerlite._core`` (the engine) depends on nothing in ``chainerlite``
outside itself but the kernels (``chainerlite._kernels``, imported or
cimported): what it calls in the package is handed down at import
(``_core/handover.pyx``). ``chainerlite._kernels`` depends on nothing in
``chainerlite`` outside itself, the engine included. This scans the
sources of ``_core/`` and ``_kernels/`` (``.pyx``,
``.pxd``, ``.pxi``, ``.py``; the ``.pyi`` stubs are never run) for imports,
wherever they are (in functions too): ``import``, ``cimport``,
``from ... import``/``cimport``, relative ones, ``__import__('...')``,
``importlib.import_module('...')`` and ``sys.modules['...']``. Cython is not
Python, so the scan is textual: comments and string literals are taken out
first (a string is kept only as the argument of the dynamic forms), and
bracketed or backslash-continued statements are joined.

Any other module ``chainerlite`` or ``chainerlite.*`` is an upward import;
each is printed as ``file:line: text``.

Exit status: 0 when there is none, 1 otherwise.
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUFFIXES = ('.pyx', '.pxd', '.pxi', '.py')
PACKAGE, CORE, KERNELS = 'chainerlite', 'chainerlite._core', 'chainerlite._kernels'
#: folder -> (its package, the packages of chainerlite it may import)
ALLOWED = {'_core': (CORE, (CORE, KERNELS)), '_kernels': (KERNELS, (KERNELS,))}

_NAME = r'[A-Za-z_][\w.]*'
_FROM = re.compile(r'(?:^|[:;])\s*from\s+(\.*)\s*(%s)?\s+c?import\s+(.+)' % _NAME)
_IMPORT = re.compile(r'(?:^|[:;])\s*c?import\s+(.+)')
_DYNAMIC = re.compile(
    r'(?:\b__import__|\bimport_module)\s*\(\s*\x00(\d+)\x00'
    r'|\bsys\.modules\s*(?:\[|\.get\s*\(|\.pop\s*\()\s*\x00(\d+)\x00'
)
_STRING_START = re.compile(r'[rRbBuUfF]{0,2}(\'\'\'|"""|\'|")')


def _statements(text):
    """Yields ``(line, code, strings)`` for each statement of ``text``:
    the code with each string literal replaced by ``\\0N\\0`` (its index in
    ``strings``) and comments removed; bracketed lines joined."""
    code, strings, depth, start, line, i = [], [], 0, 1, 1, 0
    n = len(text)
    while i < n:
        c = text[i]
        m = _STRING_START.match(text, i) if c in '\'"rRbBuUfF' else None
        if m and c not in '\'"' and i and (text[i - 1].isalnum() or text[i - 1] == '_'):
            m = None  # a prefix letter inside a name: `buf'...'` is no prefix
        if m:
            quote = m.group(1)
            j = m.end()
            while j < n and not text.startswith(quote, j):
                if text[j] == '\\':
                    j += 1
                elif text[j] == '\n' and len(quote) == 1:
                    break  # an unterminated string ends at the line
                j += 1
            value = text[m.end() : j]
            line += text.count('\n', i, j)
            code.append('\x00%d\x00' % len(strings))
            strings.append(value)
            i = j + len(quote)
            continue
        if c == '#':
            while i < n and text[i] != '\n':
                i += 1
            continue
        if c == '\\' and text.startswith('\n', i + 1):
            line += 1
            i += 2
            code.append(' ')
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth = max(depth - 1, 0)
        if c == '\n':
            line += 1
            if depth == 0:
                yield start, ''.join(code), strings
                code, start = [], line
            else:
                code.append(' ')
        else:
            code.append(c)
        i += 1
    yield start, ''.join(code), strings


def _imported(code, strings):
    """The absolute or relative (leading dots) module names ``code``
    imports."""
    for part in code.split(';'):
        m = _FROM.search(part)
        if m:
            dots, module, names = m.group(1), m.group(2) or '', m.group(3)
            base = dots + module
            if module not in ('', PACKAGE):
                yield base
                continue
            # `from chainerlite import x` (or `from .. import x`) imports
            # the module chainerlite.x, when x is one
            for name in names.strip('() ').split(','):
                words = name.split()
                if words and words[0] != '*':
                    yield base + ('.' if module else '') + words[0]
                else:
                    yield base
            continue
        m = _IMPORT.search(part)
        if m:
            for name in m.group(1).split(','):
                if name.split():
                    yield name.split()[0]
    for m in _DYNAMIC.finditer(code):
        yield strings[int(m.group(1) or m.group(2))]


def _upward(module, allowed=(CORE,)):
    """Whether ``module`` (as written in the sources of ``allowed[0]``) is
    in the package but outside the packages ``allowed``. One leading dot is
    that package itself, two the package above."""
    dots = len(module) - len(module.lstrip('.'))
    if dots:
        if dots == 1:
            return False
        module = PACKAGE + '.' + module[dots:] if module[dots:] else PACKAGE
    if module != PACKAGE and not module.startswith(PACKAGE + '.'):
        return False
    return not any(module == a or module.startswith(a + '.') for a in allowed)


def upward_imports(path, allowed=(CORE, KERNELS)):
    """``(line, statement)`` of each upward import in the file ``path``,
    whose package may import ``allowed``."""
    found = []
    text = pathlib.Path(path).read_text()
    lines = text.splitlines()
    for line, code, strings in _statements(text):
        if any(_upward(m, allowed) for m in _imported(code, strings)):
            found.append((line, lines[line - 1].strip()))
    return found


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument(
        'folders',
        nargs='*',
        default=[str(ROOT / name) for name in ALLOWED],
        help='folders of compiled sources, each named _core or _kernels '
        '(default: both)',
    )
    args = p.parse_args(argv)
    bad, files = [], []
    for folder in map(pathlib.Path, args.folders):
        found = sorted(f for f in folder.iterdir() if f.suffix in SUFFIXES)
        if folder.name not in ALLOWED or not found:
            print(
                'check_core_imports: no core sources in %s (_core or _kernels)' % folder
            )
            return 1
        allowed = ALLOWED[folder.name][1]
        bad += [(f, line, s) for f in found for line, s in upward_imports(f, allowed)]
        files += found
    for f, line, statement in bad:
        print('%s:%d: %s' % (f, line, statement))
    if bad:
        print(
            'check_core_imports: %d import(s) of chainerlite from its core or '
            'kernels; hand the object down instead (_core/handover.pyx)' % len(bad)
        )
        return 1
    print(
        'check_core_imports: %d core and kernel sources, no upward import' % len(files)
    )
    return 0


if __name__ == '__main__':
    sys.exit(main())
