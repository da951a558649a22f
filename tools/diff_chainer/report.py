"""Scoring the run: per public name, against the baseline of known differences.

The baseline (``tests/diff_chainer_known.json``) maps a public name to the
aspects in which chainerlite knowingly differs, each to the key of its
reason (``{"reasons": {"retained": "why"}, "known": {"chainer.functions.elu":
{"retained": "retained"}}}``); docs/differences.rst describes each reason.
A name that differs in an aspect the baseline does not list is a regression
and fails the run.

Each name is scored by the share of its generated cases in which chainerlite
agreed with Chainer in every aspect (issue 28's goals: at least 99% of all
cases, at least 95% for every name), and by the share in which it agreed
with Chainer or, where Chainer gives no answer, with the stated reference
(``references.py``): both are reported; the first is the strict one. The floor file
(``tests/diff_chainer_floor.json``: ``{"total": share, "names": {name:
share}}``) holds the shares to keep; a run that falls below one fails.
"""

import json
import math

NAME_GOAL = 0.95
TOTAL_GOAL = 0.99
# Below the measured share, the floor that --write-floor records: a
# time-bounded run draws fewer cases on a busy machine (a third fewer was
# seen on two shared cores), which moves a share by a few points.
NAME_MARGIN = 0.05
TOTAL_MARGIN = 0.005
# (per name, total) margins of each mode's floor: --ci runs the same cases
# every time, so its margin only absorbs rounding that another CPU or BLAS
# may flip in a case or two.
MARGINS = {'timed': (NAME_MARGIN, TOTAL_MARGIN), 'ci': (0.02, 0.001)}


def status(entry):
    if entry.get('reason'):
        return 'not_covered'
    return 'equal' if not entry['aspects'] else 'different'


def regressions(results, known):
    """``[(name, aspect, example)]`` for differences the baseline lacks."""
    out = []
    for name, entry in sorted(results.items()):
        for aspect in sorted(entry.get('aspects', {})):
            if aspect not in known.get(name, {}):
                out.append((name, aspect, entry['examples'].get(aspect, '')))
    return out


def resolved(results, known):
    """``[(name, aspect)]`` of the baseline that agreed in every case run."""
    return [
        (name, aspect)
        for name, aspects in sorted(known.items())
        for aspect in sorted(aspects)
        if name in results
        and status(results[name]) != 'not_covered'
        and aspect not in results[name]['aspects']
    ]


def summary(results):
    """Counts of names per status and of cases, for the printed summary."""
    counts = {'equal': 0, 'different': 0, 'not_covered': 0}
    for entry in results.values():
        counts[status(entry)] += 1
    cases = sum(e.get('cases', 0) for e in results.values())
    agreed = sum(e.get('agreed', 0) for e in results.values())
    with_references = sum(_agreed_with_references(e) for e in results.values())
    return {
        'names': len(results),
        **counts,
        'cases': cases,
        'cases_agreed': agreed,
        'case_agreement': round(agreed / cases, 4) if cases else None,
        'cases_referenced': sum(e.get('referenced', 0) for e in results.values()),
        'cases_labels_differed': sum(
            e.get('labels_differed', 0) for e in results.values()
        ),
        'cases_agreed_with_references': with_references,
        'case_agreement_with_references': (
            round(with_references / cases, 4) if cases else None
        ),
    }


def _agreed_with_references(entry):
    # an entry of a run before references were scored counts its strict ones
    return entry.get('agreed_with_references', entry.get('agreed', 0))


def share(entry, with_references=False):
    """The share of ``entry``'s cases that agreed (with Chainer, or with
    the references too), None when it ran none."""
    cases = entry.get('cases', 0)
    if not cases:
        return None
    if with_references:
        return _agreed_with_references(entry) / cases
    return entry.get('agreed', 0) / cases


def scores(results):
    """The shares of agreeing cases, per name and over all cases, with the
    names below the per-name goal (worst first) and whether the goals hold;
    the same ``..._with_references`` where references stand in for Chainer."""
    out = {'total_goal': TOTAL_GOAL, 'name_goal': NAME_GOAL}
    cases = sum(e.get('cases', 0) for e in results.values())
    for suffix, refs in (('', False), ('_with_references', True)):
        per_name = {
            n: share(e, refs)
            for n, e in sorted(results.items())
            if share(e, refs) is not None
        }
        if refs:
            agreed = sum(_agreed_with_references(e) for e in results.values())
        else:
            agreed = sum(e.get('agreed', 0) for e in results.values())
        total = agreed / cases if cases else None
        below = sorted((s, n) for n, s in per_name.items() if s < NAME_GOAL)
        out.update(
            {
                'total' + suffix: None if total is None else round(total, 4),
                'total_meets_goal' + suffix: total is not None and total >= TOTAL_GOAL,
                'names_scored' + suffix: len(per_name),
                'names_meeting_goal' + suffix: len(per_name) - len(below),
                'below_goal' + suffix: [
                    {'name': n, 'share': round(s, 4), 'cases': results[n]['cases']}
                    for s, n in below
                ],
                'per_name' + suffix: {n: round(s, 4) for n, s in per_name.items()},
            }
        )
    return out


def below_floor(results, floor, whole_run):
    """``[(name, share, floor)]`` for the names whose share fell below their
    floor, and ``('total', ...)`` or ``('total_with_references', ...)`` when
    ``whole_run`` and that total did.
    A name the floor file lacks is not checked; one that ran no case where
    its floor expects some counts as share 0."""
    out = []
    for name, low in sorted(floor.get('names', {}).items()):
        if name in results:
            got = share(results[name]) or 0.0
            if got < low:
                out.append((name, round(got, 4), low))
    if whole_run:
        measured = scores(results)
        for key in ('total', 'total_with_references'):
            if key in floor and (measured[key] or 0.0) < floor[key]:
                out.append((key, measured[key] or 0.0, floor[key]))
    return out


def make_floor(results, previous, whole_run, margins=(NAME_MARGIN, TOTAL_MARGIN)):
    """The floor file's content after ``results``: each measured share less
    its margin, rounded down to 0.001, replacing the ``previous`` floor's of
    the names run (and its totals, strict and with references, when
    ``whole_run``)."""

    def down(x, margin):
        return max(0.0, math.floor(round((x - margin) * 1000, 6)) / 1000)

    name_margin, total_margin = margins
    measured = scores(results)
    names = dict(previous.get('names', {}))
    names.update({n: down(s, name_margin) for n, s in measured['per_name'].items()})
    out = {'names': names}
    for key in ('total', 'total_with_references'):
        if whole_run:
            out[key] = down(measured[key] or 0.0, total_margin)
        elif key in previous:
            out[key] = previous[key]
    return out


def load_floor(path):
    """The floor file at ``path``, or an empty floor when there is none."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def load_known(path):
    """``{name: {aspect: reason text}}`` of the baseline at ``path``; raises
    ValueError for a reason key that the file does not define."""
    with open(path) as f:
        doc = json.load(f)
    reasons = doc['reasons']
    out = {}
    for name, aspects in doc['known'].items():
        for aspect, key in aspects.items():
            if key not in reasons:
                raise ValueError(f'{path}: {name} [{aspect}]: no reason {key!r}')
            out.setdefault(name, {})[aspect] = reasons[key]
    return out
