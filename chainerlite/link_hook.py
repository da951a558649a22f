"""Hooks called around the forward computation of links (``LinkHook``)."""

import collections
import threading

from chainerlite.utils.error import _repr_with_named_data

_thread_local = threading.local()


def _get_link_hooks():
    """Returns this thread's global link hooks, an ordered dict by name."""
    try:
        return _thread_local.link_hooks
    except AttributeError:
        hooks = _thread_local.link_hooks = collections.OrderedDict()
        return hooks


class _ForwardCallbackArgs(object):
    # What a forward_preprocess callback receives.

    _fields = ('link', 'forward_name', 'args', 'kwargs')

    def __init__(self, link, forward_name, args, kwargs):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs

    def __repr__(self):
        return _repr_with_named_data(
            self, **{name: getattr(self, name) for name in self._fields}
        )


class _ForwardPreprocessCallbackArgs(_ForwardCallbackArgs):
    """Arguments of :meth:`LinkHook.forward_preprocess`.

    Attributes:
        link (~chainerlite.Link): The link being called.
        forward_name (str): The name of the method called (``'forward'``).
        args (tuple): The positional arguments of the call.
        kwargs (dict): The keyword arguments of the call.

    """


class _ForwardPostprocessCallbackArgs(_ForwardCallbackArgs):
    """Arguments of :meth:`LinkHook.forward_postprocess`.

    Attributes:
        link (~chainerlite.Link): The link that was called.
        forward_name (str): The name of the method called (``'forward'``).
        args (tuple): The positional arguments of the call.
        kwargs (dict): The keyword arguments of the call.
        out: What the forward method returned.

    """

    _fields = _ForwardCallbackArgs._fields + ('out',)

    def __init__(self, link, forward_name, args, kwargs, out):
        super(_ForwardPostprocessCallbackArgs, self).__init__(
            link, forward_name, args, kwargs
        )
        self.out = out


class LinkHook(object):
    """Base class of hooks called around the forward method of links.

    A hook is registered either on one link, with
    :meth:`~chainerlite.Link.add_hook`, or for every link called in the
    current thread, as a context manager (``with hook:``). When a link is
    called, :meth:`forward_preprocess` runs before its forward method and
    :meth:`forward_postprocess` after it, global hooks first, then the
    link's own ones, each in the order of registration. Subclasses
    override the callbacks they need; the base ones do nothing.

    Attributes:
        name (str): The name under which the hook is registered when no
            other name is given; it must be unique among the hooks of one
            link, or among the global hooks of a thread.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> class Shapes(chainer.LinkHook):
        ...     name = 'Shapes'
        ...     def forward_postprocess(self, args):
        ...         print(type(args.link).__name__, args.out.shape)
        >>> with Shapes():
        ...     _ = chainer.links.Linear(3, 2)(np.zeros((1, 3), np.float32))
        Linear (1, 2)

    """

    name = 'LinkHook'

    def __enter__(self):
        hooks = _get_link_hooks()
        if self.name in hooks:
            raise KeyError('link hook {} already exists'.format(self.name))
        self.added(None)
        hooks[self.name] = self
        return self

    def __exit__(self, *exc_info):
        hooks = _get_link_hooks()
        try:
            self.deleted(None)
        finally:
            del hooks[self.name]
        return False

    def added(self, link):
        """Called when the hook is registered.

        Args:
            link (~chainerlite.Link): The link it was added to, or None
                when it was registered globally (``with hook:``).

        """

    def deleted(self, link):
        """Called when the hook is unregistered.

        Args:
            link (~chainerlite.Link): The link it was deleted from, or None
                for a global hook.

        """

    def forward_preprocess(self, args):
        """Called before the forward method of a link.

        Args:
            args: Has the attributes ``link``, ``forward_name``, ``args``
                and ``kwargs``.

        """

    def forward_postprocess(self, args):
        """Called after the forward method of a link.

        Args:
            args: Has the attributes ``link``, ``forward_name``, ``args``,
                ``kwargs`` and ``out`` (what the method returned).

        """
