"""Converters: turn a list of examples into a batch of arrays on a device.

A converter is called as ``converter(batch, device)``. Functions decorated
with :func:`converter` (and :class:`Converter` subclasses) receive ``device``
as a :class:`chainerlite.backend.Device` (or ``None``), whatever spec the
caller used; older plain functions receive the spec as given.
"""

from __future__ import annotations

import functools
import sys
import typing

import numpy

from chainerlite import backend
from chainerlite.backends import cuda

if typing.TYPE_CHECKING:
    from chainerlite import types


class Converter(object):
    """Base class of converters.

    A subclass implements ``__call__(self, batch, device)``, where ``batch``
    is a list of examples and ``device`` a
    :class:`chainerlite.backend.Device` (or ``None``: leave the arrays where
    they are). Trainers and evaluators pass a Device to converters of this
    type; :func:`converter` turns a plain function into one.
    """

    def __call__(self, batch, device):
        raise NotImplementedError(
            '{}.__call__ is not implemented'.format(type(self).__name__)
        )


class _FunctionConverter(Converter):
    # A converter made by @converter() from a function; it turns any device
    # spec into a Device before calling the function.

    def __init__(self, func):
        if not callable(func):
            raise TypeError(
                'converter() wraps a callable, not {}'.format(type(func).__name__)
            )
        self.func = func
        # name, docs and signature of the function (for pickle, help, doctest)
        functools.update_wrapper(self, func)

    def __call__(self, batch, device=None, *args, **kwargs):
        return self.func(batch, _to_device_object(device), *args, **kwargs)

    def __reduce__(self):
        # A module-level converter pickles by name, like the function it
        # replaces; others carry the function.
        module = sys.modules.get(self.__module__)
        if getattr(module, self.__qualname__, None) is self:
            return self.__qualname__
        return _FunctionConverter, (self.func,)

    def __repr__(self):
        return '<converter {}.{}>'.format(self.__module__, self.__qualname__)


def converter():
    """Decorator that makes a converter out of a function.

    The function is called as ``func(batch, device, ...)`` with ``device`` a
    :class:`chainerlite.backend.Device` or ``None``; the decorated converter
    also accepts the older specs (an int GPU id, ``-1`` for the CPU, a
    string such as ``'@cupy:0'``).

    .. admonition:: Example

        >>> import numpy
        >>> from chainerlite import dataset
        >>> @dataset.converter()
        ... def stack_x(batch, device=None):
        ...     return numpy.stack([x for x, _ in batch])
        >>> stack_x([(numpy.zeros(2), 0), (numpy.ones(2), 1)], -1).shape
        (2, 2)

    Returns:
        A decorator; the object it returns is a :class:`Converter`.

    """

    def decorator(func):
        return _FunctionConverter(func)

    return decorator


def _to_device_object(device):
    if device is None or isinstance(device, backend.Device):
        return device
    if isinstance(device, (int, numpy.integer)) and device < 0:
        return backend.CpuDevice()
    return backend.get_device(device)


def _call_converter(converter, batch, device):
    """Calls ``converter`` the way Chainer's updaters and evaluators do.

    A :class:`Converter` gets ``device`` as a Device; a plain function (the
    older protocol) gets ``None``, ``-1`` for the CPU or the GPU id.
    """
    if isinstance(converter, Converter) or device is None:
        return converter(batch, _to_device_object(device))
    device = _to_device_object(device)
    if isinstance(device, backend.GpuDevice):
        return converter(batch, device.device_id)
    if isinstance(device, backend.CpuDevice):
        return converter(batch, -1)
    return converter(batch, device)


def to_device(device, x):
    """Sends an array to a device.

    Args:
        device: ``None`` (``x`` is returned as is), a negative int (the
            CPU), a GPU id, or any spec :func:`chainerlite.backend.get_device`
            accepts (a Device, ``'@numpy'``, ``'@cupy:N'``).
        x (numpy.ndarray, cupy.ndarray or None): The array.

    Returns:
        ``x`` on the device (``None`` stays ``None``).

    """
    if device is None or x is None:
        return x
    return _to_device_object(device).send(x)


@converter()
def concat_examples(
    batch: typing.Sequence[typing.Any],
    device: types.DeviceSpec | None = None,
    padding: typing.Any = None,
) -> typing.Any:
    """Stacks a list of examples into a batch of arrays.

    Each example is an array (or a Python scalar), a tuple of them, or a
    dictionary of them; the result has the same structure, each entry
    stacked along a new first axis. With ``padding``, examples of different
    shapes are allowed: each batch array takes the largest size along every
    axis and the cells no example fills hold ``padding``.

    Args:
        batch (list): The examples; all of the same structure.
        device: Where to send the result: ``None`` (leave it), a negative
            int (CPU), a GPU id, or a :class:`chainerlite.backend.Device`.
        padding: ``None`` (shapes must match), a scalar, or, for tuple and
            dict examples, a tuple or dict of scalars per entry.

    Returns:
        An array, a tuple of arrays, or a dict of arrays.

    Raises:
        ValueError: If ``batch`` is empty, or shapes differ without
            ``padding``.
        TypeError: If an example is not an array or a number (``None``,
            a string).
        IndexError: If a tuple ``padding`` is shorter than the examples.

    .. admonition:: Example

        >>> import numpy
        >>> from chainerlite.dataset import concat_examples
        >>> x, t = concat_examples([(numpy.zeros(3), 0), (numpy.ones(3), 1)])
        >>> x.shape, t
        ((2, 3), array([0, 1]))
        >>> concat_examples([numpy.ones(1), numpy.ones(2)], padding=-1)
        array([[ 1., -1.],
               [ 1.,  1.]])

    """
    if len(batch) == 0:
        raise ValueError('concat_examples: batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        if not isinstance(padding, tuple):
            padding = (padding,) * len(first)
        elif len(padding) < len(first):
            # (zip would silently drop the entries that have no padding)
            raise IndexError(
                'concat_examples: padding has {} entries for examples of {}'.format(
                    len(padding), len(first)
                )
            )
        return tuple(
            to_device(device, _concat_arrays([ex[i] for ex in batch], padding[i]))
            for i in range(len(first))
        )
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = {key: padding for key in first}
        return {
            key: to_device(
                device, _concat_arrays([ex[key] for ex in batch], padding[key])
            )
            for key in first
        }
    return to_device(device, _concat_arrays(batch, padding))


# The plain function under the converter (Chainer's name): the device may be
# any spec to_device takes (None, a negative int, a GPU id, a Device).
concat_examples_func = concat_examples.func


def _concat_arrays(arrays, padding):
    # Python scalars (and lists) become a NumPy array first.
    if not isinstance(arrays[0], (numpy.ndarray, cuda.ndarray)):
        examples, arrays = arrays, numpy.asarray(arrays)
        if arrays.dtype.kind in 'OSU':
            raise TypeError(
                'concat_examples: an example must be an array or a number, '
                'not {}'.format(type(examples[0]).__name__)
            )
    xp = backend.get_array_module(arrays[0])
    if padding is not None:
        return _concat_arrays_with_padding(arrays, padding, xp)
    shape = arrays[0].shape
    for a in arrays:
        if a.shape != shape:
            raise ValueError(
                'concat_examples: shapes of examples differ ({} and {}); '
                'pass padding= to pad them'.format(shape, a.shape)
            )
    with _device_of(arrays[0]):
        return xp.stack(arrays)


def _concat_arrays_with_padding(arrays, padding, xp):
    shape = numpy.array(arrays[0].shape, dtype=int)
    for a in arrays[1:]:
        if a.ndim != len(shape):
            raise ValueError(
                'concat_examples: examples have different numbers of '
                'dimensions ({} and {})'.format(len(shape), a.ndim)
            )
        shape = numpy.maximum(shape, a.shape)
    with _device_of(arrays[0]):
        result = xp.full(
            (len(arrays),) + tuple(shape.tolist()), padding, dtype=arrays[0].dtype
        )
        for i, a in enumerate(arrays):
            result[(i,) + tuple(slice(n) for n in a.shape)] = a
    return result


def _device_of(array):
    # A context that makes the array's GPU current (nothing on the CPU).
    if isinstance(array, cuda.ndarray):
        return array.device
    return _NullContext()


class _NullContext(object):
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


class ConcatWithAsyncTransfer(object):
    """A :func:`concat_examples` that sends batches to the GPU asynchronously.

    Host arrays are stacked into page-locked memory and copied on a stream
    of this converter's own; the stream that will use the arrays (the
    current one, or ``compute_stream``) waits on the GPU for the copy, not
    the host, so the next batch can be prepared while the copy runs. On the
    CPU (or with ``device=None``) it is :func:`concat_examples`. As in
    Chainer, a converter that has converted a batch of tuples or dicts
    serves the device it was called with then, and refuses another
    (``ValueError``).

    Args:
        stream (cupy.cuda.Stream): Stream for the copies; a new non-blocking
            one by default.
        compute_stream (cupy.cuda.Stream): Stream that uses the arrays; the
            current stream when ``None``.

    """

    def __init__(self, stream=None, compute_stream=None):
        self._stream = stream
        self.compute_stream = compute_stream
        # Page-locked buffers stay alive until their copy has finished.
        self._pending = []
        # the device of the calls (as given), once a batch of tuples or
        # dicts went through
        self._device = None
        self._bound = False

    def __call__(self, batch, device=None, padding=None):
        if len(batch) == 0:
            raise ValueError('batch is empty')
        if not self._bound:
            self._device = device
        if device is not self._device:
            raise ValueError('device is different')
        self._bound = self._bound or isinstance(batch[0], (tuple, dict))
        device = _to_device_object(device)
        if not isinstance(device, backend.GpuDevice):
            return concat_examples(batch, device, padding)
        cupy = cuda.cupy
        with cupy.cuda.Device(device.device_id):
            if self._stream is None:
                self._stream = cupy.cuda.Stream(non_blocking=True)
            self._release_finished()
            stacked = concat_examples(batch, None, padding)
            if isinstance(stacked, tuple):
                return tuple(self._send(a, device) for a in stacked)
            if isinstance(stacked, dict):
                return {k: self._send(a, device) for k, a in stacked.items()}
            return self._send(stacked, device)

    def _send(self, array, device):
        cupy = cuda.cupy
        if isinstance(array, cupy.ndarray) or array.nbytes == 0:
            return device.send(array)
        array = numpy.ascontiguousarray(array)
        pinned = cupy.cuda.alloc_pinned_memory(array.nbytes)
        staging = numpy.frombuffer(pinned, array.dtype, array.size).reshape(array.shape)
        staging[...] = array
        result = cupy.empty(array.shape, array.dtype)
        result.set(staging, stream=self._stream)
        done = self._stream.record()
        compute = self.compute_stream or cupy.cuda.get_current_stream()
        compute.wait_event(done)
        self._pending.append((done, pinned))
        return result

    def _release_finished(self):
        self._pending = [(e, m) for e, m in self._pending if not e.done]


class Conveyor(object):
    """Sends arrays to a device one by one, asynchronously on a stream.

    :meth:`put` starts sending an array and :meth:`get` returns the sent
    arrays in the order they were put. With a GPU id (``device >= 0``) and a
    CuPy ``stream``, a host array is copied to page-locked memory and sent
    on ``stream``; otherwise ``put`` sends it at once with
    :func:`to_device` (``device=None`` leaves it where it is, a negative id
    means the CPU).

    Args:
        device (int or None): Target GPU id, a negative int for the CPU, or
            ``None``.
        stream (cupy.cuda.Stream or None): Stream of the asynchronous copies.
    """

    def __init__(self, device=None, stream=None):
        self._device = device
        self._stream = stream
        self._ret_array = []
        # page-locked buffers of the copies still in use (two at most)
        self._pinned = []

    def _asynchronous(self):
        device = self._device
        return device is not None and device >= 0 and self._stream is not None

    def put(self, array):
        """Starts sending ``array`` (a host array) to the device."""
        if not self._asynchronous():
            self._ret_array.append(to_device(self._device, array))
            return
        cupy = cuda.cupy
        array = numpy.ascontiguousarray(array)
        with cupy.cuda.Device(self._device):
            pinned = cupy.cuda.alloc_pinned_memory(array.nbytes)
            staging = numpy.frombuffer(pinned, array.dtype, array.size)
            staging = staging.reshape(array.shape)
            staging[...] = array
            result = cupy.empty(array.shape, array.dtype)
            result.set(staging, stream=self._stream)
        self._pinned = self._pinned[-1:] + [pinned]
        self._ret_array.append(result)

    def get(self, sync=True):
        """Returns the array put first of those not yet returned.

        Args:
            sync (bool): With an asynchronous copy, wait until the device
                has finished all its work (so the array is complete); with
                ``False`` the caller synchronizes.

        Raises:
            IndexError: If no array is waiting.
        """
        if not self._ret_array:
            raise IndexError('Conveyor.get: no array was put')
        if self._asynchronous() and sync:
            cuda.cupy.cuda.runtime.deviceSynchronize()
        return self._ret_array.pop(0)
