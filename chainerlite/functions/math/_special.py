"""Access to SciPy's (or CuPy's) special functions for F.lgamma & co."""

import numpy


def special_module(xp, func_name):
    """Returns ``scipy.special`` or ``cupyx.scipy.special`` for ``xp``.

    As in Chainer, the CPU path needs SciPy; without it an
    :class:`ImportError` naming ``func_name`` is raised.
    """
    if xp is numpy:
        try:
            import scipy.special
        except ImportError:
            raise ImportError(
                'SciPy is not available: {} cannot be computed on the '
                'CPU'.format(func_name))
        return scipy.special
    import cupyx.scipy.special
    return cupyx.scipy.special
