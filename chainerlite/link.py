"""Building blocks of models: links that hold parameters, and their trees."""

import contextlib
import warnings

import numpy

from chainerlite import backend
from chainerlite import initializers
from chainerlite import variable
from chainerlite.backends import cuda


class Link:
    """Building block of models: a callable object that owns parameters.

    A link registers the :class:`~chainerlite.Parameter` objects assigned
    to its attributes inside :meth:`init_scope`, and persistent values added
    with :meth:`add_persistent`. Calling a link calls its ``forward`` method,
    which subclasses define.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> class Scale(chainer.link.Link):
        ...     def __init__(self, size):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.w = chainer.variable.Parameter(1.0, (size,))
        ...     def forward(self, x):
        ...         return x * F.broadcast_to(self.w, x.shape)
        >>> scale = Scale(3)
        >>> [name for name, _ in scale.namedparams()]
        ['/w']
        >>> scale(np.ones((2, 3), np.float32)).shape
        (2, 3)

    Attributes:
        name (str): The name of this link in its parent, or ``None``.

    """

    def __init__(self):
        self._params = set()
        self._persistent = set()
        self._within_init_scope = False
        self.name = None

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, variable.Parameter):
            value.name = name
            self._params.add(name)
            self._persistent.discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._params.discard(name)
        self._persistent.discard(name)
        super().__delattr__(name)

    @property
    def within_init_scope(self):
        """bool: ``True`` inside ``with link.init_scope():``."""
        return getattr(self, '_within_init_scope', False)

    @contextlib.contextmanager
    def init_scope(self):
        """Registers the parameters and links assigned inside the block.

        Inside ``with self.init_scope():``, assigning a
        :class:`~chainerlite.Parameter` (or, for a :class:`Chain`, a link)
        to an attribute registers it under the attribute name.
        """
        old = self._within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    @property
    def xp(self):
        """module: The array module (``numpy`` or ``cupy``) of the params.

        It is ``numpy`` when no parameter has been initialized yet.
        """
        for param in self.params(include_uninit=False):
            return backend.get_array_module(param.array)
        return numpy

    def add_param(self, name, shape=None, dtype=numpy.float32,
                  initializer=None):
        """Registers a new parameter.

        Args:
            name (str): Name of the parameter, also its attribute name.
            shape (int or tuple of int): Shape of the parameter; ``None``
                leaves it uninitialized until it is given a shape.
            dtype: Data type of the parameter.
            initializer: Initializer of the array (see
                :func:`~chainerlite.initializers._get_initializer`); the
                array is filled with NaN when ``None``.

        Raises:
            AttributeError: If the link already has an attribute ``name``.

        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new parameter {}: attribute exists'.format(
                    name))
        if initializer is None:
            initializer = initializers.NaN(dtype)
        with self.init_scope():
            setattr(self, name, variable.Parameter(initializer, shape))

    def add_persistent(self, name, value):
        """Registers a persistent value: state saved with the link.

        Args:
            name (str): Name of the value, also its attribute name.
            value: An array, a scalar or ``None``.

        Raises:
            AttributeError: If the link already has an attribute ``name``.

        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new persistent value {}: attribute '
                'exists'.format(name))
        self._persistent.add(name)
        self._params.discard(name)
        super().__setattr__(name, value)

    def _named_children(self):
        return ()

    def namedparams(self, include_uninit=True):
        """Yields the parameters of this link and its descendants by path.

        Args:
            include_uninit (bool): Whether to yield parameters whose array
                is not allocated yet.

        Yields:
            tuple of str and Parameter: The path (``'/name'``, or
            ``'/child/name'`` for a child's) and the parameter.

        """
        d = self.__dict__
        for name in sorted(self._params):
            if include_uninit or d[name].array is not None:
                yield '/' + name, d[name]
        for name, child in self._named_children():
            for path, param in child.namedparams(include_uninit):
                yield '/' + name + path, param

    def params(self, include_uninit=True):
        """Yields the parameters of this link and its descendants.

        Args:
            include_uninit (bool): Whether to yield parameters whose array
                is not allocated yet.

        Yields:
            Parameter: Each parameter.

        """
        for _, param in self.namedparams(include_uninit):
            yield param

    def namedlinks(self, skipself=False):
        """Yields this link and its descendants by path.

        Args:
            skipself (bool): Whether to leave this link itself out.

        Yields:
            tuple of str and Link: The path (``'/'`` for this link,
            ``'/child'``, ``'/child/grandchild'``, ...) and the link.

        """
        if not skipself:
            yield '/', self
        for name, child in self._named_children():
            yield '/' + name, child
            for path, link in child.namedlinks(skipself=True):
                yield '/' + name + path, link

    def links(self, skipself=False):
        """Yields this link and its descendants.

        Args:
            skipself (bool): Whether to leave this link itself out.

        Yields:
            Link: Each link.

        """
        for _, link in self.namedlinks(skipself):
            yield link

    def children(self):
        """Yields the child links (none for a plain :class:`Link`).

        Yields:
            Link: Each direct child.

        """
        for _, child in self._named_children():
            yield child

    def cleargrads(self):
        """Sets the gradient of every parameter to ``None``."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self):
        """Fills the gradient of every parameter with zeros.

        .. deprecated::
            Use :meth:`cleargrads`, which avoids the memory and time of the
            zero-filled arrays.

        """
        warnings.warn(
            'Link.zerograds is deprecated. Use Link.cleargrads instead.',
            DeprecationWarning)
        for param in self.params():
            param.zerograd()

    def count_params(self):
        """Counts the elements of all the parameters.

        Uninitialized parameters are left out, with a warning each.

        Returns:
            int: The total number of parameter elements.

        """
        size = 0
        for name, param in self.namedparams():
            if param.array is None:
                warnings.warn(
                    'Parameter \'{}\' has not been initialized, so the '
                    'resulting count will not include the number of '
                    'parameters in it.'.format(name))
                continue
            size += param.size
        return size

    def to_cpu(self):
        """Moves the parameters and persistent arrays to the CPU, in place.

        Returns:
            Link: This link.

        """
        for link in self.links():
            d = link.__dict__
            for name in link._params:
                d[name].to_cpu()
            for name in link._persistent:
                d[name] = cuda.to_cpu(d[name])
        return self


class Chain(Link):
    """Link that holds child links, registered in :meth:`init_scope`.

    .. admonition:: Example

        >>> import chainerlite as chainer
        >>> import chainerlite.links as L
        >>> class MLP(chainer.link.Chain):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.l1 = L.Linear(4, 3)
        ...             self.l2 = L.Linear(3, 2)
        >>> [path for path, _ in MLP().namedparams()]
        ['/l1/W', '/l1/b', '/l2/W', '/l2/b']

    """

    def __init__(self):
        super().__init__()
        self._children = set()

    def __getitem__(self, name):
        """Returns the child link named ``name``."""
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError(
                    'cannot register a new link {}: attribute exists'.format(
                        name))
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Registers a child link.

        Args:
            name (str): Name of the child, also its attribute name.
            link (Link): The child.

        Raises:
            AttributeError: If the chain already has an attribute ``name``.
            TypeError: If ``link`` is not a :class:`Link`.

        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new link {}: attribute exists'.format(name))
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child')
        with self.init_scope():
            setattr(self, name, link)

    def _named_children(self):
        d = self.__dict__
        return [(name, d[name]) for name in sorted(self._children)]


class ChainList(Link):
    """Link that holds a list of child links, named by their index.

    Args:
        *links (Link): The initial children.

    .. admonition:: Example

        >>> import chainerlite as chainer
        >>> import chainerlite.links as L
        >>> layers = chainer.link.ChainList(L.Linear(4, 3))
        >>> layers.append(L.Linear(3, 2))
        >>> len(layers), layers[1].name
        (2, '1')
        >>> [path for path, _ in layers.namedparams()]
        ['/0/W', '/0/b', '/1/W', '/1/b']

    """

    def __init__(self, *links):
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            raise TypeError(
                'cannot register a new link within a "with '
                'chainlist.init_scope():" block.')
        super().__setattr__(name, value)

    def __getitem__(self, index):
        """Returns the child (or list of children) at ``index``."""
        return self._children[index]

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def add_link(self, link):
        """Appends a child link, named by its index.

        Args:
            link (Link): The new child.

        """
        link.name = str(len(self._children))
        self._children.append(link)

    def append(self, link):
        """Appends a child link (same as :meth:`add_link`).

        Args:
            link (Link): The new child.

        """
        self.add_link(link)

    def _named_children(self):
        return [(str(i), child) for i, child in enumerate(self._children)]
