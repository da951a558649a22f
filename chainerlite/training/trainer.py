"""The training loop: :class:`Trainer`."""

from __future__ import annotations

import collections
import os
import sys
import time
import traceback
import typing

from chainerlite import reporter as reporter_module
from chainerlite import serializer as serializer_module
from chainerlite.training import _random_states
from chainerlite.training import extension as extension_module
from chainerlite.training import util
from chainerlite.utils import argument

if typing.TYPE_CHECKING:
    from chainerlite.training import updater as updater_module
    from chainerlite.training.util import TriggerSpec


class _ExtensionEntry(object):
    def __init__(self, extension, priority, trigger, call_before_training):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


def _print_error(message):
    sys.stderr.write(message)
    sys.stderr.flush()


class Trainer(object):
    """Runs the training loop: updates, then extensions, until stopped.

    Each iteration makes a fresh :attr:`observation` dict current in
    :attr:`reporter`, calls ``updater.update()``, then each extension whose
    trigger fires, in decreasing order of priority (in the order they were
    added for equal priorities). Values reported during the iteration
    (losses, accuracies) end up in :attr:`observation`.

    Args:
        updater (~chainerlite.training.Updater): The updater.
        stop_trigger: When to stop (see :func:`get_trigger`), e.g.
            ``(20, 'epoch')``; ``None`` never stops.
        out (str): Output directory of the extensions (created by
            :meth:`run`).
        extensions (list): Extensions to :meth:`extend` the trainer with.

    Attributes:
        updater: The updater.
        stop_trigger: The stop trigger.
        out (str): The output directory.
        observation (dict): The values reported in the current iteration.
        reporter (~chainerlite.Reporter): The reporter; the targets of the
            optimizers and their child links are registered as observers
            under the optimizers' names.

    """

    def __init__(
        self,
        updater: updater_module.Updater,
        stop_trigger: TriggerSpec = None,
        out: str = 'result',
        extensions: typing.Iterable[typing.Any] | None = None,
    ) -> None:
        self.updater = updater
        self.stop_trigger = util.get_trigger(stop_trigger)
        self.observation = {}
        self.out = out
        reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            reporter.add_observer(name, optimizer.target)
            reporter.add_observers(name, optimizer.target.namedlinks(skipself=True))
        self.reporter = reporter
        self._extensions = collections.OrderedDict()
        self._done = False
        self._start_at: float | None = None
        self._final_elapsed_time: float | None = None
        self._snapshot_elapsed_time = 0.0
        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def elapsed_time(self) -> float | None:
        """Seconds of training so far, including the time before the
        snapshot the trainer was resumed from.

        Raises:
            RuntimeError: If the training has not started.

        """
        # a trainer marked done answers its final time, None if it has none
        # (as Chainer's, which tests that mark a mock trainer done rely on)
        if self._done or self._final_elapsed_time is not None:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('Trainer.elapsed_time: the training has not started yet')
        return time.perf_counter() - self._start_at + self._snapshot_elapsed_time

    def extend(
        self,
        extension: typing.Any,
        name: str | None = None,
        trigger: TriggerSpec = None,
        priority: int | None = None,
        call_before_training: bool = False,
        **kwargs: typing.Any,
    ) -> None:
        """Registers an extension.

        Args:
            extension: A callable of the trainer (an
                :class:`~chainerlite.training.Extension`, a function, ...).
            name (str): Its name; by default its ``name``, ``default_name``
                or ``__name__`` attribute. A taken name gets a suffix
                (``_1``, ``_2``, ...). The final name is set as the
                extension's ``name`` attribute.
            trigger: When to call it; by default its ``trigger`` attribute
                or ``(1, 'iteration')``.
            priority (int): Its priority; by default its ``priority``
                attribute or :data:`PRIORITY_READER`.
            call_before_training (bool): Also call it once before the first
                iteration.

        Raises:
            TypeError: If no name can be found, the trigger is invalid or an
                unknown keyword argument is given.
            ValueError: If the name is ``'training'``, the trigger's unit is
                invalid, or the removed ``invoke_before_training`` is
                given.

        """
        argument.parse_kwargs(
            kwargs,
            invoke_before_training='Trainer.extend: '
            'invoke_before_training was removed; use call_before_training '
            'or the extension\'s initialize method',
        )
        if name is None:
            name = getattr(extension, 'name', None)
        if name is None:
            name = getattr(extension, 'default_name', None)
        if name is None:
            name = getattr(extension, '__name__', None)
        if name is None:
            raise TypeError(
                'Trainer.extend: no name given for the extension '
                '{!r}, and it has none'.format(extension)
            )
        if name == 'training':
            raise ValueError('Trainer.extend: the name \'training\' is reserved')
        if trigger is None:
            trigger = getattr(extension, 'trigger', extension_module.Extension.trigger)
        try:
            trigger = util.get_trigger(trigger)
        except (TypeError, ValueError) as e:
            raise type(e)(
                'Trainer.extend: invalid trigger for the extension {!r}: {}'.format(
                    name, e
                )
            )
        if priority is None:
            priority = getattr(extension, 'priority', extension_module.PRIORITY_READER)
        unique_name = name
        ordinal = 0
        while unique_name in self._extensions:
            ordinal += 1
            unique_name = '{}_{}'.format(name, ordinal)
        try:
            extension.name = unique_name
        except AttributeError:
            pass  # e.g. a bound method: its name is kept here only
        self._extensions[unique_name] = _ExtensionEntry(
            extension, priority, trigger, call_before_training
        )

    def get_extension(self, name: str) -> typing.Any:
        """Returns the extension registered under ``name``.

        Raises:
            ValueError: If there is none.

        """
        entry = self._extensions.get(name)
        if entry is None:
            raise ValueError(
                'Trainer.get_extension: no extension named {!r}'.format(name)
            )
        return entry.extension

    def _sorted_entries(self):
        # sorted() is stable: equal priorities keep their insertion order.
        return sorted(
            self._extensions.items(), key=lambda item: item[1].priority, reverse=True
        )

    def run(self, show_loop_exception_msg: bool = True) -> None:
        """Runs the training loop until the stop trigger fires.

        Before the loop, the output directory is created and the
        extensions' ``initialize`` methods run (except for extensions whose
        trigger says it has ``finished``), then the extensions with
        ``call_before_training``. If the loop raises, the message is printed
        (unless ``show_loop_exception_msg`` is False), each extension's
        ``on_error(trainer, exc, tb)`` runs, and the exception propagates.
        In any case, each extension's ``finalize`` and the updater's
        ``finalize`` run at the end.

        Raises:
            RuntimeError: If the trainer has already run to completion.

        """
        if self._done:
            raise RuntimeError('Trainer.run: the training loop cannot run twice')
        os.makedirs(self.out, exist_ok=True)
        entries = self._sorted_entries()
        self._final_elapsed_time = None
        self._start_at = time.perf_counter()
        try:
            self._initialize(entries)
            self._loop(entries, show_loop_exception_msg)
        except BaseException:
            self._final_elapsed_time = self.elapsed_time
            self._finalize(entries, raise_error=False)
            raise
        self._final_elapsed_time = self.elapsed_time
        self._finalize(entries, raise_error=True)
        self._done = True

    @property
    def is_before_training(self):
        """True before the first iteration (the updater's iteration is 0),
        as in Chainer: the extensions with ``call_before_training`` run
        then, and not again when a run resumes from a snapshot."""
        return self.updater.iteration == 0

    def _initialize(self, entries):
        for _, entry in entries:
            initializer = getattr(entry.extension, 'initialize', None)
            if initializer and not getattr(entry.trigger, 'finished', False):
                initializer(self)
        self.observation = {}
        if not self.is_before_training:
            return
        with self.reporter.scope(self.observation):
            for _, entry in entries:
                if entry.call_before_training:
                    entry.extension(self)

    def _loop(self, entries, show_loop_exception_msg):
        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        try:
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for _, entry in entries:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as e:
            tb = sys.exc_info()[2]
            if show_loop_exception_msg:
                # the lines Chainer writes, which logs may be searched for
                _print_error(
                    'Exception in main training loop: {}\nTraceback (most '
                    'recent call last):\n{}Will finalize trainer extensions '
                    'and updater before reraising the exception.\n'.format(
                        e, ''.join(traceback.format_tb(tb))
                    )
                )
            for _, entry in entries:
                handler = getattr(entry.extension, 'on_error', None)
                if handler is None:
                    continue
                try:
                    handler(self, e, tb)
                except Exception as handler_error:
                    _print_error(
                        'Exception in error handler: {}\nTraceback (most '
                        'recent call last):\n{}'.format(
                            handler_error,
                            ''.join(traceback.format_tb(sys.exc_info()[2])),
                        )
                    )
            raise

    def _finalize(self, entries, raise_error):
        # Every finalizer runs; the first error (if any) is raised after,
        # unless the training already failed.
        first_error = None
        finalizers = [
            getattr(entry.extension, 'finalize', None) for _, entry in entries
        ]
        finalizers.append(self.updater.finalize)
        for finalize in finalizers:
            if finalize is None:
                continue
            try:
                finalize()
            except Exception as e:
                if first_error is None:
                    first_error = e
        if first_error is not None:
            if raise_error:
                raise first_error
            _print_error('Exception while finalizing: {!r}\n'.format(first_error))

    def serialize(self, serializer):
        """Saves or loads the state of the training.

        The keys follow Chainer's snapshots: ``updater/...``,
        ``stop_trigger/...``, ``extensions/NAME/...``,
        ``extension_triggers/NAME/...`` and ``_snapshot_elapsed_time``;
        ``_random_state/numpy`` (not in Chainer's) holds the state of
        NumPy's global generator, restored on loading when present, so
        that shuffling and dropout go on as in a run that was not
        interrupted.
        """
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])
        extensions = serializer['extensions']
        triggers = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(extensions[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(triggers[name])
        if isinstance(serializer, serializer_module.Serializer):
            # as in Chainer, a trainer that has not started cannot be saved
            # (RuntimeError of elapsed_time)
            serializer('_snapshot_elapsed_time', self.elapsed_time)
        else:
            self._snapshot_elapsed_time = float(
                serializer('_snapshot_elapsed_time', self._snapshot_elapsed_time)
            )
        _random_states.serialize(serializer['_random_state'])
