"""Runner for any public name, whatever its kind: what Python code can see of
it without knowing what it does. A class: its constructor's signature, the
public attributes Chainer's class has, construction without arguments, a
subclass built the same way, and the ``repr`` of what was built. A function:
its signature and a call without arguments where none is required. Any other
object (a constant, the configuration): its value, or its public attributes'
values. Every name gets these cases; the runners for its kind compare what
it does."""

import inspect
import re

from tools.diff_chainer import names
from tools.diff_chainer import pair

# Functions whose call without arguments has effects outside the call.
NOT_CALLED = frozenset(['chainer.print_runtime_info'])
_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')
_MODULE_PATH = re.compile(r'<(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_]\w* )')


def normalized_repr(obj):
    """``repr(obj)`` without object addresses, and without the module path
    of a class in ``<module.Class object>`` (where a class is defined is not
    its API)."""
    return _MODULE_PATH.sub('<', _ADDRESS.sub('', repr(obj)))


def signature(obj):
    """``[(name, kind, default)]`` of the parameters of ``obj`` (a class's
    ``__init__`` without ``self``), defaults in the plain form (callables
    as ``'<callable>'``, other objects by type name); None where Python
    cannot read it."""
    target = obj.__init__ if inspect.isclass(obj) else obj
    if target is object.__init__:
        return []  # takes no arguments
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return None
    if inspect.isclass(obj) and params and params[0].name == 'self':
        params = params[1:]
    out = []
    for p in params:
        if p.default is p.empty:
            default = '<required>'
        elif callable(p.default):
            default = '<callable>'
        elif not _is_data(p.default):
            default = f'<{type(p.default).__name__}>'
        else:
            default = p.default
        out.append((p.name, p.kind.name, default))
    return out


def incompatible(expected, actual):
    """How a call written for Chainer's signature ``expected`` could fail
    or mean something else with ``actual`` (both from ``signature``): a
    parameter missing, positional order, a keyword-only one where Chainer's
    is positional, another default, an extra required one. Empty when every
    call Chainer's accepts binds alike; chainerlite may take more."""
    if expected is None or actual is None:
        return []
    kinds = {kind for _, kind, _ in actual}
    open_ended = {'VAR_POSITIONAL', 'VAR_KEYWORD'} <= kinds
    if {kind for _, kind, _ in expected} <= {'VAR_POSITIONAL', 'VAR_KEYWORD'}:
        return []  # a wrapper: the signature says nothing
    mine = {name: (kind, default) for name, kind, default in actual}
    out = []
    positional = ('POSITIONAL_ONLY', 'POSITIONAL_OR_KEYWORD')
    theirs_pos = [n for n, k, _ in expected if k in positional]
    mine_pos = [n for n, k, _ in actual if k in positional]
    if not open_ended and mine_pos[: len(theirs_pos)] != theirs_pos:
        out.append(f'positional {theirs_pos} vs {mine_pos}')
    for name, kind, default in expected:
        if kind in ('VAR_POSITIONAL', 'VAR_KEYWORD'):
            continue  # Chainer parses these itself, each in its own way
        if name not in mine:
            if not open_ended:
                out.append(f'no {name}')
            continue
        if mine[name][0] == 'KEYWORD_ONLY' and kind in positional:
            out.append(f'{name} keyword-only')
        if mine[name][1] != default and not (
            isinstance(default, str) and default.startswith('<')
        ):
            out.append(f'{name}={mine[name][1]!r} vs {default!r}')
    known = {name for name, _, _ in expected}
    out += [
        f'extra required {name}'
        for name, kind, default in actual
        if name not in known
        and default == '<required>'
        and kind not in ('VAR_POSITIONAL', 'VAR_KEYWORD')
    ]
    return out


def compatible_signature(lib_obj, scratch):
    """Chainer's side stores its signature; chainerlite's says how its own
    is incompatible with it."""
    if 'peer' not in scratch:
        scratch['signature'] = signature(lib_obj)
        return ''
    return '; '.join(incompatible(scratch['peer']['signature'], signature(lib_obj)))


def _is_data(value):
    return value is None or isinstance(value, (bool, int, float, str, tuple, list))


def _required(obj):
    try:
        target = obj.__init__ if inspect.isclass(obj) else obj
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return True
    if inspect.isclass(obj):
        params = params[1:]
    return any(
        p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        for p in params
    )


def _public(obj):
    return sorted(a for a in dir(obj) if not a.startswith('_'))


def attributes(lib_obj, scratch, key):
    """The public attribute names of Chainer's object that ``lib_obj`` lacks
    (none on Chainer's side, which stores its names for chainerlite's)."""
    if 'peer' not in scratch:
        scratch[key] = _public(lib_obj)
        return 'lacks: '
    return 'lacks: ' + ', '.join(
        a for a in scratch['peer'][key] if not hasattr(lib_obj, a)
    )


def _values(obj):
    """The public attributes of a non-callable object that hold plain data."""
    out = {}
    for a in _public(obj):
        try:
            value = getattr(obj, a)
        except Exception as e:  # noqa: BLE001 - what reading raises is compared
            value = f'raises {type(e).__name__}'
        if not callable(value):
            out[a] = value if _is_data(value) else f'<{type(value).__name__}>'
    return out


def stages_for(qualified, obj):
    """The stages of the one case of ``qualified``."""

    def get(lib):
        return names.resolve(lib, qualified)

    stages = [('signature', lambda lib, s: compatible_signature(get(lib), s))]
    if inspect.isclass(obj):
        stages.append(('attributes', lambda lib, s: attributes(get(lib), s, 'attrs')))

        def construct(lib, s):
            s['made'] = get(lib)()
            return s['made']

        def subclass(lib, s):
            sub = type('Sub', (get(lib),), {'extra': 1})
            if _required(obj):  # the class statement alone
                return sub.__name__
            made = sub()
            return (isinstance(made, get(lib)), made.extra)

        if not _required(obj):
            stages.append(('construct', construct))
            stages.append(('repr', lambda lib, s: normalized_repr(s['made'])))
        stages.append(('subclass', subclass))
    elif callable(obj):
        if not _required(obj) and qualified not in NOT_CALLED:
            stages.append(('call', lambda lib, s: get(lib)()))
    else:
        stages.append(('value', lambda lib, s: _value_of(get(lib))))
    return stages


def _value_of(obj):
    if _is_data(obj):
        return obj
    return _values(obj)


def run(qualified, libs, tally, examples, seconds):
    obj = names.resolve(libs[0], qualified)
    pair.run_case(libs, stages_for(qualified, obj), tally, f'{qualified} as an object')
