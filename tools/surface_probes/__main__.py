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


def agree(theirs, ours):
    """Whether chainerlite's result agrees with Chainer's: equal values, or
    an exception that is also of the type Chainer raised."""
    if theirs[0] == 'raise' and ours[0] == 'raise':
        return theirs[1][0] in ours[1]
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
