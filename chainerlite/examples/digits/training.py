"""A manual training loop in Chainer's style, with a progress bar."""

import time

import chainerlite as chainer
from chainerlite import backend


def _progress(iterable, total, desc, enabled):
    # A tqdm bar on stderr when tqdm is installed (the ``demo`` extra).
    if not enabled:
        return iterable
    try:
        import tqdm
    except ImportError:
        return iterable
    return tqdm.tqdm(iterable, total=total, desc=desc, unit='batch',
                     leave=False)


def _batches(n, batch_size, order=None):
    for start in range(0, n, batch_size):
        if order is None:
            yield slice(start, start + batch_size)
        else:
            yield order[start:start + batch_size]


def train_epoch(model, optimizer, data, batch_size, rng, desc='train',
                progress=False):
    """Runs one epoch of minibatch training.

    The samples are shuffled with ``rng``; for each minibatch the loss is
    computed, the gradients are cleared and backpropagated, and the
    optimizer updates the parameters.

    Args:
        model (~chainerlite.links.Classifier): Returns the loss of
            ``(x, t)``.
        optimizer (~chainerlite.Optimizer): Optimizer set up with ``model``.
        data (tuple): Inputs ``x`` and labels ``t`` (arrays on the model's
            device).
        batch_size (int): Number of samples per update.
        rng (numpy.random.RandomState): Source of the shuffling.
        desc (str): Label of the progress bar.
        progress (bool): Whether to show a tqdm progress bar.

    Returns:
        float: The mean training loss over the epoch.

    """
    x, t = data
    n = len(t)
    xp = backend.get_array_module(x)
    order = xp.asarray(rng.permutation(n))
    total = 0.0
    batches = _batches(n, batch_size, order)
    for index in _progress(batches, -(-n // batch_size), desc, progress):
        loss = model(x[index], t[index])
        model.cleargrads()
        loss.backward()
        optimizer.update()
        total += float(loss.array) * len(index)
    return total / n


def evaluate(model, data, batch_size):
    """Returns the accuracy of a classifier in test mode without a graph.

    Args:
        model (~chainerlite.links.Classifier): The classifier.
        data (tuple): Inputs ``x`` and labels ``t``.
        batch_size (int): Number of samples per forward pass.

    Returns:
        float: The fraction of samples classified correctly.

    """
    x, t = data
    correct = 0.0
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for index in _batches(len(t), batch_size):
            model(x[index], t[index])
            correct += float(model.accuracy.array) * len(t[index])
    return correct / len(t)


def fit(model, optimizer, train, test, epochs, batch_size, rng, log,
        progress=False):
    """Trains a classifier for some epochs, logging one line per epoch.

    Args:
        model (~chainerlite.links.Classifier): The classifier to train.
        optimizer (~chainerlite.Optimizer): Optimizer set up with ``model``.
        train (tuple): Training inputs and labels.
        test (tuple): Test inputs and labels.
        epochs (int): Number of passes over the training data.
        batch_size (int): Number of samples per update.
        rng (numpy.random.RandomState): Source of the shuffling.
        log (callable): Called with each log line, e.g. ``print``.
        progress (bool): Whether to show a tqdm progress bar per epoch.

    Returns:
        list of dict: One record per epoch with ``'epoch'``, ``'loss'``
        (mean training loss), ``'accuracy'`` (test accuracy after the
        epoch) and ``'seconds'`` (time of the epoch, evaluation included).

    """
    history = []
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        loss = train_epoch(model, optimizer, train, batch_size, rng,
                           'epoch {}/{}'.format(epoch, epochs), progress)
        accuracy = evaluate(model, test, batch_size)
        record = {'epoch': epoch, 'loss': loss, 'accuracy': accuracy,
                  'seconds': time.perf_counter() - start}
        history.append(record)
        log('  epoch {epoch:3d}  train loss {loss:.4f}  '
            'test accuracy {accuracy:.4f}  {seconds:.2f}s'.format(**record))
    return history
