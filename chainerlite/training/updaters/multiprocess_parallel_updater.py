"""Data-parallel updater over several GPUs, one process per GPU (NCCL)."""

import multiprocessing

import numpy

from chainerlite import backend
from chainerlite.backends import cuda
from chainerlite.dataset import convert
from chainerlite.training.updaters import standard_updater


def _nccl():
    try:
        from cupy.cuda import nccl
    except Exception:
        return None
    if not getattr(nccl, 'available', True):
        return None
    return nccl


def _gpu_link_xp(link, name):
    xp = link.xp
    if cuda.cupy is None or xp is not cuda.cupy:
        raise RuntimeError(
            '{} works only on a GPU: the link is on the CPU'.format(name)
        )
    return xp


def _gather(link, attr, name):
    xp = _gpu_link_xp(link, name)
    arrays = []
    for param in link.params():
        value = getattr(param, attr)
        if value is None:
            value = xp.zeros_like(param.array)
        arrays.append(value.ravel())
    if not arrays:
        return xp.zeros((0,), dtype=numpy.float32)
    return xp.concatenate(arrays)


def _scatter(link, array, attr, name):
    _gpu_link_xp(link, name)
    offset = 0
    for param in link.params():
        size = param.array.size
        chunk = (
            array[offset : offset + size]
            .reshape(param.shape)
            .astype(param.dtype, copy=False)
        )
        if attr == 'grad':
            param.grad = chunk.copy()
        else:
            param.array[...] = chunk
        offset += size


def size_num_grads(link):
    """Returns ``(size, num)``: the total number of elements of the
    parameters of ``link`` and the number of parameters, counting only
    parameters with at least one element."""
    sizes = [param.size for param in link.params() if param.size]
    return sum(sizes), len(sizes)


def gather_grads(link):
    """Returns the gradients of all the parameters of ``link`` in one flat
    CuPy array (zeros for missing gradients).

    Raises:
        RuntimeError: If the link is not on a GPU.

    """
    return _gather(link, 'grad', 'gather_grads')


def gather_params(link):
    """Returns the values of all the parameters of ``link`` in one flat
    CuPy array.

    Raises:
        RuntimeError: If the link is not on a GPU.

    """
    return _gather(link, 'array', 'gather_params')


def scatter_grads(link, array):
    """Sets the gradients of ``link``'s parameters from a flat array made by
    :func:`gather_grads`."""
    _scatter(link, array, 'grad', 'scatter_grads')


def scatter_params(link, array):
    """Sets the values of ``link``'s parameters from a flat array made by
    :func:`gather_params`."""
    _scatter(link, array, 'array', 'scatter_params')


def _nccl_dtype(nccl, dtype):
    table = {
        numpy.dtype(numpy.float16): nccl.NCCL_FLOAT16,
        numpy.dtype(numpy.float32): nccl.NCCL_FLOAT32,
        numpy.dtype(numpy.float64): nccl.NCCL_FLOAT64,
    }
    if dtype not in table:
        raise TypeError(
            'MultiprocessParallelUpdater: NCCL cannot reduce arrays of {}'.format(dtype)
        )
    return table[dtype]


def _forward(model, converter, batch, device):
    in_arrays = convert._call_converter(converter, batch, device)
    if isinstance(in_arrays, tuple):
        return model(*in_arrays)
    if isinstance(in_arrays, dict):
        return model(**in_arrays)
    return model(in_arrays)


class _Worker(multiprocessing.Process):
    """A child process that trains a replica of the model on one GPU."""

    def __init__(
        self, rank, n_devices, comm_id, pipe, model, device, iterator, converter
    ):
        super(_Worker, self).__init__()
        self.daemon = True
        self._rank = rank
        self._n_devices = n_devices
        self._comm_id = comm_id
        self._pipe = pipe
        self._model = model
        self._device = device
        self._iterator = iterator
        self._converter = converter

    def run(self):
        nccl = _nccl()
        self._device.use()
        model = self._model.to_device(self._device)
        comm = nccl.NcclCommunicator(self._n_devices, self._comm_id, self._rank)
        stream = cuda.cupy.cuda.Stream.null.ptr
        while True:
            job = self._pipe.recv()
            if job != 'update':
                break
            loss = _forward(model, self._converter, next(self._iterator), self._device)
            model.cleargrads()
            loss.backward()
            grads = gather_grads(model)
            dtype = _nccl_dtype(nccl, grads.dtype)
            comm.reduce(
                grads.data.ptr,
                grads.data.ptr,
                grads.size,
                dtype,
                nccl.NCCL_SUM,
                0,
                stream,
            )
            params = gather_params(model)
            comm.bcast(
                params.data.ptr, params.size, _nccl_dtype(nccl, params.dtype), 0, stream
            )
            scatter_params(model, params)
        self._iterator.finalize()


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Updater that trains on several GPUs with one process per GPU.

    Each device has its own iterator (give one per device) and replica of
    the model; at each iteration every process computes the gradients of
    its batch, the gradients are averaged into the main model over NCCL,
    the optimizer updates it and the new parameters are broadcast. The
    worker processes are started at the first update (before the main
    process uses CUDA) and stopped by :meth:`finalize`.

    It needs CuPy with NCCL; :meth:`available` tells whether they are
    there.

    Args:
        iterators (list): One iterator per device.
        optimizer: The optimizer of the main model.
        converter: Converter of batches.
        devices (list or dict): The GPUs (specifiers or Devices); with a
            dict, the ``'main'`` one holds the main model.
        auto_new_epoch (bool): Whether the updater starts the optimizer's
            epochs.

    Raises:
        RuntimeError: If CuPy with NCCL is not available.
        ValueError: If the numbers of iterators and devices differ.

    """

    def __init__(
        self,
        iterators,
        optimizer,
        converter=convert.concat_examples,
        devices=None,
        auto_new_epoch=True,
    ):
        if not MultiprocessParallelUpdater.available():
            raise RuntimeError(
                'MultiprocessParallelUpdater needs CuPy with NCCL, which is '
                'not available here: install CuPy and NCCL for your CUDA '
                'version, or use StandardUpdater or ParallelUpdater'
            )
        if isinstance(devices, dict):
            devices = dict(devices)
            main = devices.pop('main')
            devices = [main] + list(devices.values())
        devices = [backend.get_device(d) for d in devices or ()]
        if len(devices) != len(iterators):
            raise ValueError(
                'MultiprocessParallelUpdater: {} iterators for {} devices; '
                'give one iterator per device'.format(len(iterators), len(devices))
            )
        super(MultiprocessParallelUpdater, self).__init__(
            iterators[0], optimizer, converter=converter, auto_new_epoch=auto_new_epoch
        )
        self._mpu_iterators = list(iterators)
        self._mpu_devices = devices
        self._workers = []
        self._pipes = []
        self._comm = None

    @staticmethod
    def available():
        """Whether CuPy with NCCL is available."""
        return cuda.available and _nccl() is not None

    def setup_workers(self):
        """Starts the worker processes (at the first update)."""
        if self._comm is not None:
            return
        nccl = _nccl()
        n = len(self._mpu_devices)
        comm_id = nccl.get_unique_id()
        master = self.get_optimizer('main').target
        for rank in range(1, n):
            parent, child = multiprocessing.Pipe()
            worker = _Worker(
                rank,
                n,
                comm_id,
                child,
                master.copy('copy'),
                self._mpu_devices[rank],
                self._mpu_iterators[rank],
                self.converter,
            )
            worker.start()
            self._workers.append(worker)
            self._pipes.append(parent)
        device = self._mpu_devices[0]
        device.use()
        master.to_device(device)
        self._comm = nccl.NcclCommunicator(n, comm_id, 0)

    def update_core(self):
        """Runs one data-parallel iteration."""
        self.setup_workers()
        nccl = _nccl()
        for pipe in self._pipes:
            pipe.send('update')
        optimizer = self.get_optimizer('main')
        model = optimizer.target
        iterator = self._mpu_iterators[0]
        device = self._mpu_devices[0]
        loss = _forward(model, self.converter, next(iterator), device)
        model.cleargrads()
        loss.backward()
        stream = cuda.cupy.cuda.Stream.null.ptr
        grads = gather_grads(model)
        comm = self._comm
        comm.reduce(
            grads.data.ptr,
            grads.data.ptr,
            grads.size,
            _nccl_dtype(nccl, grads.dtype),
            nccl.NCCL_SUM,
            0,
            stream,
        )
        scatter_grads(model, grads / len(self._mpu_devices))
        optimizer.update()
        params = gather_params(model)
        comm.bcast(
            params.data.ptr, params.size, _nccl_dtype(nccl, params.dtype), 0, stream
        )
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def finalize(self):
        """Stops the workers and finalizes the iterators."""
        for pipe in self._pipes:
            pipe.send('finalize')
        for worker in self._workers:
            worker.join()
        self._pipes = []
        self._workers = []
        self._mpu_iterators[0].finalize()
