"""Runs the probe on both libraries, reports and scores it.

``python -m tools.onnx_probe [--tree] [--only a,b] [--out report.json]``
from a directory where ``chainer`` (with ``onnx_chainer``), ``chainerlite``,
``onnx`` and ``onnxruntime`` import (``make onnx-probe``; ``--tree``: the
checkout's chainerlite in the oracle venv). Each call at each opset
(float32, float16 and float64 inputs) is exported by both libraries, only
Chainer, only chainerlite or neither, and
each file that runs agrees with its library's forward or not. Exits 1 when
a call is exported by Chainer only, or chainerlite's file disagrees with its
forward, and ``known.json`` does not list it, or lists it and it is fixed.
"""

import argparse
import collections
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
KINDS = ('both', 'only_chainer', 'only_chainerlite', 'neither')


def _start(library, tree, only):
    code = (
        'import sys; sys.path.append(%r); '
        'from tools.onnx_probe import child; child.main(%r)'
    )
    argv = [library] + (['--tree'] if tree else []) + (['--only', only] if only else [])
    return subprocess.Popen(
        [sys.executable, '-c', code % (str(ROOT), argv)],
        stdout=subprocess.PIPE,
        text=True,
    )


def _records(process):
    out, _ = process.communicate(timeout=600)
    if process.returncode:
        raise RuntimeError('onnx_probe: a child exited with %d' % process.returncode)
    return json.loads(out)


def _runs(record):
    return record.get('run') == 'ok'


def kind(theirs, ours):
    """Which of the two libraries' files run in ONNX Runtime."""
    return KINDS[(not _runs(theirs)) * 2 + (not _runs(ours))]


def _function(key):
    return key.split('/')[0]


def summary(chainer, chainerlite):
    """Counts by kind, of calls and of functions (a function is exported
    where one of its calls is), per opset and dtype (``'9@float32'``); and
    the calls whose files disagree with their library's forward."""
    calls = collections.defaultdict(collections.Counter)
    exported = collections.defaultdict(lambda: [False, False])
    disagree = {'chainer': [], 'chainerlite': []}
    for key in sorted(chainer):
        theirs, ours = chainer[key], chainerlite[key]
        call, group = key.split('@', 1)
        calls[group][kind(theirs, ours)] += 1
        seen = exported[_function(call), group]
        seen[0] |= _runs(theirs)
        seen[1] |= _runs(ours)
        for name, record in (('chainer', theirs), ('chainerlite', ours)):
            if record.get('agree') is False:
                disagree[name].append(key)
    functions = collections.defaultdict(collections.Counter)
    for (_, group), (theirs, ours) in exported.items():
        functions[group][KINDS[(not theirs) * 2 + (not ours)]] += 1
    return calls, functions, disagree


def extra_ops(chainer, chainerlite):
    """``{call: operator types}`` of the calls both export where
    chainerlite's file has types Chainer's lacks (not scored: the same
    values by other operators)."""
    out = {}
    for key, theirs in chainer.items():
        ours = chainerlite[key]
        if _runs(theirs) and _runs(ours):
            more = sorted(set(ours['ops']) - set(theirs['ops']))
            if more:
                out[key] = more
    return out


def unexpected(chainer, chainerlite, known):
    """The problems ``known`` does not list, and its entries that no longer
    hold."""
    only_chainer = {
        key for key in chainer if kind(chainer[key], chainerlite[key]) == 'only_chainer'
    }
    disagree = {key for key, r in chainerlite.items() if r.get('agree') is False}
    problems = []
    for label, found, listed in (
        ('only Chainer exports', only_chainer, known['only_chainer']),
        ('chainerlite disagrees with its forward', disagree, known['disagree']),
    ):
        listed = {k for k in listed if k in chainer}
        problems += ['%s: %s' % (label, k) for k in sorted(found - listed)]
        problems += [
            'known.json lists, fixed: %s (%s)' % (k, label)
            for k in sorted(listed - found)
        ]
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--tree', action='store_true')
    parser.add_argument('--only', default='')
    parser.add_argument('--out', default='report.json')
    args = parser.parse_args(argv)
    children = [_start(lib, args.tree, args.only) for lib in ('chainer', 'chainerlite')]
    chainer, chainerlite = (_records(p) for p in children)
    calls, functions, disagree = summary(chainer, chainerlite)
    for group in sorted(calls):
        opset, dtype = group.split('@')
        print(
            'opset %s, %s: calls %s; functions %s'
            % (
                opset,
                dtype,
                ', '.join('%s %d' % (k, calls[group][k]) for k in KINDS),
                ', '.join('%s %d' % (k, functions[group][k]) for k in KINDS),
            )
        )
    for name, keys in disagree.items():
        print(
            '%s\'s file disagrees with its forward: %s'
            % (name, ', '.join(keys) or 'none')
        )
    more = extra_ops(chainer, chainerlite)
    print(
        'calls both export where chainerlite uses operators Chainer does not: '
        '%d (%s)' % (len(more), ', '.join(sorted({_function(k) for k in more})))
    )
    with open(args.out, 'w') as f:
        json.dump(
            {'chainer': chainer, 'chainerlite': chainerlite},
            f,
            indent=1,
            sort_keys=True,
        )
    known = json.loads((HERE / 'known.json').read_text())
    problems = unexpected(chainer, chainerlite, known)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
