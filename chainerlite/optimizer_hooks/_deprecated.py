"""The hooks under their old home, ``chainerlite.optimizer.X``.

Chainer 7.8.1 keeps these names for code written before
:mod:`chainer.optimizer_hooks` existed: each is a subclass of the hook of
that name that warns (``DeprecationWarning``) when it is created.
"""

import warnings

from chainerlite import optimizer_hooks


def make_deprecation_message(module_name):
    """The warning's text for the old name ``chainer.optimizer.<name>``."""
    return (
        'chainer.optimizer.{0} is deprecated from v4. Use '
        'chainer.optimizer_hooks.{0} instead.'.format(module_name)
    )


def _deprecated(base):
    def __init__(self, *args, **kwargs):
        warnings.warn(make_deprecation_message(base.__name__), DeprecationWarning)
        base.__init__(self, *args, **kwargs)

    return type(
        base.__name__,
        (base,),
        {'__init__': __init__, '__module__': __name__, '__doc__': base.__doc__},
    )


GradientClipping = _deprecated(optimizer_hooks.GradientClipping)
GradientHardClipping = _deprecated(optimizer_hooks.GradientHardClipping)
GradientNoise = _deprecated(optimizer_hooks.GradientNoise)
Lasso = _deprecated(optimizer_hooks.Lasso)
WeightDecay = _deprecated(optimizer_hooks.WeightDecay)
