"""Helpers shared by the memory hooks: byte units and aligned tables."""

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
        raise ValueError('unit must be one of %s, \'auto\' or '
                         '\'auto_foreach\'; got %r' % (_BYTE_UNITS, unit))
    return lambda n: _format(n, unit, divisor)


def _format(nbytes, unit, divisor):
    return '{:.2f}{}'.format(nbytes / divisor, unit)


def write_table(rows, file):
    """Writes rows of strings as right-aligned columns and flushes ``file``."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        file.write('  '.join(
            cell.rjust(width) for cell, width in zip(row, widths)))
        file.write('\n')
    file.flush()
