"""``Sequential``: a link that calls its layers one after another."""

from __future__ import annotations

import ast
import inspect
import typing

from chainerlite import link as link_module

if typing.TYPE_CHECKING:
    _Layer = typing.Callable[..., typing.Any]


def _layer_name(layer):
    if isinstance(layer, link_module.Link):
        return type(layer).__name__
    return getattr(layer, '__name__', type(layer).__name__)


def _is_lambda(layer):
    return getattr(layer, '__name__', None) == '<lambda>'


def _lambda_source(layer):
    """The source text of a lambda (``None`` when it cannot be read)."""
    try:
        source = ''.join(inspect.getsourcelines(layer)[0])
    except (OSError, TypeError):
        return None
    start = source.find('lambda')
    if start < 0:
        return None
    # The lines hold the lambda and what surrounds it: keep the longest
    # text from ``lambda`` on that parses as a lambda alone.
    text = ' '.join(source[start:].split())
    for end in range(len(text), 0, -1):
        try:
            tree = ast.parse(text[:end], mode='eval')
        except SyntaxError:
            continue
        if isinstance(tree.body, ast.Lambda):
            return text[:end]
    return None


def _layer_str(layer):
    if _is_lambda(layer):
        return _lambda_source(layer) or str(layer)
    return str(layer)


def _check_callable(layer):
    if not callable(layer):
        raise ValueError(
            'All elements of a Sequential class should be callable. But '
            'given {} is not callable.'.format(layer)
        )


class _Lambda:
    """A lambda layer while a Sequential is copied or pickled."""

    def __init__(self, unwrapped):
        self.unwrapped = unwrapped

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        raise ValueError(
            'a Sequential with a lambda function as a layer cannot be '
            'pickled ({})'.format(_layer_str(self.unwrapped))
        )


class Sequential(link_module.ChainList):
    """Model whose forward pass calls its layers in order.

    The layers may be links, which become children (named by their index
    among the links), or any other callables, such as functions of
    :mod:`chainerlite.functions` or lambdas. Each layer gets the output of
    the previous one; a tuple output is unpacked into the arguments of the
    next layer. It behaves like a Python list of layers (indexing,
    ``len``, iteration, ``+``, :meth:`append`, :meth:`insert`, ...).

    Args:
        *layers: The callables, in calling order.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> import chainerlite.links as L
        >>> model = chainer.Sequential(L.Linear(3, 4), F.relu)
        >>> model.append(L.Linear(4, 2))
        >>> model(np.ones((5, 3), np.float32)).shape
        (5, 2)
        >>> len(model), [name for name, _ in model.namedparams()]
        (3, ['/0/W', '/0/b', '/1/W', '/1/b'])

    """

    def __init__(self, *layers: _Layer) -> None:
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    # The children (the links among the layers) are kept in the order
    # Chainer 7.8.1 keeps them, which is not the layers' order: it names
    # the links and keys their parameters in saved models, so a model
    # saved by either library loads into the other. A link inserted at
    # layer i goes first when i is 0, else right after the child position
    # numbered as the first link among the layers before it; so appending
    # links a, b, c, d gives the children a, d, c, b, named '0' to '3'.
    # A link given twice is a child twice, as in a ChainList.

    def _place_child(self, i):
        """Puts the link at layer ``i`` among the children."""
        layers = self._layers
        after = next(
            (j for j in range(i) if isinstance(layers[j], link_module.Link)), 0
        )
        self._children.insert(after + 1 if i else 0, layers[i])
        self._rename_children()

    def _drop_child(self, name):
        """Removes the first child named ``name`` (how Chainer finds the
        child of a removed layer) and renames those after it."""
        for k, child in enumerate(self._children):
            if child.name == name:
                del self._children[k]
                for j, later in enumerate(self._children[k:], k):
                    later.name = str(j)
                return

    def _rebuild_children(self):
        """The children as appending the layers one by one places them."""
        self._children = []
        for i, layer in enumerate(self._layers):
            if isinstance(layer, link_module.Link):
                self._place_child(i)

    def _share_copy_children(self):
        copies = {}
        layers = []
        for layer in self._layers:
            if isinstance(layer, link_module.Link):
                if id(layer) not in copies:
                    copies[id(layer)] = layer.copy('share')
                layer = copies[id(layer)]
            layers.append(layer)
        self._layers = layers
        self._rebuild_children()

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        """Returns the layer (or list of layers) at ``i``."""
        return self._layers[i]

    def __setitem__(self, i, layer):
        """Replaces the layer at ``i`` (an int; as in Chainer, an ``i`` not
        below ``len(self)`` raises ValueError)."""
        n = len(self._layers)
        if i >= n:
            raise ValueError('{} should be less than {}'.format(i, n))
        _check_callable(layer)
        if self._layers[i] is not layer:
            i = i + n if i < 0 else i
            del self[i]
            self.insert(i, layer)

    def __delitem__(self, i):
        """Removes the layer at ``i`` (an int)."""
        layer = self._layers.pop(i)
        if isinstance(layer, link_module.Link):
            self._drop_child(layer.name)

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, layer):
        return layer in self._layers

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'add (+) operator supports only objects of Sequential class, '
                'but {} is given.'.format(type(other))
            )
        return Sequential(*self._layers, *other._layers)

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'add (+) operator supports only objects of Sequential class, '
                'but {} is given.'.format(type(other))
            )
        self.extend(other)
        return self

    def __str__(self):
        # One line per layer: a link as str() shows it (nested blocks
        # indented), a lambda by its source, another callable by str().
        return link_module.block_str(
            'Sequential',
            ((i, _layer_str(layer)) for i, layer in enumerate(self._layers)),
        )

    def __getstate__(self):
        # Lambdas travel wrapped: copies keep them, pickling refuses them.
        state = dict(self.__dict__)
        state['_layers'] = [
            _Lambda(layer) if _is_lambda(layer) else layer for layer in self._layers
        ]
        return state

    def __setstate__(self, state):
        state['_layers'] = [
            getattr(layer, 'unwrapped', layer) for layer in state['_layers']
        ]
        self.__dict__.update(state)

    def forward(self, *x: typing.Any) -> typing.Any:
        """Calls the layers in turn, starting with ``x``.

        Args:
            *x: The inputs of the first layer.

        Returns:
            The output of the last layer.

        Raises:
            RuntimeError: If there is no layer.

        """
        if not self._layers:
            raise RuntimeError('Sequential does not have any layer.')
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def add_link(self, link: link_module.Link) -> None:
        """Appends a link as a layer (same as :meth:`append`).

        Args:
            link (~chainerlite.Link): The new layer.

        """
        self.append(link)

    def append(self, layer: _Layer) -> None:
        """Appends a layer.

        Args:
            layer (callable): A link or any callable.

        Raises:
            ValueError: If ``layer`` is not callable.

        """
        self.insert(len(self._layers), layer)

    def extend(self, sequential: typing.Iterable[_Layer]) -> None:
        """Appends each layer of ``sequential`` (any iterable of layers).

        Args:
            sequential (iterable): The layers to append.

        """
        for layer in sequential:
            self.append(layer)

    def insert(self, i: int, layer: _Layer) -> None:
        """Inserts a layer before position ``i``.

        Args:
            i (int): The position, as in :meth:`list.insert`.
            layer (callable): A link or any callable.

        Raises:
            ValueError: If ``layer`` is not callable.
            IndexError: If ``i`` is not in ``[-len(self), len(self)]`` (a
                list would clip it; Chainer refuses it).

        """
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError(
                'Sequential.insert: position {} is out of the range of a '
                'Sequential of {} layers'.format(i, n)
            )
        _check_callable(layer)
        i = i + n if i < 0 else i
        self._layers.insert(i, layer)
        if isinstance(layer, link_module.Link):
            self._place_child(i)

    def copy(self, mode: str = 'share') -> Sequential:
        """Copies the model as :meth:`Link.copy` does; the children are
        placed (and named) as appending the copied layers places them, and
        ``'init'`` draws the links' parameters in the layers' order, as in
        Chainer 7.8.1.

        Args:
            mode (str): ``'share'``, ``'copy'`` or ``'init'``.

        Returns:
            Sequential: The copy.

        """
        ret = super().copy('copy' if mode == 'init' else mode)
        ret._rebuild_children()
        if mode == 'init':
            for layer in ret._layers:
                if isinstance(layer, link_module.Link):
                    layer._draw_params_anew()
        return ret

    def copyparams(self, link: link_module.Link, copy_persistent: bool = True) -> None:
        """Copies the parameters of the links of another Sequential, layer
        by layer (see :meth:`Link.copyparams`).

        Args:
            link (Sequential): The source, of the same layers.
            copy_persistent (bool): Whether to copy the persistent values.

        Raises:
            ValueError: If ``link`` is not a Sequential.

        """
        if not isinstance(link, Sequential):
            raise ValueError(
                'Objects other than Sequential object cannot be copied to a '
                'Sequential object.'
            )
        for mine, theirs in zip(self._layers, link._layers):
            if isinstance(mine, link_module.Link):
                mine.copyparams(theirs, copy_persistent)

    def remove(self, layer: _Layer) -> None:
        """Removes the first occurrence of ``layer``.

        Args:
            layer (callable): The layer.

        Raises:
            ValueError: If ``layer`` is not a layer of this model.

        """
        if layer not in self._layers:
            raise ValueError(
                'There is no layer object that is same as {}'.format(layer)
            )
        del self[self._layers.index(layer)]

    def remove_by_layer_type(self, type_name: str) -> None:
        """Removes the layers of a type.

        Args:
            type_name (str): The class name of links (e.g. ``'Linear'``) or
                the ``__name__`` of other callables (e.g. ``'relu'``).

        """
        for layer in [x for x in self._layers if _layer_name(x) == type_name]:
            self.remove(layer)

    def pop(self, i: int = -1) -> _Layer:
        """Removes and returns the layer at ``i`` (the last by default).

        Args:
            i (int): The position.

        Returns:
            The removed layer.

        """
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self) -> None:
        """Removes all the layers."""
        self._layers = []
        self._children = []

    def index(
        self, layer: _Layer, start: int | None = None, end: int | None = None
    ) -> int:
        """Returns the position of the first occurrence of ``layer``.

        Args:
            layer (callable): The layer.
            start (int): Where the search starts (the beginning when
                ``None``).
            end (int): Where the search stops (the end when ``None``).

        Returns:
            int: The position in the whole sequence (Chainer 7.8.1 gives
            it from ``start``; see docs/differences.rst).

        Raises:
            ValueError: If ``layer`` is not found.

        """
        start = 0 if start is None else start
        end = len(self._layers) if end is None else end
        return self._layers.index(layer, start, end)

    def count(self, layer: _Layer) -> int:
        """Returns how many times ``layer`` appears.

        Args:
            layer (callable): The layer.

        Returns:
            int: The number of occurrences.

        """
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name: str) -> int:
        """Returns how many layers are of a type.

        Args:
            type_name (str): The class name of links or the ``__name__`` of
                other callables.

        Returns:
            int: The number of such layers.

        """
        return sum(_layer_name(layer) == type_name for layer in self._layers)

    def flatten(self) -> Sequential:
        """Returns a Sequential with the nested Sequentials expanded.

        Returns:
            Sequential: The layers of this model, those of each nested
            Sequential put in its place (recursively).

        """
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret
