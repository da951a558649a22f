"""Bases of the optimizers whose rules are written once with array-module
code."""

import numpy

from chainerlite import optimizer


def intermediate_dtype(dtype):
    """Dtype of the states and of the computation for a parameter dtype.

    Float16 parameters keep their states and compute in float32.
    """
    return numpy.dtype(numpy.float32 if dtype == numpy.float16 else dtype)


class ArrayRule(optimizer.UpdateRule):
    """Update rule whose :meth:`update_core_cpu` also runs on CuPy arrays.

    A subclass sets ``_default_hyperparam`` (the parent used when none is
    given) and passes the hyperparameters it overrides to ``__init__`` as
    keywords; those that are ``None`` keep the parent's value.
    """

    _default_hyperparam = None

    def __init__(self, parent_hyperparam=None, **hyperparams):
        super().__init__(parent_hyperparam or self._default_hyperparam)
        for name, value in hyperparams.items():
            if value is not None:
                setattr(self.hyperparam, name, value)

    def zeros_state(self, param, *names):
        """Creates zero states like ``param`` in the intermediate dtype."""
        dtype = intermediate_dtype(param.dtype)
        for name in names:
            self.state[name] = param.xp.zeros_like(param.array, dtype=dtype)

    def grad_and_hyperparam(self, param):
        """Returns the gradient in the intermediate dtype and the
        hyperparameters."""
        dtype = intermediate_dtype(param.dtype)
        return param.grad.astype(dtype, copy=False), self.hyperparam

    def update_core_gpu(self, param):
        self.update_core_cpu(param)


class ArrayMethod(optimizer.GradientMethod):
    """Gradient method whose rules are ``_rule_class(self.hyperparam)``.

    A subclass passes its hyperparameters to ``__init__`` as keywords.
    """

    _rule_class = None

    def __init__(self, **hyperparams):
        super().__init__()
        for name, value in hyperparams.items():
            setattr(self.hyperparam, name, value)

    def create_update_rule(self):
        return self._rule_class(self.hyperparam)


def subtract(param, delta):
    """``param -= delta``, cast to the parameter's dtype."""
    array = param.array
    array -= delta.astype(array.dtype, copy=False)
