"""``python -m tools.diff_chainer [--full] [--only SUBSTRING] [--write-floor]``:
run, write the report, print the summary and the scores, fail on differences
the baseline lacks and on shares below the floor file's."""

import argparse
import json
import pathlib
import sys
import time
import warnings

from tools.diff_chainer import dispatch
from tools.diff_chainer import report

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m tools.diff_chainer')
    parser.add_argument(
        '--full', action='store_true', help='many more examples per name'
    )
    parser.add_argument('--only', default='', help='names containing this substring')
    parser.add_argument('--examples', type=int, default=None)
    parser.add_argument('--out', default=str(ROOT / 'build/diff-chainer/report.json'))
    parser.add_argument('--known', default=str(ROOT / 'tests/diff_chainer_known.json'))
    parser.add_argument('--floor', default=str(ROOT / 'tests/diff_chainer_floor.json'))
    parser.add_argument(
        '--write-floor',
        action='store_true',
        help='record this run\'s shares (less a margin) as the floor file',
    )
    args = parser.parse_args(argv)
    examples = args.examples or (600 if args.full else 120)
    seconds = 20.0 if args.full else 5.0

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
        'summary': report.summary(results),
        'scores': report.scores(results),
        'below_floor': [list(u) for u in under],
        'seconds': round(time.monotonic() - start, 1),
        'regressions': [list(r) for r in failed],
        'resolved': [list(r) for r in report.resolved(results, known)],
        'names': results,
    }
    out.write_text(json.dumps(doc, indent=1, sort_keys=True, default=str))
    print(json.dumps(doc['summary']), f'in {doc["seconds"]} s; report: {out}')
    for name, aspect in doc['resolved']:
        print(f'agrees now (remove from the baseline?): {name} {aspect}')
    for name, aspect, example in failed:
        print(f'NEW DIFFERENCE {name} [{aspect}]: {example}')
    _print_scores(doc['scores'])
    for name, got, low in under:
        print(f'BELOW FLOOR {name}: {got} < {low}')
    if args.write_floor:
        pathlib.Path(args.floor).write_text(
            json.dumps(
                report.make_floor(results, floor, not args.only),
                indent=1,
                sort_keys=True,
            )
            + '\n'
        )
        print(f'floor written: {args.floor}')
        return 1 if failed else 0
    return 1 if failed or under else 0


def _print_scores(scores, worst=15):
    print(
        f'agreeing cases: {scores["total"]} (goal {scores["total_goal"]}); '
        f'names at >= {scores["name_goal"]}: {scores["names_meeting_goal"]} '
        f'of {scores["names_scored"]} scored'
    )
    for row in scores['below_goal'][:worst]:
        print(f'  {row["share"]:.3f} of {row["cases"]:5d}  {row["name"]}')
    if len(scores['below_goal']) > worst:
        print(f'  ... {len(scores["below_goal"]) - worst} more below the goal')


if __name__ == '__main__':
    sys.exit(main())
