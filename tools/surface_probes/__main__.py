"""Runs the probes on Chainer 7.8.1 and chainerlite and compares them.

``python -m tools.surface_probes`` from a directory where ``chainer`` and
``chainerlite`` both import (``make diff-surface``). Exits 1 when a probe
differs and ``known.json`` does not list it, or lists a probe that agrees.
"""

import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def results(library):
    """The probes' results on ``library``, run in a child process: the
    installed chainerlite, since the checkout is only appended to the path
    (for ``tools``)."""
    code = (
        'import sys; sys.path.append(%r); '
        'from tools.surface_probes import child; child.main(%r)'
    )
    done = subprocess.run(
        [sys.executable, '-c', code % (str(ROOT), library)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(done.stdout)


def _raised(value):
    """The exception classes' names of a raise record, else None: a probe's
    result ``['raise', mro]`` or an entry ``['raise', name, mro]``."""
    if not (isinstance(value, list) and value and value[0] == 'raise'):
        return None
    mro = value[-1]
    if (
        len(value) in (2, 3)
        and isinstance(mro, list)
        and all(isinstance(n, str) for n in mro)
    ):
        return mro
    return None


def agree(theirs, ours):
    """Whether chainerlite's result agrees with Chainer's: equal values, or
    an exception that is also of the type Chainer raised (also inside a
    result)."""
    raised, ours_raised = _raised(theirs), _raised(ours)
    if raised and ours_raised:
        return raised[0] in ours_raised
    if isinstance(theirs, list) and isinstance(ours, list):
        return len(theirs) == len(ours) and all(map(agree, theirs, ours))
    if isinstance(theirs, dict) and isinstance(ours, dict):
        return theirs.keys() == ours.keys() and all(
            agree(theirs[k], ours[k]) for k in theirs
        )
    return theirs == ours


def differences(theirs, ours):
    return sorted(k for k in theirs if k not in ours or not agree(theirs[k], ours[k]))


def main():
    theirs, ours = results('chainer'), results('chainerlite')
    known = json.loads((HERE / 'known.json').read_text())
    found = differences(theirs, ours)
    new = [k for k in found if k not in known]
    stale = [k for k in known if k not in found]
    for k in new:
        print(
            'DIFFERS %s\n  chainer:     %s\n  chainerlite: %s'
            % (k, json.dumps(theirs.get(k))[:400], json.dumps(ours.get(k))[:400])
        )
    for k in stale:
        print('AGREES but listed in known.json: %s' % k)
    print(
        'surface probes: %d of %d agree with Chainer 7.8.1 (%d known differences)'
        % (len(theirs) - len(found), len(theirs), len(found) - len(new))
    )
    return 1 if new or stale else 0


if __name__ == '__main__':
    sys.exit(main())
