"""Printing the log entries as a table."""

from __future__ import annotations

import typing

from chainerlite.training import extension
from chainerlite.training.extensions import log_report as log_report_module
from chainerlite.training.extensions import util


class PrintReport(extension.Extension):
    """Prints the new entries of a :class:`LogReport` as table rows.

    The layout is Chainer's: the first call prints a header of the entry
    names, each column at least 10 characters wide and two blanks apart;
    each new log entry is a row, preceded by the terminal sequence that
    erases below the cursor (``\\033[J``, written to any stream, as
    Chainer does), whose cells are padded to their width and followed by
    two blanks. A number is printed with the ``g`` format; a missing
    value (or None) leaves its cell blank; a value that is no number is
    printed as text (Chainer's format fails on it).

    Args:
        entries (list of str): Keys of the log entries to print.
        log_report (str or LogReport): The LogReport extension, or its name
            in the trainer. A LogReport object given here is called by this
            extension (so it need not be registered to the trainer).
        out: Output stream (``sys.stdout`` by default); flushed after each
            row when it has a ``flush`` method.

    """

    def __init__(
        self,
        entries: typing.Iterable[str],
        log_report: typing.Any = 'LogReport',
        out: typing.Any = None,
    ) -> None:
        self._entries = list(entries)
        self._log_report = log_report
        self._out = out
        self._log_len = 0
        self._widths = [max(10, len(entry)) for entry in self._entries]
        self._header_printed = False

    def __call__(self, trainer):
        out = util.resolve_out(self._out)
        if not self._header_printed:
            out.write(
                '  '.join(e.ljust(w) for e, w in zip(self._entries, self._widths))
                + '\n'
            )
            self._header_printed = True
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, log_report_module.LogReport):
            log_report(trainer)
        else:
            raise TypeError(
                'PrintReport: log_report must be a LogReport or '
                'its name, got {!r}'.format(log_report)
            )
        log = log_report.log
        while len(log) > self._log_len:
            entry = log[self._log_len]
            out.write(util.ERASE_BELOW)
            out.write(
                ''.join(
                    _cell(entry, key, width)
                    for key, width in zip(self._entries, self._widths)
                )
                + '\n'
            )
            if hasattr(out, 'flush'):
                out.flush()
            self._log_len += 1

    def serialize(self, serializer):
        """Saves or loads a LogReport given as an object.

        After a resume the whole loaded log is printed again.
        """
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer['_log_report'])


def _cell(entry, key, width):
    # the value of key padded to width, then two blanks; blanks if missing
    value = entry.get(key)
    if value is None:
        return ' ' * (width + 2)
    try:
        return '{:<{}g}  '.format(value, width)
    except (TypeError, ValueError):
        # not a number (Chainer's format fails here): its text
        return str(value).ljust(width) + '  '
