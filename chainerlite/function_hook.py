"""``FunctionHook``: callbacks run around every function application."""

from __future__ import annotations

import typing

from chainerlite import _core
from chainerlite._core import handover, hooks

if typing.TYPE_CHECKING:
    from typing_extensions import Self

    from chainerlite import types
    from chainerlite.function_node import FunctionNode

    # The arrays a callback gets (None for an input that was not retained
    # or a missing gradient).
    _Arrays = tuple[types.NdArray | None, ...]


class FunctionHook(object):
    """Base class of function hooks.

    A hook observes functions: its callbacks receive the function node and
    the raw input arrays (and the output gradients in backward). Register it
    for the current thread with ``with hook:`` (under ``hook.name``) or on a
    single node with ``node.add_hook(hook)``. Global hooks run before local
    ones. Only the callbacks a subclass overrides are ever called, so a hook
    costs only for what it does.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> class Recorder(chainer.FunctionHook):
        ...     name = 'Recorder'
        ...     def __init__(self):
        ...         self.calls = []
        ...     def forward_preprocess(self, function, in_data):
        ...         self.calls.append(('forward', function.label))
        ...     def backward_postprocess(self, function, in_data, out_grad):
        ...         self.calls.append(('backward', function.label))
        >>> x = chainer.Variable(np.array([1.0, 2.0], np.float32))
        >>> with Recorder() as rec:
        ...     y = x * 2.0
        ...     y.grad = np.ones(2, np.float32)
        ...     y.backward()
        >>> rec.calls    # the backward computes ``gy * 2.0``: a nested call
        [('forward', '_ * 2.0'), ('forward', '_ * 2.0'), ('backward', '_ * 2.0')]
    """

    name = 'FunctionHook'
    #: Set to True by a hook whose ``forward_postprocess`` takes a third
    #: argument, ``out_data`` (the output arrays); by default it is called
    #: with ``(function, in_data)``, as in Chainer.
    forward_postprocess_out_data = False

    # A callback set or deleted on an instance (mock.patch.object) takes
    # effect on the next op: hooks.callback_set marks the class modified,
    # which is what the core's cached facts about hooks follow.
    def __setattr__(self, name: str, value: object) -> None:
        super().__setattr__(name, value)
        hooks.callback_set(self, name)

    def __delattr__(self, name: str) -> None:
        super().__delattr__(name)
        hooks.callback_set(self, name)

    def __enter__(self) -> Self:
        hooks = _core.get_function_hooks()
        if self.name in hooks:
            raise KeyError('hook %s already exists' % self.name)
        hooks[self.name] = self
        try:
            self.added(None)
        except BaseException:
            del hooks[self.name]
            raise
        return self

    def __exit__(self, *_: object) -> typing.Literal[False]:
        # By name, as in Chainer 7.8.1: the hook registered under this
        # name leaves (KeyError if none is), and its deleted() is called
        hooks = _core.get_function_hooks()
        hooks[self.name].deleted(None)
        del hooks[self.name]
        return False

    def added(self, function: FunctionNode | None) -> None:
        """Called when the hook is registered.

        Args:
            function (FunctionNode): The node it was added to, or None when
                it was registered globally with ``with hook:``.
        """
        pass

    def deleted(self, function: FunctionNode | None) -> None:
        """Called when the hook is unregistered (``function`` as in added)."""
        pass

    def forward_preprocess(
        self, function: FunctionNode, in_data: tuple[types.NdArray, ...]
    ) -> None:
        """Called before ``function.forward``.

        Args:
            function (FunctionNode): The function about to run.
            in_data (tuple of ndarray): Its input arrays.
        """
        pass

    def forward_postprocess(
        self, function: FunctionNode, in_data: tuple[types.NdArray, ...]
    ) -> None:
        """Called after ``function.forward`` (arguments as forward_preprocess)."""
        pass

    def backward_preprocess(
        self, function: FunctionNode, in_data: _Arrays, out_grad: _Arrays
    ) -> None:
        """Called before ``function.backward``.

        Args:
            function (FunctionNode): The function about to be differentiated.
            in_data (tuple of ndarray): Its retained input arrays (None for
                inputs that were not retained).
            out_grad (tuple of ndarray): Gradients of its outputs.
        """
        pass

    def backward_postprocess(
        self, function: FunctionNode, in_data: _Arrays, out_grad: _Arrays
    ) -> None:
        """Called after ``function.backward`` (arguments as backward_preprocess)."""
        pass


# add_hook's type check and the core's test for overridden callbacks
handover.provide(FunctionHook=FunctionHook)
