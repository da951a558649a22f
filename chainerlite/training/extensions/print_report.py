"""Printing the log entries as a table."""

from __future__ import annotations

import typing

from chainerlite.training import extension
from chainerlite.training.extensions import log_report as log_report_module
from chainerlite.training.extensions import util


class PrintReport(extension.Extension):
    """Prints the new entries of a :class:`LogReport` as table rows.

    The first call prints a header of the entry names; each column is at
    least 10 characters wide. Missing values are left blank.

    Args:
        entries (list of str): Keys of the log entries to print.
        log_report (str or LogReport): The LogReport extension, or its name
            in the trainer. A LogReport object given here is called by this
            extension (so it need not be registered to the trainer).
        out: Output stream (``sys.stdout`` by default); flushed after each
            call when it has a ``flush`` method.

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
        lines = []
        if not self._header_printed:
            lines.append(self._row(self._entries))
            self._header_printed = True
        while len(log) > self._log_len:
            entry = log[self._log_len]
            lines.append(self._row([_format(entry.get(key)) for key in self._entries]))
            self._log_len += 1
        if lines:
            if util.is_tty(out):
                out.write(util.ERASE_BELOW)
            out.write(''.join(line + '\n' for line in lines))
        if hasattr(out, 'flush'):
            out.flush()

    def _row(self, cells):
        return '  '.join(
            cell.ljust(width) for cell, width in zip(cells, self._widths)
        ).rstrip()

    def serialize(self, serializer):
        """Saves or loads a LogReport given as an object.

        After a resume the whole loaded log is printed again.
        """
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer['_log_report'])


def _format(value):
    if value is None:
        return ''
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return '{:g}'.format(value)
    return str(value)
