"""Abort every rank when one rank dies of an uncaught exception.

Without it, the other ranks of an MPI job wait forever in their next
collective call. :func:`add_hook` replaces ``sys.excepthook`` with one that
prints the traceback headed by the failing rank and then calls
``MPI_Abort`` on ``COMM_WORLD``, so that ``mpiexec`` ends the whole job with
an error status. :func:`chainermn.create_communicator` installs it when the
job has more than one process (set ``CHAINERMN_NO_ABORT_ON_EXCEPTION=1`` to
keep the plain hook).
"""

import os
import sys
import traceback

from chainerlite.chainermn import _mpi

_previous_hook = None


def _abort_all_ranks(exc_type, exc_value, exc_traceback):
    comm = _mpi.world()
    lines = traceback.format_exception(exc_type, exc_value, exc_traceback)
    sys.stderr.write(
        'chainermn: rank {} of {} raised an uncaught exception; aborting all '
        'ranks\n{}'.format(comm.rank, comm.size, ''.join(lines))
    )
    sys.stderr.flush()
    sys.stdout.flush()
    comm.Abort(1)


def add_hook():
    """Installs the aborting ``sys.excepthook`` (idempotent)."""
    global _previous_hook
    if _previous_hook is None:
        _previous_hook = sys.excepthook
        sys.excepthook = _abort_all_ranks


def remove_hook():
    """Restores the ``sys.excepthook`` that :func:`add_hook` replaced."""
    global _previous_hook
    if _previous_hook is not None:
        sys.excepthook = _previous_hook
        _previous_hook = None


def _add_hook_if_enabled():
    if os.environ.get('CHAINERMN_NO_ABORT_ON_EXCEPTION', '') in ('', '0'):
        add_hook()
