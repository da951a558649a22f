"""``python -m tools.downstream``: libraries built on Chainer, on both sides.

    python -m tools.downstream [--work build/downstream]
        [--only chainercv|chainercv2|chainer-chemistry|chainerrl] [--models M1,M2]
        [--dtype float64|float32] [--tree CHECKOUT] [--chainercv-markers EXPR]
        [--floor tools/downstream/floor.json] [--write-floor FILE]

Runs in a venv that holds Chainer 7.8.1 and chainerlite (``make downstream``
uses the diff-chainer venv); ``--tree`` loads chainerlite from a checkout
instead of the installed one. Prints per library how many of the tests
that pass on Chainer pass on chainerlite, and per model (agent) whether
chainerlite computes what Chainer does. Exit status 1 when a share falls
below the floor file's (checked for the libraries run in full).
"""

import argparse
import json
import os
import sys

from tools.downstream import chainercv_suite, chemistry, model_zoo, rl_agents, score

HERE = os.path.dirname(os.path.abspath(__file__))
FLOOR = os.path.join(HERE, 'floor.json')
LIBRARIES = ('chainercv', 'chainercv2', 'chainer-chemistry', 'chainerrl')


def _share(label, kept, total, what):
    percent = 100.0 * kept / max(1, total)
    print('%s: %d of %d %s (%.2f%%)' % (label, kept, total, what, percent))


def _compared(label, records, what, known):
    """Prints and returns ``[agreeing, run on Chainer]``.

    A model in ``known`` (name: reason) that differs counts as agreeing:
    Chainer is what is wrong there (docs/differences.rst).
    """
    ran = [r for r in records.values() if r['chainer']['ok']]
    agree = sum(1 for r in ran if r['agrees'])
    explained = [r['name'] for r in ran if not r['agrees'] and r['name'] in known]
    what += ' that run on Chainer agree on chainerlite'
    _share(label, agree + len(explained), len(ran), what)
    for name in explained:
        print('  %s differs for a known reason: %s' % (name, known[name]))
    return [agree + len(explained), len(ran)]


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m tools.downstream')
    parser.add_argument('--work', default='build/downstream')
    parser.add_argument('--only', choices=LIBRARIES)
    parser.add_argument('--models', help='comma-separated models or agents')
    parser.add_argument('--dtype', choices=('float64', 'float32'), default='float64')
    parser.add_argument('--tree', help='load chainerlite from this checkout')
    parser.add_argument(
        '--chainercv-markers',
        default=chainercv_suite.MARKERS,
        help='pytest -m expression of the ChainerCV tests to run',
    )
    parser.add_argument('--floor', default=FLOOR)
    parser.add_argument('--write-floor')
    args = parser.parse_args(argv)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    tree = os.path.abspath(args.tree) if args.tree else None
    names = args.models.split(',') if args.models else None
    wanted = [args.only] if args.only else LIBRARIES
    with open(os.path.join(HERE, 'known.json')) as f:
        known = json.load(f)
    results = {}
    if 'chainercv' in wanted:
        suite = chainercv_suite.run(work, tree, args.chainercv_markers)
        what = 'tests that pass on Chainer pass on chainerlite'
        _share('chainercv', suite['passed'], suite['total'], what)
        print('  %d pass on chainerlite only' % suite['gained'])
        for test_id, outcome in suite['lost']:
            print('  lost: %s (%s)' % (test_id, outcome))
        results['chainercv'] = [suite['passed'], suite['total']]
    logged = lambda line: print('  ' + line, flush=True)  # noqa: E731
    if 'chainercv2' in wanted:
        records = model_zoo.run(work, names, args.dtype, tree, log=logged)
        label = 'chainercv2-' + args.dtype
        results[label] = _compared(
            label, records, 'models', known.get('chainercv2', {})
        )
    if 'chainer-chemistry' in wanted:
        records = chemistry.run(work, names, args.dtype, tree, log=logged)
        label = 'chainer-chemistry-' + args.dtype
        results[label] = _compared(
            label, records, 'models', known.get('chainer-chemistry', {})
        )
    if 'chainerrl' in wanted:
        records = rl_agents.run(work, names, tree, log=logged)
        results['chainerrl'] = _compared(
            'chainerrl', records, 'agents', known.get('chainerrl', {})
        )
    if names or args.chainercv_markers != chainercv_suite.MARKERS:
        # a chosen subset is no measure against the floor
        results = {}
    if args.write_floor:
        with open(args.write_floor, 'w') as f:
            json.dump(results, f, indent=1, sort_keys=True)
            f.write('\n')
    with open(args.floor) as f:
        floor = json.load(f)
    if args.only or not results or args.dtype != 'float64':
        floor = {k: v for k, v in floor.items() if k in results}
    failures = score.below_floor(results, floor)
    for line in failures:
        print('below floor: ' + line)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
