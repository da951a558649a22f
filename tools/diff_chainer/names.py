"""Every public name of Chainer 7.8.1's module tree, and its chainerlite twin."""

import __future__
import importlib
import types

# The modules whose public names the harness scores (Chainer's module tree).
MODULES = (
    'chainer',
    'chainer.functions',
    'chainer.links',
    'chainer.optimizers',
    'chainer.optimizer_hooks',
    'chainer.initializers',
    'chainer.iterators',
    'chainer.dataset',
    'chainer.datasets',
    'chainer.training',
    'chainer.training.extensions',
    'chainer.training.triggers',
    'chainer.training.updaters',
    'chainer.reporter',
    'chainer.serializers',
    'chainer.function_hooks',
    'chainer.link_hooks',
    'chainer.distributions',
    'chainer.backend',
    'chainer.utils',
    'chainer.testing',
)


def public_names(modules=MODULES):
    """``{'chainer.functions.relu': object, ...}``: the public attributes of
    each module that are not modules themselves, ``__future__`` features,
    nor objects of other packages (``numpy``, ``six``) that Chainer
    imported."""
    out = {}
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            if name.startswith('_'):
                continue
            obj = getattr(module, name)
            if isinstance(obj, (types.ModuleType, __future__._Feature)):
                continue
            owner = getattr(obj, '__module__', None)
            if isinstance(owner, str) and not owner.startswith('chainer'):
                if callable(obj) or isinstance(obj, type):
                    continue
            out[f'{module_name}.{name}'] = obj
    return out


def twin(qualified_name):
    """chainerlite's object for Chainer's ``qualified_name``; raises
    AttributeError or ImportError where chainerlite lacks it."""
    module_name, _, name = qualified_name.rpartition('.')
    module = importlib.import_module('chainerlite' + module_name[len('chainer') :])
    return getattr(module, name)


def resolve(lib, qualified_name):
    """The object of ``lib`` (the chainer or chainerlite module) for
    Chainer's ``qualified_name``."""
    module_name, _, name = qualified_name.rpartition('.')
    module = importlib.import_module(lib.__name__ + module_name[len('chainer') :])
    return getattr(module, name)
