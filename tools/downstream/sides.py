"""Runs one side's script of a comparison in its own process."""

import json
import os
import subprocess
import sys

import numpy

from tools.downstream import score

SIDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'side')


def environment(paths, side, tree=None):
    """The environment of a process for ``side`` with ``paths`` importable."""
    env = dict(os.environ, DOWNSTREAM_SIDE=side)
    extra = [env['PYTHONPATH']] if env.get('PYTHONPATH') else []
    env['PYTHONPATH'] = os.pathsep.join([SIDE_DIR, *paths, *extra])
    if tree:
        env['CHAINERLITE_TREE'] = tree
    return env


def run_side(script, args, paths, side, tree, seconds):
    """Runs ``side/script`` with ``args``; returns the JSON record it printed."""
    cmd = [sys.executable, '-W', 'ignore', os.path.join(SIDE_DIR, script), *args]
    env = environment(paths, side, tree)
    try:
        out = subprocess.run(
            cmd, env=env, capture_output=True, text=True, timeout=seconds
        )
    except subprocess.TimeoutExpired:
        return {'ok': False, 'error': 'timeout after %d s' % seconds}
    lines = [line for line in out.stdout.splitlines() if line.startswith('{')]
    if not lines:
        return {
            'ok': False,
            'error': 'exit %d: %s' % (out.returncode, out.stderr[-500:]),
        }
    return json.loads(lines[-1])


def agreement(record, outdir, tolerance):
    """Adds to ``record`` how the two sides' saved arrays agree.

    ``record['agrees']``: both sides ran, saved the same names, and every
    array is within ``tolerance`` of Chainer's (relative to its largest).
    """
    name = record['name']
    if record['chainer']['ok'] and record['chainerlite']['ok']:
        with numpy.load(os.path.join(outdir, name + '.chainer.npz')) as a:
            with numpy.load(os.path.join(outdir, name + '.chainerlite.npz')) as b:
                record['agreement'] = score.model_agreement(dict(a), dict(b))
    # a large model's arrays take hundreds of megabytes: only the record stays
    for suffix in ('.params.npz', '.init.npz', '.chainer.npz', '.chainerlite.npz'):
        path = os.path.join(outdir, name + suffix)
        if os.path.exists(path):
            os.remove(path)
    found = record.get('agreement')
    record['agrees'] = bool(
        found and not found['missing'] and found['worst'] <= tolerance
    )


def each(names, results, log, compare):
    """``compare(name)`` for each name, logged and kept.

    Each record is appended to the JSON-lines file ``results`` as it comes.
    Returns ``{name: record}`` in order.
    """
    records = {}
    for name in names:
        record = compare(name)
        records[name] = record
        with open(results, 'a') as f:
            f.write(json.dumps(record) + '\n')
        log(describe(record))
    return records


def describe(record):
    """One line for a compared model or agent."""
    name = record['name']
    if not record['chainer']['ok']:
        error = record['chainer'].get('error', '')[:120]
        return '%-28s not run: fails on Chainer (%s)' % (name, error)
    if not record['chainerlite']['ok']:
        error = record['chainerlite'].get('error', '')[:160]
        return '%-28s FAILS on chainerlite: %s' % (name, error)
    found = record['agreement']
    missing = ', missing %s' % found['missing'][:3] if found['missing'] else ''
    return '%-28s %s %s worst %.1e at %s over %d arrays%s' % (
        name,
        record['dtype'],
        'agrees' if record['agrees'] else 'DIFFERS',
        found['worst'],
        found['where'],
        found['count'],
        missing,
    )
