"""Scoring the run: per public name, against the baseline of known differences.

The baseline (``tests/diff_chainer_known.json``) maps a public name to the
aspects in which chainerlite knowingly differs, each to the key of its
reason (``{"reasons": {"retained": "why"}, "known": {"chainer.functions.elu":
{"retained": "retained"}}}``); docs/differences.rst describes each reason.
A name that differs in an aspect the baseline does not list is a regression
and fails the run.
"""

import json


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
    return {
        'names': len(results),
        **counts,
        'cases': cases,
        'cases_agreed': agreed,
        'case_agreement': round(agreed / cases, 4) if cases else None,
    }


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
