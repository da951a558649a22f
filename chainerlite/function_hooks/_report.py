"""Helpers shared by the memory hooks: byte units and aligned tables."""

import collections

_BYTE_UNITS = ('B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB')


def byte_unit(nbytes):
    """Returns ``(unit, divisor)``: the largest 1024-based unit of ``nbytes``.

    The unit is the largest one in which ``abs(nbytes)`` is at least one
    (bytes for zero and for anything under a kilobyte).
    """
    size = abs(nbytes)
    divisor = 1
    for unit in _BYTE_UNITS[:-1]:
        if size < divisor * 1024:
            return unit, divisor
        divisor *= 1024
    return _BYTE_UNITS[-1], divisor


def byte_formatter(unit, values):
    """Returns a function that writes a byte count in the given unit.

    Args:
        unit (str): One of ``'B'``, ``'KB'``, ... ``'ZB'``, or ``'auto'`` (the
            unit of the largest of ``values``) or ``'auto_foreach'`` (a unit
            chosen for each value).
        values (iterable of int): The byte counts of the report (for
            ``'auto'``).

    Returns:
        callable: Maps a byte count to a string such as ``'1.50KB'``.

    Raises:
        ValueError: If ``unit`` is not one of the above.
    """
    if unit == 'auto_foreach':
        return lambda n: _format(n, *byte_unit(n))
    if unit == 'auto':
        unit, divisor = byte_unit(max((abs(v) for v in values), default=0))
    elif unit in _BYTE_UNITS:
        divisor = 1024 ** _BYTE_UNITS.index(unit)
    else:
        raise ValueError(
            'unit must be one of %s, \'auto\' or '
            '\'auto_foreach\'; got %r' % (_BYTE_UNITS, unit)
        )
    return lambda n: _format(n, unit, divisor)


def _format(nbytes, unit, divisor):
    return '{:.2f}{}'.format(nbytes / divisor, unit)


def write_table(rows, file):
    """Writes rows of strings as right-aligned columns and flushes ``file``."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        file.write('  '.join(cell.rjust(width) for cell, width in zip(row, widths)))
        file.write('\n')
    file.flush()


def summarize(call_history, fields):
    """Gathers the records of a hook's calls per function name.

    Args:
        call_history (list of tuple): ``(function_name, value, ...)`` records.
        fields (sequence of tuple): One ``(key, combine)`` pair per value of
            a record: the key the value is summed up under and the function
            ``combine(total, value)`` that adds it in (``operator.add``,
            ``max``); totals start at zero.

    Returns:
        collections.OrderedDict: Maps each function name, in order of first
        appearance, to a dict of the totals and ``'occurrence'`` (the number
        of calls).
    """
    result = collections.OrderedDict()
    for name, *values in call_history:
        record = result.get(name)
        if record is None:
            record = result[name] = dict.fromkeys([key for key, _ in fields], 0)
            record['occurrence'] = 0
        for (key, combine), value in zip(fields, values):
            record[key] = combine(record[key], value)
        record['occurrence'] += 1
    return result


def write_byte_report(summary, columns, unit, file):
    """Writes a :func:`summarize` result as a table of byte counts.

    Args:
        summary (dict): Maps function names to records of totals.
        columns (sequence of tuple): ``(key, header)`` of each byte column,
            between the function name and the number of calls.
        unit (str): Unit of the sizes, as :func:`byte_formatter` takes it.
        file: Text stream the table is written to.
    """
    keys = [key for key, _ in columns]
    fmt = byte_formatter(unit, [r[key] for r in summary.values() for key in keys])
    rows = [
        ('FunctionName',) + tuple(header for _, header in columns) + ('Occurrence',)
    ]
    for name, r in summary.items():
        rows.append(
            (name,) + tuple(fmt(r[key]) for key in keys) + (str(r['occurrence']),)
        )
    write_table(rows, file)
