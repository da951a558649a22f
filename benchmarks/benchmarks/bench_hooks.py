"""Hook overhead on the 200-op chain: count, overridden callbacks, placement."""

import contextlib

import numpy as np

import chainerlite
from chainerlite import function_hooks
from benchmarks import common

CALLBACKS = (
    'forward_preprocess',
    'forward_postprocess',
    'backward_preprocess',
    'backward_postprocess',
)


def _noop(self, *args):
    pass


def hook_class(n_overridden):
    """A FunctionHook subclass overriding the first n callbacks with no-ops."""
    body = {name: _noop for name in CALLBACKS[:n_overridden]}
    return type('Hook%d' % n_overridden, (chainerlite.FunctionHook,), body)


class GlobalHooks:
    params = ([0, 1, 4, 16], ['none', 'one', 'all'])
    param_names = ['n_hooks', 'overrides']

    def setup(self, n_hooks, overrides):
        cls = hook_class({'none': 0, 'one': 1, 'all': 4}[overrides])
        self.hooks = []
        for i in range(n_hooks):
            hook = cls()
            hook.name = 'hook%d' % i
            self.hooks.append(hook)
        self.x = np.ones((10, 10), np.float32)

    def time_chain(self, n_hooks, overrides):
        with contextlib.ExitStack() as stack:
            for hook in self.hooks:
                stack.enter_context(hook)
            common.chain_backward(self.x, 200)


class LocalHook:
    """A hook added to each node with add_hook (overriding all callbacks)."""

    def setup(self):
        self.hook = hook_class(4)()
        self.x = np.ones((10, 10), np.float32)

    def time_chain(self):
        h = chainerlite.Variable(self.x)
        for _ in range(200):
            node = chainerlite.functions.math.basic_math.MulConstant(1.0001)
            node.add_hook(self.hook)
            (h,) = node.apply((h,))
        chainerlite.functions.sum(h).backward()


class BuiltinHooks:
    params = (['TimerHook'],)
    param_names = ['hook']

    def setup(self, name):
        self.hook_class = getattr(function_hooks, name)
        self.x = np.ones((10, 10), np.float32)

    def time_chain(self, name):
        with self.hook_class():
            common.chain_backward(self.x, 200)
