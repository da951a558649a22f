"""What kind of difference a case's first difference from Chainer is.

The report counts each case that disagreed with Chainer once, under the
kind of its first difference (stages run in order and a case stops at the
first stage where a side raised, so the first is the one the rest follow
from): ``'<what> @ <stage>'``, where ``what`` is one of

* ``only Chainer raises <class>`` / ``only chainerlite raises <class>``;
* ``exception type``: both raised, chainerlite's exception is not an
  instance of Chainer's class;
* ``dtype``, ``shape``;
* ``values <= 10x tolerance``, ``values <= 1000x tolerance``, ``values >
  1000x tolerance``: finite entries off by that multiple of the dtype's
  tolerance (``compare.TOLERANCE``); ``values: NaN/inf placement`` where
  only non-finite entries differ; ``values of an exact dtype`` (integers,
  booleans);
* ``warnings``;
* ``other``: structure, keys, reprs, scalars.
"""

import re

_RAISED = re.compile(r'(Chainer|chainerlite) raised (\w+)')
_TIMES = re.compile(r'([0-9.e+]+|inf) x tolerance')
_BANDS = ((10, 'values <= 10x tolerance'), (1000, 'values <= 1000x tolerance'))


def of(aspect, description):
    """The kind of the difference ``description`` of ``aspect`` (a stage
    name, with ``:raises``/``:error-type``/``:reference`` as ``pair``
    marks it)."""
    stage = aspect.split(':')[0]
    return f'{_what(aspect, description)} @ {stage}'


def _what(aspect, description):
    if aspect.endswith(':reference'):
        return 'reference'
    if aspect.endswith(':error-type'):
        return 'exception type'
    raised = _RAISED.search(description)
    if aspect.endswith(':raises') and raised:
        return f'only {raised.group(1)} raises {raised.group(2)}'
    if ': dtype ' in description:
        return 'dtype'
    if ': shape ' in description:
        return 'shape'
    if ': warnings ' in description:
        return 'warnings'
    if 'values differ' in description and 'compared exactly' in description:
        return 'values of an exact dtype'
    times = _TIMES.search(description)
    if 'values differ' in description and times:
        if times.group(1) == 'inf':
            return 'values: NaN/inf placement'
        ratio = float(times.group(1))
        return next(
            (b for limit, b in _BANDS if ratio <= limit), 'values > 1000x tolerance'
        )
    return 'other'


def totals(results):
    """``{kind: cases}`` over all names of a run, most first."""
    out = {}
    for entry in results.values():
        for kind, n in entry.get('kinds', {}).items():
            out[kind] = out.get(kind, 0) + n
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))
