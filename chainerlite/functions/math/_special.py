"""SciPy's (or CuPy's) special functions as one-input nodes (F.lgamma...)."""

import numpy

from chainerlite.functions.math import _unary


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


class UnarySpecial(_unary.UnaryFloat):
    """``special_name`` is the SciPy function computing the forward."""

    special_name = None

    def compute(self, xp, x):
        special = special_module(xp, self.name)
        return getattr(special, self.special_name)(x)
