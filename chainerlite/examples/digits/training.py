"""Training the digit classifiers the way a Chainer user does.

A :class:`~chainerlite.training.Trainer` runs a
:class:`~chainerlite.training.updaters.StandardUpdater` over a
:class:`~chainerlite.iterators.SerialIterator`, and its extensions
evaluate, log, print, plot, snapshot and show the progress.
"""

import os

import numpy

from chainerlite import datasets
from chainerlite import iterators
from chainerlite import serializers
from chainerlite import training
from chainerlite.training import extensions

#: Columns of the table printed once per epoch.
PRINTED = [
    'epoch',
    'iteration',
    'main/loss',
    'validation/main/loss',
    'validation/main/accuracy',
    'elapsed_time',
]

#: The plot written to the trainer's output folder, and its curves.
PLOT = 'loss.png'
PLOTTED = ['main/loss', 'validation/main/loss']

#: File names of the snapshots of the trainer, one per epoch.
SNAPSHOT = 'snapshot_iter_{.updater.iteration}'


def train_iterator(data, batch_size, seed):
    """Returns a repeating iterator over shuffled minibatches.

    Args:
        data (tuple): Inputs ``x`` and labels ``t``.
        batch_size (int): Number of samples per minibatch.
        seed (int): Seed of the shuffling.

    Returns:
        ~chainerlite.iterators.SerialIterator: The iterator.

    """
    sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(seed))
    return iterators.SerialIterator(
        datasets.TupleDataset(*data), batch_size, order_sampler=sampler
    )


def make_trainer(
    model,
    optimizer,
    data,
    epochs,
    batch_size,
    seed,
    out,
    device=None,
    report=None,
    plots=False,
    progress=False,
):
    """Builds a trainer of a classifier with the usual extensions.

    An :class:`~chainerlite.training.extensions.Evaluator` on the test
    data and a :class:`~chainerlite.training.extensions.LogReport` run
    once per epoch. With ``report``, the trainer also prints the
    :data:`PRINTED` columns there, writes the log and takes a snapshot of
    itself once per epoch (the newest only is kept).

    Args:
        model (~chainerlite.links.Classifier): The classifier.
        optimizer (~chainerlite.Optimizer): Optimizer set up with ``model``.
        data (tuple): The training and the test data, each a tuple of
            inputs and labels.
        epochs (int): Epoch at which the training stops.
        batch_size (int): Number of samples per update.
        seed (int): Seed of the shuffling of the training data.
        out (str): Output folder of the trainer.
        device: Device the minibatches are sent to.
        report: Text stream of the printed table; ``None`` for a quiet
            trainer that writes no file.
        plots (bool): Whether a reporting trainer draws the :data:`PLOT`
            (it needs matplotlib).
        progress (bool): Whether to show a
            :class:`~chainerlite.training.extensions.ProgressBar` (it
            draws only on a terminal).

    Returns:
        ~chainerlite.training.Trainer: The trainer, ready to run.

    """
    updater = training.updaters.StandardUpdater(
        train_iterator(data[0], batch_size, seed), optimizer, device=device
    )
    trainer = training.Trainer(updater, (epochs, 'epoch'), out=out)
    test_iter = iterators.SerialIterator(
        datasets.TupleDataset(*data[1]), batch_size, repeat=False, shuffle=False
    )
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    if report is None:
        trainer.extend(extensions.LogReport(log_name=None))
        return trainer
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(PRINTED, out=report))
    if plots:
        trainer.extend(extensions.PlotReport(PLOTTED, 'epoch', filename=PLOT))
    trainer.extend(extensions.snapshot(filename=SNAPSHOT, n_retains=1))
    if progress:
        trainer.extend(extensions.ProgressBar(update_interval=10))
    return trainer


def snapshot_path(trainer):
    """Returns the path of the snapshot taken at the trainer's current
    iteration."""
    return os.path.join(trainer.out, SNAPSHOT.format(trainer))


def resume(trainer, path):
    """Loads a snapshot into a trainer built like the one that took it.

    Args:
        trainer (~chainerlite.training.Trainer): The new trainer.
        path (str): The snapshot file.

    Returns:
        int: The iteration the training continues from.

    Raises:
        ValueError: If the file cannot be loaded (missing, truncated, or a
            snapshot of another model); the trainer is left as it was.

    """
    try:
        serializers.load_npz(path, trainer)
    except Exception as e:
        raise ValueError(
            'cannot resume from the snapshot {!r} ({}: {}); the '
            'trainer is unchanged'.format(path, type(e).__name__, e)
        ) from e
    return trainer.updater.iteration


def history(trainer):
    """Returns the trainer's log: one dict per epoch (``'epoch'``,
    ``'iteration'``, ``'main/loss'``, ``'validation/main/accuracy'``, ...).
    """
    return trainer.get_extension('LogReport').log


def fit(model, optimizer, data, epochs, batch_size, seed, out, device=None):
    """Trains a classifier quietly and returns its log (see
    :func:`history`)."""
    trainer = make_trainer(
        model, optimizer, data, epochs, batch_size, seed, out, device
    )
    trainer.run()
    return history(trainer)


def train_epoch(optimizer, data, batch_size, seed, device=None):
    """Runs one epoch of updates without a trainer (e.g. to time it)."""
    updater = training.updaters.StandardUpdater(
        train_iterator(data, batch_size, seed), optimizer, device=device
    )
    while updater.epoch == 0:
        updater.update()
