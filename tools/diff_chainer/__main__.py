"""``python -m tools.diff_chainer [--full] [--only SUBSTRING]``: run, write
the report, print the summary, fail on differences the baseline lacks."""

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
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        'summary': report.summary(results),
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
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
