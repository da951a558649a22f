"""The chainerlite demo: ``python -m chainerlite.examples.demo``.

Runs the digits demo (:mod:`chainerlite.examples.digits`) with its default
options: an MLP and a CNN trained on the UCI handwritten digits, a
TimerHook report, and the memory saved by ``F.forget``. Options given on
the command line are passed on to it.
"""

from chainerlite.examples.digits import main

if __name__ == '__main__':
    main()
