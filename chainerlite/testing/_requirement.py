"""The requirement checks of Chainer's testing modules.

``chainer.testing.attr``, ``.training`` and ``.unary_math_function_test``
each offer ``is_available()``, ``check_available()`` and ``get_error()``,
which tell whether the library the module needs (pytest, the mock
library) can be imported. Code built on Chainer calls them before using
the module.
"""

import importlib


def requirement_checks(module_name, requirement):
    """Returns ``(is_available, check_available, get_error)`` for a module.

    Args:
        module_name (str): The module that offers them (named in the
            error message).
        requirement (str): The module it needs; imported once, here.

    Returns:
        tuple: ``is_available()`` is True when ``requirement`` imports;
        ``check_available()`` raises ``RuntimeError`` naming
        ``module_name`` and the import error otherwise; ``get_error()``
        returns that ``ImportError`` or None.

    """
    try:
        importlib.import_module(requirement)
        error = None
    except ImportError as e:
        error = e

    def is_available():
        return error is None

    def check_available():
        if error is not None:
            raise RuntimeError(
                '%s is not available.\n\nReason: %s: %s'
                % (module_name, type(error).__name__, error)
            )

    def get_error():
        return error

    return is_available, check_available, get_error
