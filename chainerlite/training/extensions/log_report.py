"""Accumulating observations into a log, written as JSON."""

from __future__ import annotations

import json
import os
import typing

from chainerlite import reporter
from chainerlite.serializers import _checks
from chainerlite.training import extension
from chainerlite.training import util
from chainerlite.training.extensions import _atomic
from chainerlite.utils import argument

if typing.TYPE_CHECKING:
    from chainerlite.training.util import TriggerSpec


class LogReport(extension.Extension):
    """Averages the observed values over intervals and logs them.

    Called every iteration, it accumulates the observation (the values
    under ``keys``, or all of them); when ``trigger`` fires (or at a call
    before the first iteration) it appends the means, with ``epoch``,
    ``iteration`` and ``elapsed_time``, to :attr:`log`, and writes the
    whole log as JSON to ``trainer.out/filename`` (replacing the file
    atomically).

    Args:
        keys (list of str): Keys to log; all the observed keys when
            ``None``.
        trigger: Interval of the log entries (``(1, 'epoch')``).
        postprocess (callable): Called with each new entry (a dict) before
            it is stored; it may edit it.
        filename (str): Name of the log file, formatted with the entry
            (``'log'`` by default); ``None`` (given as ``log_name``) writes
            no file.
        log_name (str): Former name of ``filename``.

    """

    def __init__(
        self,
        keys: typing.Iterable[str] | None = None,
        trigger: TriggerSpec = (1, 'epoch'),
        postprocess: typing.Callable[..., typing.Any] | None | None = None,
        filename: str | None = None,
        **kwargs,
    ) -> None:
        (log_name,) = argument.parse_kwargs(kwargs, ('log_name', 'log'))
        if filename is None:
            filename = log_name
        self._keys = keys
        self._trigger = util.get_trigger(trigger)
        self._postprocess = postprocess
        self._log_name = filename
        self._log = []
        self._init_summary()

    def __call__(self, trainer):
        """Accumulates the observation; logs the means when triggered."""
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add(
                {key: observation[key] for key in self._keys if key in observation}
            )
        # as in Chainer, a call before the first iteration (an extension
        # called before training) logs without asking the trigger
        if not (trainer.is_before_training or self._trigger(trainer)):
            return
        entry = {
            key: float(value) for key, value in self._summary.compute_mean().items()
        }
        updater = trainer.updater
        entry['epoch'] = updater.epoch
        entry['iteration'] = updater.iteration
        entry['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            path = os.path.join(trainer.out, self._log_name.format(**entry))
            _atomic.write_file(path, self._write_log)
        self._init_summary()

    def _write_log(self, path):
        with open(path, 'w') as f:
            json.dump(self._log, f, indent=4)

    @property
    def log(self):
        """list of dict: The log entries so far."""
        return self._log

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        """Saves or loads the trigger, the running summary and the log."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])
        self._log = _checks.load_json(
            serializer, '_log', json.dumps(self._log), 'LogReport.serialize', list
        )
