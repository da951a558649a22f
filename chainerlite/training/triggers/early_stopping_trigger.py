"""Stop trigger that ends the training when a monitored value stops
improving."""

from __future__ import annotations

import operator
import typing
import warnings

from chainerlite import reporter
from chainerlite.training import util
from chainerlite.utils import argument

if typing.TYPE_CHECKING:
    from chainerlite.training.util import TriggerSpec


class EarlyStoppingTrigger(object):
    """Stops the training when ``monitor`` has not improved for
    ``patience`` checks, or when ``max_trigger`` fires.

    At each check (``check_trigger``) the mean of the monitored value since
    the previous check is compared with the best mean so far.

    Args:
        check_trigger: When to compare (see
            :func:`~chainerlite.training.get_trigger`).
        monitor (str): Key of the observed value.
        patience (int): Number of checks without improvement before the
            training stops (``patients`` is an accepted alias).
        mode (str): ``'max'``, ``'min'`` or ``'auto'`` (``'max'`` if the
            key contains ``'accuracy'``, else ``'min'``); any other word is
            taken as ``'auto'``, as Chainer does.
        verbose (bool): Print the comparison at construction and a message
            when stopping early.
        max_trigger: Stop trigger used in any case (the maximum length of
            the training).

    Raises:
        TypeError: If both ``patience`` and ``patients`` are given, or an
            unknown keyword argument is.

    """

    def __init__(
        self,
        check_trigger: TriggerSpec = (1, 'epoch'),
        monitor: str = 'main/loss',
        patience: int | None = None,
        mode: str = 'auto',
        verbose: bool = False,
        max_trigger: TriggerSpec = (100, 'epoch'),
        **kwargs,
    ) -> None:
        (patients,) = argument.parse_kwargs(kwargs, ('patients', None))
        if patience is not None and patients is not None:
            raise TypeError(
                'EarlyStoppingTrigger: give patience or its alias patients, not both'
            )
        if patience is None:
            patience = 3 if patients is None else patients
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        self._max_trigger = util.get_trigger(max_trigger)
        self._interval_trigger = util.get_trigger(check_trigger)
        self._summary = reporter.DictSummary()
        if mode not in ('max', 'min'):  # 'auto', as any other word is
            mode = 'max' if 'accuracy' in monitor else 'min'
        self._better = operator.gt if mode == 'max' else operator.lt
        if verbose:
            print(
                'early stopping: operator is {}'.format(
                    'greater' if mode == 'max' else 'less'
                )
            )
        #: the best mean so far (-inf or inf before the first check)
        self.best = float('-inf') if mode == 'max' else float('inf')

    def __call__(self, trainer):
        """Returns whether the training should stop."""
        # As in Chainer, the value counts before the max_trigger check, so
        # one reported at a call that stops on max_trigger stays summed.
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        value = self._value_at_check(observation)
        if value is None:
            return False
        self._summary = reporter.DictSummary()
        if self._better(value, self.best):
            self.best = value
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose:
                print('Epoch {}: early stopping'.format(trainer.updater.epoch))
            return True
        return False

    def _value_at_check(self, observation):
        # The mean of the monitored values since the last check, or None
        # where the observation lacks the value now: as Chainer's, such a
        # check is skipped (with a warning), and the values summed so far
        # wait for the next one.
        if self.monitor not in observation:
            self._warn_missing()
            return None
        return float(self._summary.compute_mean()[self.monitor])

    def _warn_missing(self):
        warnings.warn(
            'EarlyStoppingTrigger: {!r} is not in the observation'.format(self.monitor)
        )

    def get_training_length(self):
        """Returns the length of ``max_trigger`` (if it tells one)."""
        return self._max_trigger.get_training_length()
