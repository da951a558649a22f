"""Scoring of the downstream runs: test ids, suite shares, model agreement, floors."""

import re
import xml.etree.ElementTree as ET

_PARAMS = re.compile(r'(_param_\d+)_\{.*\}', re.DOTALL)


def normalize_test_id(classname, name):
    """A test id that reads the same on Chainer and on chainerlite.

    ``chainer.testing.parameterize`` names a class ``<Class>_param_<i>_{...}``;
    how the braces spell the parameters differs between the two (their
    order; Chainer shortens long values with '...', unbalancing the
    braces), and the index alone identifies the case, so everything from
    the opening brace to the last closing one is dropped. Pytest ids of
    skipped parameterized classes end in a stray ``]``, dropped too.
    """
    text = '%s::%s' % (_PARAMS.sub(r'\1', classname), _PARAMS.sub(r'\1', name))
    if text.endswith(']') and '[' not in text:
        text = text[:-1]
    return text


def junit_outcomes(source):
    """``{test id: 'pass' | 'fail' | 'skip'}`` from a junit xml file or its text.

    A test id met twice with different outcomes counts as failed.
    """
    root = (
        ET.fromstring(source)
        if source.lstrip().startswith('<')
        else ET.parse(source).getroot()
    )
    out = {}
    for case in root.iter('testcase'):
        key = normalize_test_id(case.get('classname', ''), case.get('name', ''))
        state = 'pass'
        for child in case:
            if child.tag in ('failure', 'error'):
                state = 'fail'
                break
            if child.tag == 'skipped':
                state = 'skip'
        if out.get(key, state) != state:
            state = 'fail'
        out[key] = state
    return out


def compare_suites(base, run):
    """How many of the tests that pass on ``base`` (Chainer) pass on ``run``.

    Returns:
        dict: ``passed`` (count kept), ``total`` (passing on base),
        ``lost`` (sorted ids passing on base only, with the run's outcome or
        'missing'), ``gained`` (count passing on the run only).
    """
    passing = [k for k, v in base.items() if v == 'pass']
    lost = sorted((k, run.get(k, 'missing')) for k in passing if run.get(k) != 'pass')
    gained = sum(1 for k, v in run.items() if v == 'pass' and base.get(k) != 'pass')
    return {
        'passed': len(passing) - len(lost),
        'total': len(passing),
        'lost': lost,
        'gained': gained,
    }


def relative_difference(reference, other):
    """max |reference - other| over max |reference| (0 for two empty arrays)."""
    if reference.shape != other.shape:
        return float('inf')
    if reference.size == 0:
        return 0.0
    ref = reference.astype('float64')
    scale = float(abs(ref).max())
    diff = float(abs(ref - other.astype('float64')).max())
    if diff == 0.0:
        return 0.0
    return diff / scale if scale > 0 else float('inf')


def model_agreement(reference, other):
    """Worst relative difference between two dicts of named arrays.

    Returns:
        dict: ``worst`` (float), ``where`` (the name), ``missing`` (names
        in one dict only, sorted), ``count`` (names compared).
    """
    worst, where = 0.0, None
    common = sorted(set(reference) & set(other))
    for key in common:
        rel = relative_difference(reference[key], other[key])
        if where is None or rel > worst:
            worst, where = rel, key
    missing = sorted(set(reference) ^ set(other))
    return {'worst': worst, 'where': where, 'missing': missing, 'count': len(common)}


def below_floor(results, floor):
    """The lines naming each result under its floor (empty when none is).

    ``results`` and ``floor`` map a name to ``[passed, total]``; a result
    is below when it keeps a smaller share than the floor recorded, or
    when the floor names a result that did not run.
    """
    lines = []
    for name, (fpassed, ftotal) in sorted(floor.items()):
        if name not in results:
            lines.append('%s: not run (floor %d of %d)' % (name, fpassed, ftotal))
            continue
        passed, total = results[name]
        if passed * ftotal < fpassed * total or (total == 0 and ftotal > 0):
            lines.append(
                '%s: %d of %d, below the floor %d of %d'
                % (name, passed, total, fpassed, ftotal)
            )
    return lines
