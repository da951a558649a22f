"""A trainer whose updater is a mock, for testing extensions and triggers."""

from unittest import mock

from chainerlite.testing._requirement import requirement_checks

# Whether the mock library is there (Chainer's check trio).
is_available, check_available, get_error = requirement_checks(__name__, 'unittest.mock')


def _advance(updater, iter_per_epoch):
    updater.update_core()
    updater.iteration += 1
    iteration = updater.iteration
    updater.epoch = iteration // iter_per_epoch
    updater.epoch_detail = iteration / iter_per_epoch
    updater.previous_epoch_detail = (iteration - 1) / iter_per_epoch
    updater.is_new_epoch = (
        iteration - 1
    ) // iter_per_epoch != iteration // iter_per_epoch


def get_trainer_with_mock_updater(
    stop_trigger=(10, 'iteration'), iter_per_epoch=10, extensions=None
):
    """Returns a :class:`~chainerlite.training.Trainer` with a mock updater.

    The updater is a :class:`unittest.mock.Mock` whose ``update()`` calls
    ``update_core()`` (a mock method tests may replace) and advances
    ``iteration``, ``epoch``, ``epoch_detail``, ``previous_epoch_detail``
    and ``is_new_epoch`` as if an epoch had ``iter_per_epoch`` iterations.
    Its ``get_all_optimizers()`` returns an empty dict.

    Args:
        stop_trigger: Stop trigger of the trainer.
        iter_per_epoch (int or float): Iterations per epoch (may be
            fractional).
        extensions (list): Extensions of the trainer.

    Returns:
        ~chainerlite.training.Trainer: The trainer.

    """
    from chainerlite import training  # imported on use: it is heavy

    updater = mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0
    updater.previous_epoch_detail = None
    updater.is_new_epoch = True
    updater.update = lambda: _advance(updater, iter_per_epoch)
    return training.Trainer(updater, stop_trigger, extensions=extensions)
