"""The standard updater: one batch, one optimizer step per iteration."""

from __future__ import annotations

import typing
import warnings

from chainerlite import backend
from chainerlite.dataset import convert
from chainerlite import serializer as serializer_module
from chainerlite.serializers import _checks
from chainerlite.training import updater as updater_module
from chainerlite.utils import argument

if typing.TYPE_CHECKING:
    from chainerlite import optimizer as optimizer_module
    from chainerlite import types


def _describe(value):
    shape = getattr(value, 'shape', None)
    return type(value).__name__ if shape is None else 'shape {}'.format(tuple(shape))


def _what_was_given(loss_func, in_arrays):
    if isinstance(in_arrays, tuple):
        given = 'a tuple of {} values ({}), as positional arguments'.format(
            len(in_arrays), ', '.join(_describe(a) for a in in_arrays)
        )
    elif isinstance(in_arrays, dict):
        given = 'a dict ({}), as keyword arguments'.format(
            ', '.join('{}: {}'.format(k, _describe(v)) for k, v in in_arrays.items())
        )
    else:
        given = 'one value ({})'.format(_describe(in_arrays))
    return (
        'StandardUpdater: the loss function {} was called with the '
        'converter\'s output, {}; check that the converter returns '
        'what the loss function takes'.format(type(loss_func).__name__, given)
    )


def _uses_gpu(link):
    return any(
        isinstance(backend.get_device_from_array(p.array), backend.GpuDevice)
        for p in link.params()
        if p.array is not None
    )


class StandardUpdater(updater_module.Updater):
    """Updater that takes a batch, converts it and runs the optimizer.

    Each :meth:`update` takes the next batch of the ``'main'`` iterator,
    converts it with ``converter(batch, input_device)``, and calls
    ``optimizer.update(loss_func, *in_arrays)`` (``**in_arrays`` for a
    dict, one argument for anything else) on the ``'main'`` optimizer. With
    ``auto_new_epoch``, it also calls ``optimizer.new_epoch(auto=True)``
    when the iterator starts a new epoch.

    Args:
        iterator: The dataset iterator, or a dict of them (the one used is
            ``'main'``; a dict without it is a ``KeyError`` where the epoch
            or a batch is asked for).
        optimizer: The optimizer, or a dict of them (``'main'`` is used).
        converter: Converter of batches (default
            :func:`~chainerlite.dataset.concat_examples`).
        device: Device of the model: the targets of the optimizers are
            moved there (a model already on a GPU is not moved to another
            GPU, with a ``FutureWarning``). It is also the default input
            device.
        loss_func: The loss function; the optimizer's target by default.
        loss_scale (float): Loss scaling factor set on the optimizers (also
            kept as the ``loss_scale`` attribute).
        auto_new_epoch (bool): Whether the updater starts the optimizers'
            epochs.
        input_device: Device the converter sends the batches to.

    Attributes:
        converter: The converter.
        loss_func: The loss function (``None``: the optimizer's target).
        iteration (int): Number of completed iterations.
        auto_new_epoch (bool): Whether epochs are started automatically.

    """

    def __init__(
        self,
        iterator: typing.Any,
        optimizer: optimizer_module.Optimizer | dict[str, optimizer_module.Optimizer],
        converter: typing.Callable[..., typing.Any] = convert.concat_examples,
        device: types.DeviceSpec | None = None,
        loss_func: typing.Callable[..., typing.Any] | None = None,
        loss_scale: float | None = None,
        auto_new_epoch: bool = True,
        **kwargs: typing.Any,
    ) -> None:
        (input_device,) = argument.parse_kwargs(kwargs, ('input_device', None))
        if device is not None:
            device = backend.get_device(device)
        if input_device is None:
            input_device = device
        else:
            input_device = backend.get_device(input_device)
        if not isinstance(iterator, dict):
            iterator = {'main': iterator}
        if not isinstance(optimizer, dict):
            optimizer = {'main': optimizer}
        # A subclass may use iterators and optimizers of other names in its
        # own update_core (and epoch counters): 'main' is looked up only
        # where it is used, as in Chainer.
        self._iterators = iterator
        self._optimizers = optimizer

        if device is not None:
            for opt in optimizer.values():
                self._move_model(opt.target, device)
        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in optimizer.values():
                opt.set_loss_scale(loss_scale)
        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in optimizer.values():
                opt.use_auto_new_epoch = True

        self.converter = converter
        self.loss_func = loss_func
        self._device = device
        self._input_device = input_device
        self.iteration = 0

    @property
    def device(self):
        """The device of the model (a Device, or ``None``); read-only."""
        return self._device

    @property
    def input_device(self):
        """The device of the inputs (a Device, or ``None``); read-only."""
        return self._input_device

    @staticmethod
    def _move_model(model, device):
        if isinstance(device, backend.GpuDevice) and _uses_gpu(model):
            if model.device != device:
                warnings.warn(
                    'StandardUpdater: the model is on {} and is not moved to '
                    '{}; move it yourself before creating the updater'.format(
                        model.device, device
                    ),
                    FutureWarning,
                )
            return
        model.to_device(device)

    @property
    def epoch(self):
        """Epoch count of the ``'main'`` iterator."""
        return self._main_iterator().epoch

    @property
    def epoch_detail(self):
        """Epoch count (with the fraction) of the ``'main'`` iterator."""
        return self._main_iterator().epoch_detail

    @property
    def previous_epoch_detail(self):
        """Epoch detail of the ``'main'`` iterator before its last batch."""
        return self._main_iterator().previous_epoch_detail

    @property
    def is_new_epoch(self):
        """Whether the last batch started a new epoch."""
        return self._main_iterator().is_new_epoch

    def _main_iterator(self):
        try:
            return self._iterators['main']
        except KeyError:
            raise KeyError(
                'StandardUpdater: no iterator is named \'main\' (the '
                'iterators are {}); it counts the epochs and gives the '
                'batches of update_core'.format(sorted(self._iterators))
            ) from None

    def finalize(self):
        """Finalizes the iterators."""
        for iterator in self._iterators.values():
            iterator.finalize()

    def get_optimizer(self, name):
        """Returns the optimizer of the given name."""
        return self._optimizers[name]

    def get_all_optimizers(self):
        """Returns a dict of the optimizers by name."""
        return dict(self._optimizers)

    def get_iterator(self, name):
        """Returns the iterator of the given name."""
        return self._iterators[name]

    def update(self):
        """Runs one iteration (:meth:`update_core`) and counts it."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        """Takes a batch, converts it and updates the ``'main'`` optimizer."""
        if 'main' not in self._optimizers:
            raise KeyError(
                'StandardUpdater.update_core updates the optimizer named '
                '\'main\', and the optimizers are named {}: override '
                'update_core to update them'.format(sorted(self._optimizers))
            )
        iterator = self._main_iterator()
        batch = next(iterator)
        in_arrays = convert._call_converter(self.converter, batch, self.input_device)
        optimizer = self._optimizers['main']
        loss_func = self.loss_func or optimizer.target
        try:
            if isinstance(in_arrays, tuple):
                optimizer.update(loss_func, *in_arrays)
            elif isinstance(in_arrays, dict):
                optimizer.update(loss_func, **in_arrays)
            else:
                optimizer.update(loss_func, in_arrays)
        except (TypeError, ValueError) as e:
            # A converter whose output does not fit the loss function fails
            # deep inside the model: say what the model was given.
            if hasattr(e, 'add_note'):
                e.add_note(_what_was_given(loss_func, in_arrays))
            raise
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        """Saves or loads the iterators, optimizers, models and iteration.

        The keys are ``iterator:NAME``, ``optimizer:NAME``, ``model:NAME``
        and ``iteration``, as in Chainer's snapshots.
        """
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer['iterator:' + name])
        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            serializer_module.serialize_object(
                optimizer.target, serializer['model:' + name]
            )
        self.iteration = _checks.load_count(
            serializer, 'iteration', self.iteration, 'StandardUpdater.serialize'
        )
