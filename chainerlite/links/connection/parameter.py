"""Parameter link: a link that holds one array as its parameter."""

from chainerlite import link
from chainerlite import variable
from chainerlite.functions.math import identity


class Parameter(link.Link):
    """Link holding one array as its only parameter ``W``.

    Calling it returns ``W`` through an identity function, so that the
    result is a new Variable in the graph and gradients reach ``W``. It is
    useful to put a free array among a model's parameters.

    Args:
        array (numpy.ndarray or cupy.ndarray): The initial value of ``W``
            (used as is, with its dtype).

    Attributes:
        W (Parameter): The parameter.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> p = L.Parameter(np.zeros((2, 3), np.float32))
        >>> p().shape
        (2, 3)
        >>> [name for name, _ in p.namedparams()]
        ['/W']

    """

    def __init__(self, array):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(array)

    def forward(self, volatile='off'):
        """Returns ``W`` through the identity function.

        Args:
            volatile: Chainer's argument of old versions; accepted and
                ignored.

        Returns:
            Variable: A Variable of the value of ``W`` whose gradient flows
            into ``W``.

        """
        return identity.identity(self.W)
