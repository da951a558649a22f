"""Splitting a dataset (or its index range) over the processes."""

import numpy

from chainerlite.datasets import sub_dataset


def _scatter_index(n_total_samples, size, force_equal_length):
    """Yields ``(rank, begin, end)``: contiguous, balanced ranges of the samples.

    The first ``n_total_samples % size`` ranks get one sample more. With
    ``force_equal_length``, each shorter range starts one sample earlier, so
    that every rank has the same number of samples (one is shared).
    """
    base, extra = divmod(n_total_samples, size)
    longest = base + (1 if extra else 0)
    begin = 0
    for rank in range(size):
        end = begin + base + (1 if rank < extra else 0)
        start = begin
        if force_equal_length and end - start < longest:
            start -= longest - (end - start)
        yield rank, start, end
        begin = end


def scatter_index(n_total_samples, comm, root=0, force_equal_length=True):
    """The ``(begin, end)`` range of sample indices this rank owns.

    Rank ``root`` splits ``range(n_total_samples)`` into contiguous ranges
    (see :func:`scatter_dataset`) and sends each rank its own.
    """
    ranges = None
    if comm.rank == root:
        ranges = [
            (b, e)
            for _, b, e in _scatter_index(
                n_total_samples, comm.size, force_equal_length
            )
        ]
    return comm.mpi_comm.scatter(ranges, root=root)


def _take(dataset, begin, end, order):
    if order is None:
        return dataset[begin:end]
    if isinstance(dataset, numpy.ndarray):
        return dataset[order[begin:end]]
    return [dataset[i] for i in order[begin:end]]


def scatter_dataset(
    dataset,
    comm,
    root=0,
    shuffle=False,
    seed=None,
    max_buf_len=256 * 1024 * 1024,
    force_equal_length=True,
):
    """Gives each rank its part of the ``dataset`` held by rank ``root``.

    Rank ``root`` (optionally shuffling with ``seed``) cuts the dataset into
    ``comm.size`` contiguous parts of the same length (when
    ``force_equal_length``, a rank may repeat one sample so that every rank
    runs the same number of iterations) and sends each rank the samples of
    its part. Other ranks may pass ``None``. ``max_buf_len`` is accepted
    for compatibility (mpi4py splits large messages itself).

    Returns:
        chainer.datasets.SubDataset: this rank's samples.
    """
    if comm.rank == root:
        order = None
        if shuffle:
            order = numpy.random.RandomState(seed).permutation(len(dataset))
        mine = None
        for rank, begin, end in _scatter_index(
            len(dataset), comm.size, force_equal_length
        ):
            part = _take(dataset, begin, end, order)
            if rank == root:
                mine = part
            else:
                comm.mpi_comm.send(part, dest=rank, tag=7)
    else:
        mine = comm.mpi_comm.recv(source=root, tag=7)
    return sub_dataset.SubDataset(mine, 0, len(mine))
