"""SciPy's (or CuPy's) special functions as one-input nodes (F.lgamma...)."""

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check


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


class UnarySpecial(function_node.FunctionNode):
    """One float input; ``name`` is the label, ``special_name`` the SciPy
    function computing the forward."""

    name = None
    special_name = None

    @property
    def label(self):
        return self.name

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        special = special_module(backend.get_array_module(x), self.name)
        y = getattr(special, self.special_name)(x)
        return utils.force_array(y, x.dtype),
