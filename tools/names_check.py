"""Checks that the names Chainer 7.8.1 offers resolve in chainerlite.

Reads the list ``tools/chainer_names.py`` writes (``KIND PATH [SIGNATURE]``
lines), maps ``chainer`` to ``chainerlite`` in each path and checks that
the name resolves there, is of the same kind (a module is a module, a class
a class; a function may be any callable but a class's member method must be
callable; a property or attribute may be either) and, where both signatures
can be read, that a call written for Chainer binds in chainerlite:

- each positional parameter of Chainer's has chainerlite's parameter of the
  same name at the same place (or chainerlite takes ``*args`` there);
- each keyword Chainer accepts, chainerlite accepts (by name or ``**``);
- chainerlite requires nothing that Chainer does not require;
- a literal default is the same value.

Run ``python -m tools.names_check [LIST]`` to print every failure and a
summary (``--prune`` also removes the known-missing entries that resolve
now); ``problems()`` gives them to the test. A new failure goes into
``chainer_names_missing.txt`` by hand, under its reason.
"""

import argparse
import fnmatch
import importlib
import inspect
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / 'tests' / 'tools_tests' / 'data'
NAMES = DATA / 'chainer_names.txt'
KNOWN_MISSING = DATA / 'chainer_names_missing.txt'
# The methods of a node the engine calls, always with positional arguments.
ENGINE_CALLED = frozenset(
    [
        'forward',
        'forward_cpu',
        'forward_gpu',
        'backward',
        'backward_cpu',
        'backward_gpu',
    ]
    + [
        'backward_accumulate',
        'check_type_forward',
        'update_core_cpu',
        'update_core_gpu',
    ]
)


def read_list(path=NAMES):
    """Returns (kind, path, signature or None) per line of the names list."""
    entries = []
    for line in pathlib.Path(path).read_text().splitlines():
        kind, _, rest = line.partition(' ')
        name, _, sig = rest.partition(' ')
        entries.append((kind, name, sig or None))
    return entries


def read_known_missing(path=KNOWN_MISSING):
    """Returns {path or glob: reason} of the names chainerlite knowingly
    lacks or offers differently. In the file, a ``[reason]`` line gives the
    reason of the paths (``fnmatch`` patterns) listed under it."""
    known, reason = {}, None
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.strip()
        if line.startswith('[') and line.endswith(']'):
            reason = line[1:-1]
        elif line and not line.startswith('#'):
            if reason is None:
                raise ValueError(
                    'read_known_missing: %s comes before any [reason]' % line
                )
            known[line] = reason
    return known


def known_reason(path, known):
    """Returns the reason of the first pattern of ``known`` that matches."""
    for pattern, reason in known.items():
        if fnmatch.fnmatchcase(path, pattern):
            return reason
    return None


def parse_signature(text):
    """Parses ``(a, b=1, *args, c=?, **kw)`` into a list of
    (name, kind, default) where default is absent, ``'?'`` or a repr."""
    params = []
    body = text.strip()[1:-1]
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    for part in _split(body):
        if part == '/':
            params = [(n, inspect.Parameter.POSITIONAL_ONLY, d) for n, _, d in params]
        elif part == '*':
            kind = inspect.Parameter.KEYWORD_ONLY
        elif part.startswith('**'):
            params.append((part[2:], inspect.Parameter.VAR_KEYWORD, None))
        elif part.startswith('*'):
            params.append((part[1:], inspect.Parameter.VAR_POSITIONAL, None))
            kind = inspect.Parameter.KEYWORD_ONLY
        else:
            name, eq, default = part.partition('=')
            params.append((name, kind, default if eq else None))
    return params


def _split(body):
    # Splits on the commas outside brackets and quotes (tuple defaults).
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(body):
        if quote:
            quote = None if ch == quote else quote
        elif ch in '\'"':
            quote = ch
        elif ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        elif ch == ',' and depth == 0:
            parts.append(body[start:i].strip())
            start = i + 1
    if body[start:].strip():
        parts.append(body[start:].strip())
    return parts


def signature_problem(chainer_sig, ours, by_position=False):
    """Returns why a call written for ``chainer_sig`` (text) fails to bind
    to ``ours`` (text), or None when every such call binds. With
    ``by_position``, the callers pass the positional parameters by place
    alone, so their names may differ."""
    theirs, mine = parse_signature(chainer_sig), parse_signature(ours)
    P = inspect.Parameter
    if [p[1] for p in theirs] == [P.VAR_POSITIONAL, P.VAR_KEYWORD]:
        return None  # a pass-through wrapper: what it takes is elsewhere
    positional = [
        p for p in mine if p[1] in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
    ]
    var_pos = any(p[1] is P.VAR_POSITIONAL for p in mine)
    var_kw = any(p[1] is P.VAR_KEYWORD for p in mine)
    by_name = {
        p[0]: p for p in mine if p[1] in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)
    }
    required = {
        p[0]
        for p in theirs
        if p[2] is None and p[1] not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
    }
    i = 0
    for name, kind, default in theirs:
        # (the ``self`` of a function that Chainer installs as a method
        # is passed by place)
        by_place = by_position or name == 'self'
        if kind is P.VAR_POSITIONAL and not var_pos:
            return 'takes no *%s' % name
        if kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD):
            if i < len(positional):
                if (
                    kind is P.POSITIONAL_OR_KEYWORD
                    and positional[i][0] != name
                    and not by_place
                ):
                    return 'parameter %d is %r, not %r' % (i, positional[i][0], name)
            elif not var_pos:
                return 'takes no parameter %r at %d' % (name, i)
            i += 1
        keyword = kind is P.KEYWORD_ONLY or (
            kind is P.POSITIONAL_OR_KEYWORD and not by_place
        )
        if keyword and name not in by_name and not var_kw:
            return 'takes no keyword %r' % name
        mine_p = by_name.get(name)
        if mine_p and default is not None and mine_p[2] is None:
            return 'requires %r' % name
        if mine_p and default not in (None, '?') and mine_p[2] not in ('?', default):
            return 'default of %r is %s, not %s' % (name, mine_p[2], default)
    their_places = [
        p for p in theirs if p[1] in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
    ]
    for j, (name, kind, default) in enumerate(mine):
        if (
            default is not None
            or kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
            or name in required
        ):
            continue
        # a required parameter Chainer's callers pass by place, required
        # there too
        place = their_places[j] if j < len(their_places) else None
        by_place = (
            by_position or kind is P.POSITIONAL_ONLY or (place and place[0] == 'self')
        )
        if not (by_place and place and place[2] is None):
            return 'requires %r' % name
    return None


def resolve(path):
    """Returns the object at a chainerlite dotted path (AttributeError or
    ImportError when it is not there).

    A path is read as code reads it: attribute by attribute from the
    package (``chainerlite.utils.experimental`` is a function, whose module
    has the same name), or else as ``from MODULE import NAME`` does, from
    the longest prefix that is a module
    (``chainerlite.utils.experimental.experimental``).
    """
    try:
        return _by_attributes(path)
    except (AttributeError, ImportError):
        return _from_module(path)


def _by_attributes(path):
    parts = path.split('.')
    obj = importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], 2):
        if hasattr(obj, part):
            obj = getattr(obj, part)
        elif inspect.ismodule(obj):
            obj = importlib.import_module('.'.join(parts[:i]))
        else:
            raise AttributeError(path)
    return obj


def _from_module(path):
    parts = path.split('.')
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module('.'.join(parts[:i]))
        except ImportError:
            if i == 1:
                raise
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


def _our_path(path):
    return 'chainerlite' + path[len('chainer') :]


def _kind_problem(kind, obj):
    from tools.chainer_names import kind_of

    if kind in ('property', 'attribute'):
        return None
    if kind == 'method':
        return None if callable(obj) else 'not callable'
    ours = kind_of(obj)
    if kind == 'function' and ours in ('function', 'class'):
        return None
    return None if ours == kind else 'is a %s, not a %s' % (ours, kind)


def _set_on_instances(path):
    # Whether a class's own code sets the attribute on its instances
    # (``self.NAME =``), where Chainer declares it on the class: read on an
    # instance, as code does, it is there.
    owner, _, name = path.rpartition('.')
    try:
        cls = resolve(owner)
    except (ImportError, AttributeError):
        return False
    if not inspect.isclass(cls):
        return False
    assignment = re.compile(r'\bself\.%s\s*=[^=]' % re.escape(name))
    for klass in cls.__mro__:
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if assignment.search(source):
            return True
    return False


def check(entry):
    """Returns why one (kind, path, signature) entry fails, or None."""
    from tools.chainer_names import signature_text

    kind, path, sig = entry
    try:
        obj = resolve(_our_path(path))
    except (ImportError, AttributeError):
        if kind in ('property', 'attribute') and _set_on_instances(_our_path(path)):
            return None
        return 'missing'
    problem = _kind_problem(kind, obj)
    if problem is None and sig is not None:
        ours = signature_text(obj)
        if ours is not None:
            by_position = path.rpartition('.')[2] in ENGINE_CALLED
            problem = signature_problem(sig, ours, by_position)
    return problem


def problems(entries=None):
    """Returns {path: reason} of every entry that fails."""
    entries = read_list() if entries is None else entries
    found = {}
    for entry in entries:
        reason = check(entry)
        if reason is not None:
            found[entry[1]] = reason
    return found


def prune(found, path=KNOWN_MISSING):
    """Removes from the known-missing file the entries that match no name
    of ``found`` (fixed since); returns them."""
    stale = [
        p
        for p in read_known_missing(path)
        if not any(fnmatch.fnmatchcase(f, p) for f in found)
    ]
    lines = pathlib.Path(path).read_text().splitlines()
    kept = [line for line in lines if line.strip() not in stale]
    pathlib.Path(path).write_text('\n'.join(kept) + '\n')
    return stale


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('names', nargs='?', default=str(NAMES), help='the names list')
    parser.add_argument(
        '--prune',
        action='store_true',
        help='remove the known-missing entries that now resolve',
    )
    args = parser.parse_args(argv)
    entries = read_list(args.names)
    found = problems(entries)
    if args.prune:
        for path in prune(found):
            print('pruned %s' % path)
    known = read_known_missing()
    unknown = [p for p in found if known_reason(p, known) is None]
    for path, reason in sorted(found.items()):
        print('%s %s%s' % (path, reason, '' if path in unknown else '  [known]'))
    print(
        '%d names, %d resolve, %d fail (%d of them known)'
        % (
            len(entries),
            len(entries) - len(found),
            len(found),
            len(found) - len(unknown),
        )
    )
    return 1 if unknown else 0


if __name__ == '__main__':
    sys.exit(main())
