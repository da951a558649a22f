"""Warning categories of chainerlite (``chainer.warnings``)."""


class PerformanceWarning(RuntimeWarning):
    """Warns that code runs correctly but slower than it could.

    Raised, for example, when an operation has to fall back to a slower
    path for the given arrays.
    """
