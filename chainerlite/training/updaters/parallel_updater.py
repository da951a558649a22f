"""Data-parallel updater: one model copy per device, in one process."""

import copy

from chainerlite import backend
from chainerlite import function
from chainerlite import serializer as serializer_module
from chainerlite.dataset import convert
from chainerlite.training.updaters import standard_updater


class ParallelUpdater(standard_updater.StandardUpdater):
    """Updater that splits each batch over copies of the model.

    Each iteration splits the batch of the ``'main'`` iterator into one
    part per model, computes each part's loss on its model (and device),
    backpropagates, sums the gradients into the ``'main'`` model, updates
    it with the optimizer and copies the updated parameters back into the
    other models.

    Args:
        iterator: The dataset iterator (or a dict with ``'main'``).
        optimizer: The optimizer of the ``'main'`` model (or a dict).
        converter: Converter of batches.
        models (dict): Models by name (usually the optimizer's target as
            ``'main'`` and its copies); each gets its part of the batch,
            and the gradients of the models other than the optimizer's
            target are added to it. Alternative to ``devices``.
        devices (dict): Devices by name. Without ``models``: with a
            ``'main'`` one, to which the optimizer's target is moved, and a
            copy of it is made for each other device. With ``models``: the
            device of each model's part of the batch (by default, where
            the model is; Chainer 7.8.1 fails without them).
        loss_func: The loss function; each model by default.
        loss_scale (float): Loss scaling factor.
        auto_new_epoch (bool): Whether the updater starts the optimizers'
            epochs.

    Raises:
        ValueError: If neither ``models`` nor ``devices`` is given.
        KeyError: If ``'main'`` is missing from ``devices`` without
            ``models``.

    """

    def __init__(
        self,
        iterator,
        optimizer,
        converter=convert.concat_examples,
        models=None,
        devices=None,
        loss_func=None,
        loss_scale=None,
        auto_new_epoch=True,
    ):
        super(ParallelUpdater, self).__init__(
            iterator,
            optimizer,
            converter=converter,
            loss_func=loss_func,
            loss_scale=loss_scale,
            auto_new_epoch=auto_new_epoch,
        )
        if models is None:
            if devices is None:
                raise ValueError('ParallelUpdater: give models or devices')
            if 'main' not in devices:
                raise KeyError('ParallelUpdater: devices must have a \'main\' entry')
            devices = {name: backend.get_device(d) for name, d in devices.items()}
            main = self.get_optimizer('main').target
            main.to_device(devices['main'])
            models = {'main': main}
            for name, device in devices.items():
                if name != 'main':
                    models[name] = copy.deepcopy(main).to_device(device)
        elif devices is None:
            # Chainer 7.8.1 keeps no devices here and fails at the first
            # update: each model runs where it is
            devices = {name: model.device for name, model in models.items()}
        else:
            devices = {name: backend.get_device(d) for name, d in devices.items()}
        self._models = models
        self._devices = devices

    def connect_trainer(self, trainer):
        """Registers each model other than the optimizer's target as an
        observer of the trainer's reporter under its name; as in Chainer,
        the links inside a model are not registered."""
        main = self.get_optimizer('main').target
        for name, model in self._models.items():
            if model is not main:
                trainer.reporter.add_observer(name, model)

    def serialize(self, serializer):
        """Saves or loads as :class:`StandardUpdater` does; after a load,
        the other models are given the loaded parameters of ``'main'``.

        Only ``'main'`` is in a snapshot: without the copy, the first step
        of a resumed run computed the other parts of the batch with the
        parameters the copies had before the load.
        """
        super().serialize(serializer)
        if isinstance(serializer, serializer_module.Deserializer):
            main = self.get_optimizer('main').target
            for model in self._models.values():
                if model is not main:
                    model.copyparams(main)

    def update_core(self):
        """Runs the loss of each batch part on its model and updates."""
        iterator = self._iterators['main']
        optimizer = self._optimizers['main']
        batch = next(iterator)
        names = list(self._models)
        n = len(names)
        losses = []
        for i, name in enumerate(names):
            model = self._models[name]
            in_arrays = convert._call_converter(
                self.converter, batch[i::n], self._devices[name]
            )
            loss_func = self.loss_func or model
            self._devices[name].use()
            # As Chainer's: the losses are backpropagated, so their graphs
            # are kept even in a run under no_backprop_mode
            with function.force_backprop_mode():
                if isinstance(in_arrays, tuple):
                    loss = loss_func(*in_arrays)
                elif isinstance(in_arrays, dict):
                    loss = loss_func(**in_arrays)
                else:
                    loss = loss_func(in_arrays)
            losses.append(loss)
        for model in self._models.values():
            model.cleargrads()
        for loss in losses:
            loss.backward(loss_scale=optimizer._loss_scale)
        main = optimizer.target
        others = [model for model in self._models.values() if model is not main]
        for model in others:
            main.addgrads(model)
        optimizer.update()
        for model in others:
            model.copyparams(main)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
