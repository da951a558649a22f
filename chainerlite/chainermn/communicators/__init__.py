"""ChainerMN communicators and :func:`create_communicator`."""

from chainerlite.chainermn import _mpi
from chainerlite.chainermn import global_except_hook
from chainerlite.chainermn.communicators.communicator_base import CommunicatorBase  # NOQA


def _classes():
    from chainerlite.chainermn.communicators import dummy_communicator
    from chainerlite.chainermn.communicators import flat_communicator
    from chainerlite.chainermn.communicators import naive_communicator
    from chainerlite.chainermn.communicators import non_cuda_aware_communicator
    from chainerlite.chainermn.communicators import pure_nccl_communicator

    return {
        'naive': naive_communicator.NaiveCommunicator,
        'flat': flat_communicator.FlatCommunicator,
        'dummy': dummy_communicator.DummyCommunicator,
        'pure_nccl': pure_nccl_communicator.PureNcclCommunicator,
        'non_cuda_aware': non_cuda_aware_communicator.NonCudaAwareCommunicator,
    }


def create_communicator(communicator_name='pure_nccl', mpi_comm=None, **kwargs):
    """Creates a ChainerMN communicator.

    Args:
        communicator_name (str): ``'naive'`` (any MPI, any device; for the
            CPU), ``'flat'`` (one packed buffer on the arrays' device; GPU
            arrays need a CUDA-aware MPI), ``'dummy'`` (no gradient exchange,
            for profiling), ``'pure_nccl'`` or ``'non_cuda_aware'`` (need
            CuPy with NCCL and GPUs).
        mpi_comm: An ``mpi4py.MPI.Comm``; ``MPI.COMM_WORLD`` by default.
        allreduce_grad_dtype: dtype the gradients travel in (e.g.
            ``numpy.float16``); the gradients' own dtype by default.
        batched_copy (bool): Kept as a configuration value.

    When the job has more than one process, an uncaught exception on any
    rank aborts every rank (see :mod:`chainermn.global_except_hook`).
    """
    unknown = set(kwargs) - {'allreduce_grad_dtype', 'batched_copy'}
    if unknown:
        raise TypeError(
            'create_communicator: unexpected argument(s) {}'.format(
                ', '.join(sorted(unknown))
            )
        )
    classes = _classes()
    if communicator_name not in classes:
        raise ValueError(
            'create_communicator: unknown communicator {!r}; choose one of {}'.format(
                communicator_name, ', '.join(sorted(classes))
            )
        )
    if mpi_comm is None:
        mpi_comm = _mpi.world()
    communicator = classes[communicator_name](mpi_comm)
    for name, value in kwargs.items():
        communicator.set_config(name, value)
    if mpi_comm.size > 1:
        global_except_hook._add_hook_if_enabled()
    return communicator
