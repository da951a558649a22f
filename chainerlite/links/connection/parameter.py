"""Parameter link: a link that holds one array as its parameter."""

import numpy

from chainerlite import backend
from chainerlite import link
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
        # As in Chainer, W is a parameter of NaN (array, gradient) of the
        # array's dtype that is then given the array: its gradient starts as
        # NaN and copy('init') re-creates NaN in that dtype.
        self.add_param('W', array.shape, dtype=array.dtype)
        device = backend.get_device_from_array(array)
        if device.xp is not numpy:
            self.to_device(device)
        self.W.array = array

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
