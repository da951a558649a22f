"""Terminal helpers of the progress extensions."""

from __future__ import annotations

import collections
import datetime
import sys
import time
import typing

# Erases from the cursor to the end of the screen.
ERASE_BELOW = '\033[J'


def is_tty(out):
    """Whether ``out`` is an interactive terminal."""
    isatty = getattr(out, 'isatty', None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed file
        return False


def resolve_out(out):
    """``sys.stdout`` (as it is now) when ``out`` is None."""
    return sys.stdout if out is None else out


def bar(fraction, length):
    """A text bar such as ``[#####.....]`` for a fraction in [0, 1]."""
    fraction = min(max(fraction, 0.0), 1.0)
    filled = int(fraction * length)
    return '[{}{}]'.format('#' * filled, '.' * (length - filled))


def format_duration(seconds):
    """``H:MM:SS`` of a number of seconds."""
    return str(datetime.timedelta(seconds=int(round(seconds))))


class Speedometer(object):
    """Iterations per second over the recent window of samples."""

    def __init__(self, window=100) -> None:
        self._samples = collections.deque(maxlen=window)

    def add(self, iteration, now=None):
        self._samples.append((iteration, time.perf_counter() if now is None else now))

    def speed(self):
        """Iterations per second, or 0 before two samples."""
        if len(self._samples) < 2:
            return 0.0
        (i0, t0), (i1, t1) = self._samples[0], self._samples[-1]
        return (i1 - i0) / (t1 - t0) if t1 > t0 else 0.0


class Redrawer(object):
    """Draws a block of lines in place on a terminal.

    Each :meth:`draw` erases the previous block and writes the new one;
    the cursor is left at the top of the block, so that other output
    written in between (a log line) replaces it. :meth:`close` leaves the
    last block on the screen. Nothing is written when ``out`` is not a
    terminal.
    """

    def __init__(self, out: typing.Any) -> None:
        self.out = out
        self.enabled = is_tty(out)
        self._lines = 0

    def draw(self, lines):
        if not self.enabled:
            return
        out = self.out
        out.write(ERASE_BELOW)
        for line in lines:
            out.write(line + '\n')
        out.write('\033[{}A'.format(len(lines)))
        out.flush()
        self._lines = len(lines)

    def close(self):
        if self.enabled and self._lines:
            self.out.write('\033[{}B'.format(self._lines))
            self.out.flush()
            self._lines = 0


class ProgressBar(object):
    """Base class of progress displays redrawn in place on a terminal
    (Chainer's ``extensions.util.ProgressBar``, which extensions built on
    Chainer subclass).

    A subclass implements :meth:`get_lines`; :meth:`update` erases the
    previous display, writes the lines (each ending with its own newline)
    and moves the cursor back to the top of them. The cursor is moved with
    ANSI escape sequences, which Windows 10 consoles accept too.

    Args:
        bar_length (int): Width of the bars a subclass draws (50 when
            ``None``).
        out: Output stream (``sys.stdout`` when ``None``).

    """

    def __init__(self, bar_length=None, out=None) -> None:
        self._bar_length = 50 if bar_length is None else bar_length
        self._out = resolve_out(out)
        self._recent_timing: collections.deque = collections.deque(maxlen=100)

    def update_speed(self, iteration, epoch_detail):
        """Records the progress now and returns the speed over the last 100
        records: ``(iterations per second, epochs per second)``, both
        ``inf`` while no time has passed since the oldest record."""
        now = time.time()
        self._recent_timing.append((iteration, epoch_detail, now))
        first_iteration, first_epoch, first_time = self._recent_timing[0]
        elapsed = now - first_time
        if elapsed == 0:
            return float('inf'), float('inf')
        return (
            (iteration - first_iteration) / elapsed,
            (epoch_detail - first_epoch) / elapsed,
        )

    def get_lines(self):
        """Returns the lines to show, each ending with a newline."""
        raise NotImplementedError(
            '{}.get_lines is not implemented'.format(type(self).__name__)
        )

    def update(self):
        """Replaces the display with :meth:`get_lines`."""
        self.erase_console()
        lines = self.get_lines()
        for line in lines:
            self._out.write(line)
        self.move_cursor_up(len(lines))
        self.flush()

    def close(self):
        """Erases the display."""
        self.erase_console()
        self.flush()

    def erase_console(self):
        """Erases from the cursor to the end of the screen."""
        self._out.write(ERASE_BELOW)

    def move_cursor_up(self, n):
        """Moves the cursor up ``n`` lines."""
        self._out.write('\033[{:d}A'.format(n))

    def flush(self):
        """Flushes the output stream if it can be flushed."""
        flush = getattr(self._out, 'flush', None)
        if flush is not None:
            flush()
