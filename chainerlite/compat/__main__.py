"""``python -m chainerlite.compat SCRIPT.py ARGS...``: see :mod:`chainerlite.compat`."""

import os
import runpy
import sys

from chainerlite import compat


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ('-h', '--help'):
        print(
            'usage: python -m chainerlite.compat SCRIPT.py [ARGS...]\n'
            'Runs a program written for Chainer 7.8.1 with chainerlite '
            'answering "import chainer".',
            file=sys.stderr,
        )
        return 2 if not argv else 0
    script = argv[0]
    if not os.path.isfile(script):
        print('chainerlite.compat: no such script: {}'.format(script), file=sys.stderr)
        return 2
    compat.install()
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name='__main__')
    return 0


if __name__ == '__main__':
    sys.exit(main())
