"""Building blocks of models: links that hold parameters, and their trees."""

from __future__ import annotations

import collections
import collections.abc
import contextlib
import copy as copy_module
import numbers
import typing
import warnings

import numpy

from chainerlite import backend
from chainerlite import device_resident
from chainerlite import initializers
from chainerlite import link_hook
from chainerlite import variable
from chainerlite.backends import cuda

if typing.TYPE_CHECKING:
    from typing_extensions import Self

    from chainerlite import types
    from chainerlite.sequential import Sequential

_COPY_MODES = ('init', 'copy', 'share')


def _check_copy_mode(mode):
    if mode not in _COPY_MODES:
        raise ValueError(
            'The \'mode\' argument should be either \'init\', \'copy\', or '
            '\'share\'. But {} was given.'.format(mode)
        )


def _is_array(value):
    return isinstance(value, (numpy.ndarray, cuda.ndarray))


def _refuse_before_init():
    raise RuntimeError(
        'Link.__init__() has not been called: a Link subclass must call '
        'super().__init__() before it uses the link'
    )


def _is_shape(value):
    if value is None or isinstance(value, numbers.Integral):
        return True
    return isinstance(value, (tuple, list)) and all(
        isinstance(n, numbers.Integral) for n in value
    )


class Link(device_resident.DeviceResident):
    """Building block of models: a callable object that owns parameters.

    A link registers the :class:`~chainerlite.Parameter` objects assigned
    to its attributes inside :meth:`init_scope`, and the persistent values
    (state saved with the link but not trained, such as running averages)
    given to :meth:`add_persistent` or :meth:`register_persistent`. Calling
    a link calls its ``forward`` method, which subclasses define.

    Args:
        **params: Parameters to create, as ``name=shape`` or
            ``name=(shape, dtype)`` (the older way; prefer assigning
            Parameters in :meth:`init_scope`). They are filled with NaN.

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

    # What calling the link runs; subclasses define it.
    forward: typing.Callable[..., typing.Any]

    # The __call__ of a class after Link in a subclass's method order (a
    # mixin's, as ``class M(Link, Mixin)``): called in forward's place, as
    # Chainer 7.8.1 does; None when there is none. Found once per class.
    _mixed_in_call: typing.Callable[..., typing.Any] | None = None

    def __init_subclass__(cls, **kwargs: typing.Any) -> None:
        super().__init_subclass__(**kwargs)
        after = cls.__mro__[cls.__mro__.index(Link) + 1 :]
        cls._mixed_in_call = next(
            (k.__dict__['__call__'] for k in after if '__call__' in k.__dict__), None
        )

    def __init__(self, **params: typing.Any) -> None:
        super().__init__()
        self._params = set()
        self._persistent = set()
        self._within_init_scope = False
        self._local_link_hooks = collections.OrderedDict()
        self.name: str | None = None
        for name, value in params.items():
            if _is_shape(value):
                value = value, numpy.float32
            shape, dtype = value
            self.add_param(name, shape, dtype=dtype)

    @property
    def printable_specs(self) -> typing.Iterator[tuple[str, typing.Any]]:
        """The ``(name, value)`` pairs that ``str(link)`` shows.

        A link class yields the arguments that tell its instances apart
        (:class:`~chainerlite.links.Linear` gives its sizes and
        ``nobias``); the base yields none.
        """
        return iter(())

    def __str__(self):
        specs = ', '.join(
            '{}={}'.format(name, value) for name, value in self.printable_specs
        )
        return '{}({})'.format(type(self).__name__, specs)

    def __call__(self, *args: typing.Any, **kwargs: typing.Any) -> typing.Any:
        hooks = link_hook._get_link_hooks()
        local = self.__dict__.get('_local_link_hooks')
        if local is None:  # (Link.__init__ sets it)
            _refuse_before_init()
        forward = self.forward if self._mixed_in_call is None else self._mixin_forward
        if not hooks and not local:
            return forward(*args, **kwargs)
        hooks = list(hooks.values())
        if local:
            hooks += local.values()
        pre = link_hook._ForwardPreprocessCallbackArgs(self, 'forward', args, kwargs)
        for hook in hooks:
            hook.forward_preprocess(pre)
        out = forward(*args, **kwargs)
        post = link_hook._ForwardPostprocessCallbackArgs(
            self, 'forward', args, kwargs, out
        )
        for hook in hooks:
            hook.forward_postprocess(post)
        return out

    def _mixin_forward(self, *args, **kwargs):
        return self._mixed_in_call(*args, **kwargs)

    @property
    def _device_id(self) -> int | None:
        """The CUDA device number of the link (None on the CPU).

        .. deprecated::
            Kept for code written for Chainer; use :attr:`device`.
        """
        warnings.warn(
            'Link._device_id is deprecated (kept from old Chainer): use '
            'Link.device instead.',
            DeprecationWarning,
        )
        device = self.device
        return device.device.id if isinstance(device, backend.GpuDevice) else None

    @property
    def local_link_hooks(self) -> collections.OrderedDict[str, link_hook.LinkHook]:
        """collections.OrderedDict: The hooks of this link, by name."""
        return self._local_link_hooks

    def add_hook(self, hook: link_hook.LinkHook, name: str | None = None) -> Self:
        """Registers a link hook on this link.

        Args:
            hook (~chainerlite.LinkHook): The hook.
            name (str): The name to register it under; ``hook.name`` when
                None.

        Returns:
            Link: This link.

        Raises:
            TypeError: If ``hook`` is not a :class:`~chainerlite.LinkHook`.
            KeyError: If a hook of that name is already registered.

        """
        if not isinstance(hook, link_hook.LinkHook):
            raise TypeError(
                'hook must be a LinkHook, not {}'.format(type(hook).__name__)
            )
        if name is None:
            name = hook.name
        if name in self._local_link_hooks:
            raise KeyError('link hook {} already exists'.format(name))
        hook.added(self)
        self._local_link_hooks[name] = hook
        return self

    def delete_hook(self, name: str) -> None:
        """Unregisters the link hook registered under ``name``.

        Raises:
            KeyError: If no hook of that name is registered.

        """
        if name not in self._local_link_hooks:
            raise KeyError('no link hook named {}'.format(name))
        self._local_link_hooks[name].deleted(self)
        del self._local_link_hooks[name]

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, variable.Parameter):
            value.name = name
            value.to_device(self._device)
            self._params.add(name)
            self._persistent.discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._params.discard(name)
        self._persistent.discard(name)
        super().__delattr__(name)

    @property
    def within_init_scope(self) -> bool:
        """bool: ``True`` inside ``with link.init_scope():``."""
        return getattr(self, '_within_init_scope', False)

    @contextlib.contextmanager
    def init_scope(self) -> typing.Iterator[None]:
        """Registers the parameters and links assigned inside the block.

        Inside ``with self.init_scope():``, assigning a
        :class:`~chainerlite.Parameter` (or, for a :class:`Chain`, a link)
        to an attribute registers it under the attribute name.
        """
        if '_local_link_hooks' not in self.__dict__:
            _refuse_before_init()
        old = self._within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    def add_param(
        self,
        name: str,
        shape: types.ShapeSpec | None = None,
        dtype: types.DTypeSpec = numpy.float32,
        initializer: types.InitializerSpec | None = None,
    ) -> None:
        """Registers a new parameter.

        Args:
            name (str): Name of the parameter, also its attribute name.
            shape (int or tuple of int): Shape of the parameter; ``None``
                leaves it uninitialized until it is given a shape.
            dtype: Data type of the parameter (ignored when an
                ``initializer`` is given).
            initializer: Initializer of the array (see
                :func:`~chainerlite.initializers._get_initializer`); the
                array is filled with NaN when ``None``.

        Raises:
            AttributeError: If the link already has an attribute ``name``.

        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new parameter {}: attribute exists'.format(name)
            )
        if initializer is None:
            initializer = initializers.NaN(dtype)
        with self.init_scope():
            setattr(self, name, variable.Parameter(initializer, shape))

    def add_persistent(self, name: str, value: typing.Any) -> None:
        """Registers a persistent value: state saved with the link.

        Args:
            name (str): Name of the value, also its attribute name.
            value: An array, a scalar or ``None``.

        Raises:
            AttributeError: If the link already has an attribute ``name``.

        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new persistent value {}: attribute exists'.format(
                    name
                )
            )
        self._persistent.add(name)
        self._params.discard(name)
        super().__setattr__(name, value)

    def register_persistent(self, name: str) -> None:
        """Registers an existing attribute as a persistent value.

        A parameter of that name stops being a parameter.

        Args:
            name (str): Name of the attribute.

        Raises:
            AttributeError: If the link has no attribute ``name``.

        """
        if not hasattr(self, name):
            raise AttributeError(
                'cannot register non-existent attribute {} as a persistent '
                'value'.format(name)
            )
        self._persistent.add(name)
        self._params.discard(name)

    @classmethod
    def from_params(cls, *args: typing.Any, **kwargs: typing.Any) -> Self:
        """Builds a link whose parameters copy the given arrays.

        Links that can be rebuilt from their parameters (such as
        :class:`~chainerlite.links.Linear`,
        :class:`~chainerlite.links.Convolution2D` or
        :class:`~chainerlite.links.EmbedID`) override it; their shapes
        follow from the arrays.

        Raises:
            NotImplementedError: For a link that does not override it.

        """
        raise NotImplementedError(
            '{}.from_params is not implemented'.format(cls.__name__)
        )

    def _initialize_param(self, param, shape):
        # Parameter.initialize allocates on the host: move to our device.
        param.initialize(shape)
        param.to_device(self._device)

    def _named_children(self):
        return ()

    def namedparams(
        self, include_uninit: bool = True
    ) -> typing.Iterator[tuple[str, variable.Parameter]]:
        """Yields the parameters of this link and its descendants by path.

        Args:
            include_uninit (bool): Whether to yield parameters whose array
                is not allocated yet.

        Yields:
            tuple of str and Parameter: The path (``'/name'``, or
            ``'/child/name'`` for a child's) and the parameter.

        """
        for name, param in self._own_namedparams():
            if include_uninit or param.array is not None:
                yield '/' + name, param
        for name, child in self._named_children():
            for path, param in child.namedparams(include_uninit):
                yield '/' + name + path, param

    def params(
        self, include_uninit: bool = True
    ) -> typing.Iterator[variable.Parameter]:
        """Yields the parameters of this link and its descendants.

        Args:
            include_uninit (bool): Whether to yield parameters whose array
                is not allocated yet.

        Yields:
            Parameter: Each parameter.

        """
        for _, param in self.namedparams(include_uninit):
            yield param

    def namedlinks(self, skipself: bool = False) -> typing.Iterator[tuple[str, Link]]:
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

    def links(self, skipself: bool = False) -> typing.Iterator[Link]:
        """Yields this link and its descendants.

        Args:
            skipself (bool): Whether to leave this link itself out.

        Yields:
            Link: Each link.

        """
        for _, link in self.namedlinks(skipself):
            yield link

    def children(self) -> typing.Iterator[Link]:
        """Yields the child links (none for a plain :class:`Link`).

        Yields:
            Link: Each direct child.

        """
        for _, child in self._named_children():
            yield child

    def copy(self, mode: str = 'share') -> Self:
        """Copies the link and its descendants into a new tree.

        The copy has no name, since it belongs to no parent.

        Args:
            mode (str): ``'share'`` (default) makes new Parameter objects
                that share their arrays with the original ones (their
                gradients start cleared), and shares the persistent values;
                ``'copy'`` copies everything deeply, so values start equal
                but change independently; ``'init'`` copies deeply, then
                fills each initialized parameter anew with its initializer.

        Returns:
            Link: The copy.

        Raises:
            ValueError: If ``mode`` is none of the three.

        """
        _check_copy_mode(mode)
        if mode == 'share':
            ret = copy_module.copy(self)
            ret._params = set(self._params)
            ret._persistent = set(self._persistent)
            ret._local_link_hooks = collections.OrderedDict(self._local_link_hooks)
            d = ret.__dict__
            for name in ret._params:
                param = copy_module.copy(d[name])
                param.grad = None
                d[name] = param
            ret._share_copy_children()
        else:
            ret = copy_module.deepcopy(self)
            if mode == 'init':
                ret._draw_params_anew()
        ret.name = None
        return ret

    def _draw_params_anew(self):
        """Fills each initialized parameter of this hierarchy anew with its
        initializer (in the order of :meth:`links`)."""
        for link in self.links():
            for _, param in link._own_namedparams():
                if param.array is not None:
                    link._initialize_param(param, param.shape)

    def _own_namedparams(self):
        d = self.__dict__
        return [(name, d[name]) for name in sorted(self._params)]

    def _share_copy_children(self):
        # Called on a shallow copy: replace the children by shared copies.
        pass

    def repeat(self, n_repeat: int, mode: str = 'init') -> Sequential:
        """Makes a :class:`~chainerlite.Sequential` of copies of this link.

        Args:
            n_repeat (int): Number of copies; an empty Sequential is
                returned when it is not positive.
            mode (str): How each copy is made (see :meth:`copy`); the
                default ``'init'`` gives every copy fresh initial values.

        Returns:
            ~chainerlite.Sequential: The copies, called in turn.

        Raises:
            ValueError: If ``mode`` is not ``'init'``, ``'copy'`` or
                ``'share'``.

        """
        from chainerlite import sequential

        ret = sequential.Sequential()
        if n_repeat <= 0:
            return ret
        _check_copy_mode(mode)
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    def copyparams(self, link: Link, copy_persistent: bool = True) -> None:
        """Copies the parameter arrays (and persistents) of ``link`` here.

        ``link`` must have the structure of this link. Arrays are copied
        across devices; gradients are not copied. An uninitialized
        parameter here is initialized with the shape of the source, and
        uninitialized parameters of ``link`` are skipped.

        Args:
            link (Link): The source.
            copy_persistent (bool): Whether to copy the persistent values
                too (arrays in place, other values as deep copies).

        """
        src = link.__dict__
        for name, param in self._own_namedparams():
            other = src[name]
            if other.array is None:
                continue
            if param.array is None:
                self._initialize_param(param, other.shape)
            param.copydata(other)
        if copy_persistent:
            d = self.__dict__
            for name in self._persistent:
                value = src[name]
                if _is_array(d[name]) and _is_array(value):
                    d[name][...] = backend.move_array_like(value, d[name])
                else:
                    value = copy_module.deepcopy(value)
                    d[name] = self._device.send(value) if _is_array(value) else value
        others = dict(link._named_children())
        for name, child in self._named_children():
            child.copyparams(others[name], copy_persistent)

    def addgrads(self, link: Link) -> None:
        """Adds the gradients of the parameters of ``link`` to these ones.

        ``link`` must have the structure of this link; the gradients are
        added across devices, and parameters without a gradient in
        ``link`` are skipped.

        Args:
            link (Link): The source.

        """
        src = link.__dict__
        for name, param in self._own_namedparams():
            other = src[name]
            # (grad, not grad_var: an uninitialised parameter never cleared
            # raises, as in Chainer)
            if other.grad is None:
                continue
            if param.array is None:
                self._initialize_param(param, other.shape)
            param.addgrad(other)
        others = dict(link._named_children())
        for name, child in self._named_children():
            child.addgrads(others[name])

    def cleargrads(self) -> None:
        """Sets the gradient of every parameter to ``None``."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self) -> None:
        """Fills the gradient of every parameter with zeros.

        .. deprecated::
            Use :meth:`cleargrads`, which avoids the memory and time of the
            zero-filled arrays.

        """
        warnings.warn(
            'Link.zerograds is deprecated. Use Link.cleargrads instead.',
            DeprecationWarning,
        )
        for param in self.params():
            param.zerograd()

    def enable_update(self) -> None:
        """Enables the update rules of all the parameters.

        Only parameters that have an update rule (set by an optimizer's
        ``setup``) are affected.
        """
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = True

    def disable_update(self) -> None:
        """Disables the update rules of all the parameters.

        Only parameters that have an update rule (set by an optimizer's
        ``setup``) are affected: the optimizer leaves them unchanged.
        """
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = False

    @property
    def update_enabled(self) -> bool:
        """bool: ``True`` if an update rule of a parameter is enabled."""
        return any(
            param.update_rule is not None and param.update_rule.enabled
            for param in self.params()
        )

    def count_params(self) -> int:
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
                    'parameters in it.'.format(name)
                )
                continue
            size += param.size
        return size

    def serialize(self, serializer):
        """Saves or loads the parameters, persistents and children.

        Each value is passed as ``serializer(name, value)``, parameters
        first, then persistent values (both by name), and the value it
        returns is kept; each child gets ``serializer[child_name]``. An
        uninitialized parameter is initialized with the shape of the loaded
        array.

        Args:
            serializer (~chainerlite.serializer.AbstractSerializer): The
                serializer or deserializer.

        """
        for name, param in self._own_namedparams():
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                self._initialize_param(param, data.shape)
                param.array[...] = backend.move_array_like(data, param.array)
        d = self.__dict__
        for name in sorted(self._persistent):
            d[name] = serializer(name, d[name])
        for name, child in self._named_children():
            child.serialize(serializer[name])

    def device_resident_accept(
        self, visitor: device_resident.DeviceResidentsVisitor
    ) -> None:
        """Hands ``visitor`` this link, its parameters, its persistent arrays
        and then each child link (see
        :class:`~chainerlite.device_resident.DeviceResident`)."""
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in sorted(self._params):
            visitor.visit_variable(d[name])
        for name in sorted(self._persistent):
            if _is_array(d[name]):
                d[name] = visitor.visit_array(d[name])
        for _, child in self._named_children():
            child.device_resident_accept(visitor)


def block_str(name, items):
    """Formats a link that holds other objects, as Chainer prints them.

    Args:
        name (str): The class name.
        items: ``(key, text)`` pairs, one a line as ``(key): text,``; a
            text of several lines (a nested block) is indented with them.

    Returns:
        str: ``name()`` without items, else ``name(`` and the indented
        items on lines of their own, closed by ``)``.

    """
    lines = []
    for key, text in items:
        for line in '({}): {},'.format(key, text).splitlines():
            lines.append('  ' + line + '\n')
    return '{}({})'.format(name, '\n' + ''.join(lines) if lines else '')


def _str_with_children(link):
    # str() of a Chain or ChainList: a block of its children.
    return block_str(
        type(link).__name__,
        ((name, str(child)) for name, child in link._named_children()),
    )


class Chain(Link):
    """Link that holds child links, registered in :meth:`init_scope`.

    Args:
        **links: Children to register, by name (the older way; prefer
            assigning them in :meth:`init_scope`).

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

    def __init__(self, **links: Link) -> None:
        super().__init__()
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __getitem__(self, name: str) -> typing.Any:
        """Returns the child link named ``name``."""
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError(
                    'cannot register a new link {}: attribute exists'.format(name)
                )
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name: str, link: Link) -> None:
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
                'cannot register a new link {}: attribute exists'.format(name)
            )
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child')
        with self.init_scope():
            setattr(self, name, link)

    __str__ = _str_with_children

    def _named_children(self):
        d = self.__dict__
        return [(name, d[name]) for name in sorted(self._children)]

    def _share_copy_children(self):
        self._children = set(self._children)
        d = self.__dict__
        for name in self._children:
            d[name] = d[name].copy('share')
            d[name].name = name


class ChainList(Link, collections.abc.MutableSequence):
    """Link that holds a list of child links, named by their index.

    It is a mutable sequence, as Chainer's: besides indexing, ``len`` and
    :meth:`insert`, item assignment and deletion (children renamed by
    their new indexes) and the list methods of
    :class:`collections.abc.MutableSequence` (``extend``, ``pop``,
    ``remove``, ``reverse``, ``index``, ``count``, ``clear``).

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

    def __init__(self, *links: Link) -> None:
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            raise TypeError(
                'cannot register a new link within a "with '
                'chainlist.init_scope():" block.'
            )
        super().__setattr__(name, value)

    @typing.overload
    def __getitem__(self, index: int) -> Link: ...

    @typing.overload
    def __getitem__(self, index: slice) -> list[Link]: ...

    def __getitem__(self, index):
        """Returns the child (or list of children) at ``index``."""
        return self._children[index]

    def __setitem__(self, index, value):
        """Replaces the child at ``index`` (an int), or the children of a
        slice by those of ``value``, renaming them by their indexes."""
        if isinstance(index, slice):
            self._children[index] = value
            self._rename_children()
        elif isinstance(index, int):
            value.name = str(index)
            self._children[index] = value
        else:
            raise TypeError(
                'ChainList indices must be integers or slices, not {}'.format(
                    type(index).__name__
                )
            )

    def __delitem__(self, index):
        """Removes the child (or the children of a slice) at ``index``."""
        del self._children[index]
        self._rename_children()

    def _rename_children(self):
        for i, child in enumerate(self._children):
            child.name = str(i)

    def __iter__(self) -> typing.Iterator[Link]:
        return iter(self._children)

    def __len__(self) -> int:
        return len(self._children)

    def add_link(self, link: Link) -> None:
        """Appends a child link, named by its index.

        Args:
            link (Link): The new child.

        """
        link.name = str(len(self._children))
        self._children.append(link)

    def append(self, link: Link) -> None:
        """Appends a child link (same as :meth:`add_link`).

        Args:
            link (Link): The new child.

        """
        self.add_link(link)

    def insert(self, index, link):
        """Inserts a child link before position ``index`` (as
        ``list.insert``) and renames the children by their new indexes.

        Args:
            index (int): Position of the new child.
            link (Link): The new child.

        """
        if not isinstance(link, Link):
            raise TypeError(
                'ChainList.insert: a Link is required, got {}'.format(
                    type(link).__name__
                )
            )
        self._children.insert(index, link)
        self._rename_children()

    __str__ = _str_with_children

    def _named_children(self):
        return [(str(i), child) for i, child in enumerate(self._children)]

    def _share_copy_children(self):
        self._children = [child.copy('share') for child in self._children]
        for i, child in enumerate(self._children):
            child.name = str(i)
