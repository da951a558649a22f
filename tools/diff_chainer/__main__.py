"""``python -m tools.diff_chainer [--full|--ci] [--only SUBSTRING] [--write-floor]``:
run, write the report, print the summary and the scores, fail on differences
the baseline lacks and on shares below the floor file's.

The default run and ``--full`` bound each name's time, so how many cases a
name gets (and so its shares) moves with the machine's load. ``--ci`` runs
a fixed number of examples per name with no time bound: the same cases every
run of the same code, checked against their own floor file
(``tests/diff_chainer_ci_floor.json``, a tighter margin)."""

import argparse
import json
import pathlib
import sys
import time
import warnings

from tools.diff_chainer import dispatch
from tools.diff_chainer import kinds
from tools.diff_chainer import report

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Examples per name of --ci (about 4 minutes on two shared cores).
CI_EXAMPLES = 16
OUT_NAMES = {'timed': 'report.json', 'ci': 'ci-report.json'}
FLOOR_NAMES = {'timed': 'diff_chainer_floor.json', 'ci': 'diff_chainer_ci_floor.json'}


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m tools.diff_chainer')
    parser.add_argument(
        '--full', action='store_true', help='many more examples per name'
    )
    parser.add_argument(
        '--ci',
        action='store_true',
        help=f'{CI_EXAMPLES} examples per name, no time bound: reproducible shares',
    )
    parser.add_argument('--only', default='', help='names containing this substring')
    parser.add_argument('--examples', type=int, default=None)
    parser.add_argument('--out', default=None)
    parser.add_argument('--known', default=str(ROOT / 'tests/diff_chainer_known.json'))
    parser.add_argument('--floor', default=None)
    parser.add_argument(
        '--write-floor',
        action='store_true',
        help='record this run\'s shares (less a margin) as the floor file',
    )
    args = parser.parse_args(argv)
    if args.ci and args.full:
        parser.error('--ci and --full exclude each other')
    mode = 'ci' if args.ci else 'timed'
    examples = args.examples or (CI_EXAMPLES if args.ci else 600 if args.full else 120)
    seconds = None if args.ci else 20.0 if args.full else 5.0
    args.out = args.out or str(ROOT / 'build/diff-chainer' / OUT_NAMES[mode])
    args.floor = args.floor or str(ROOT / 'tests' / FLOOR_NAMES[mode])

    import numpy

    # Chainer 7.8.1 still names numpy.float (resize_images), which NumPy
    # 1.24 removed: give it back so that Chainer answers as on the NumPy it
    # supported.
    if not hasattr(numpy, 'float'):
        numpy.float = float
    import chainer

    import chainerlite

    warnings.filterwarnings('ignore', category=DeprecationWarning)
    start = time.monotonic()
    results = dispatch.run_all((chainer, chainerlite), args.only, examples, seconds)
    known = report.load_known(args.known)
    failed = report.regressions(results, known)
    floor = report.load_floor(args.floor)
    under = report.below_floor(results, floor, whole_run=not args.only)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        'mode': mode,
        'examples_per_name': examples,
        'summary': report.summary(results),
        'scores': report.scores(results),
        'kinds': kinds.totals(results),
        'below_floor': [list(u) for u in under],
        'seconds': round(time.monotonic() - start, 1),
        'regressions': [list(r) for r in failed],
        'resolved': [list(r) for r in report.resolved(results, known)],
        'names': results,
    }
    out.write_text(json.dumps(doc, indent=1, sort_keys=True, default=str))
    print(json.dumps(doc['summary']), f'in {doc["seconds"]} s; report: {out}')
    if mode != 'ci':  # a slice's few cases per name miss rare differences
        for name, aspect in doc['resolved']:
            print(f'agrees now (remove from the baseline?): {name} {aspect}')
    for name, aspect, example in failed:
        print(f'NEW DIFFERENCE {name} [{aspect}]: {example}')
    _print_scores(doc['scores'])
    print('cases differing from Chainer, by the kind of their first difference:')
    for kind, n in list(doc['kinds'].items())[:12]:
        print(f'  {n:5d}  {kind}')
    for name, got, low in under:
        print(f'BELOW FLOOR {name}: {got} < {low}')
    if args.write_floor:
        pathlib.Path(args.floor).write_text(
            json.dumps(
                report.make_floor(results, floor, not args.only, report.MARGINS[mode]),
                indent=1,
                sort_keys=True,
            )
            + '\n'
        )
        print(f'floor written: {args.floor}')
        return 1 if failed else 0
    return 1 if failed or under else 0


def _print_scores(scores, worst=15):
    for suffix, what in (
        ('', 'with Chainer'),
        (
            '_with_references',
            'with Chainer or, where it gives no answer, the reference',
        ),
    ):
        print(
            f'agreeing cases {what}: {scores["total" + suffix]} '
            f'(goal {scores["total_goal"]}); names at >= {scores["name_goal"]}: '
            f'{scores["names_meeting_goal" + suffix]} of '
            f'{scores["names_scored" + suffix]} scored'
        )
    below = scores['below_goal']
    refs = scores['per_name_with_references']
    print('below the goal with Chainer (share with references in brackets):')
    for row in below[:worst]:
        print(
            f'  {row["share"]:.3f} ({refs[row["name"]]:.3f}) of '
            f'{row["cases"]:5d}  {row["name"]}'
        )
    if len(below) > worst:
        print(f'  ... {len(below) - worst} more below the goal')


if __name__ == '__main__':
    sys.exit(main())
