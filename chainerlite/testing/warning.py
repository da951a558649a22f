"""Asserting that code warns."""

import contextlib
import warnings


@contextlib.contextmanager
def assert_warns(expected):
    """Asserts that the block issues a warning of the class ``expected``.

    Every warning is recorded while the block runs, also one already issued
    from the same place and one that a filter would turn into an error, so
    the check does not depend on what ran before.

    Args:
        expected (type): The warning class (a subclass of it also counts).

    Raises:
        AssertionError: If the block issues no such warning.

    .. admonition:: Example

        >>> import warnings
        >>> from chainerlite import testing
        >>> with testing.assert_warns(DeprecationWarning):
        ...     warnings.warn('old', DeprecationWarning)

    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        yield
    if not any(issubclass(w.category, expected) for w in caught):
        seen = ', '.join(sorted({w.category.__name__ for w in caught}))
        raise AssertionError(
            '{} not issued{}'.format(
                expected.__name__, ' (issued: {})'.format(seen) if seen else ''
            )
        )
