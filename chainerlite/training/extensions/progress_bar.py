"""A progress bar of the training on the terminal."""

from __future__ import annotations

import time
import typing

from chainerlite.training import extension
from chainerlite.training.extensions import util

# Slow iterations still get a fresh bar this often.
_MAX_SECONDS_BETWEEN_DRAWS = 1.0


class ProgressBar(extension.Extension):
    """Shows the progress of the training on the terminal.

    Every ``update_interval`` iterations (and at least every second) it
    redraws, in place::

             total [#########.........................] 18.33%
        this epoch [############################......] 91.67%
              1100 iter, 18 epoch / 100 epochs
            11.374 iters/sec. Estimated time to finish: 0:01:11.

    The speed is measured over the recent iterations. When ``out`` is not
    a terminal (a file, a pipe) nothing is written.

    Args:
        training_length (tuple): ``(length, unit)`` of the training; by
            default the stop trigger's ``get_training_length()``.
        update_interval (int): Iterations between redraws.
        bar_length (int): Width of the bars in characters.
        out: Output stream (``sys.stdout`` by default).

    """

    def __init__(
        self,
        training_length: tuple[float, str] | None = None,
        update_interval: int = 100,
        bar_length: int = 50,
        out: typing.Any = None,
    ) -> None:
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._redrawer = None
        self._updater = None
        self._last_draw = 0.0
        self._speed = util.Speedometer()

    def __call__(self, trainer):
        if self._redrawer is None:
            self._redrawer = util.Redrawer(util.resolve_out(self._out))
        if not self._redrawer.enabled:
            return
        if self._training_length is None:
            self._training_length = _training_length(trainer.stop_trigger)
        self._updater = trainer.updater
        iteration = trainer.updater.iteration
        now = time.perf_counter()
        self._speed.add(iteration, now)
        if (
            iteration % self._update_interval == 0
            or iteration == 1
            or now - self._last_draw >= _MAX_SECONDS_BETWEEN_DRAWS
        ):
            self._redrawer.draw(self._lines(trainer.updater))
            self._last_draw = now

    def _lines(self, updater):
        length, unit = self._training_length
        iteration = updater.iteration
        epoch_detail = updater.epoch_detail
        done = iteration if unit == 'iteration' else epoch_detail
        fraction = done / length
        width = self._bar_length
        lines = ['     total {} {:6.2%}'.format(util.bar(fraction, width), fraction)]
        this_epoch = epoch_detail % 1
        lines.append(
            'this epoch {} {:6.2%}'.format(util.bar(this_epoch, width), this_epoch)
        )
        lines.append(
            '{:10} iter, {} epoch / {} {}s'.format(
                iteration, updater.epoch, length, unit
            )
        )
        speed = self._speed.speed()
        if speed > 0:
            if unit == 'iteration':
                remaining = (length - iteration) / speed
            else:
                remaining = (
                    (length - epoch_detail)
                    * iteration
                    / max(epoch_detail, 1e-12)
                    / speed
                )
            lines.append(
                '{:10.5g} iters/sec. Estimated time to finish: {}.'.format(
                    speed, util.format_duration(max(remaining, 0))
                )
            )
        else:
            lines.append(
                '{:>10} iters/sec. Estimated time to finish: unknown.'.format('-')
            )
        return lines

    def finalize(self):
        """Draws the final state and leaves it on the screen."""
        if self._updater is not None and self._redrawer.enabled:
            self._redrawer.draw(self._lines(self._updater))
            self._redrawer.close()


def _training_length(stop_trigger):
    get_length = getattr(stop_trigger, 'get_training_length', None)
    if get_length is None:
        raise TypeError(
            'ProgressBar: the stop trigger {!r} does not tell the length of '
            'the training; give training_length=(length, unit)'.format(stop_trigger)
        )
    return get_length()
