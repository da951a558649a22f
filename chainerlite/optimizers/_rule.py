"""Bases of the optimizers whose rules are written once with array-module
code."""

from chainerlite import optimizer


class ArrayRule(optimizer.UpdateRule):
    """Update rule whose :meth:`update_core_cpu` also runs on CuPy arrays.

    A subclass sets ``_default_hyperparam`` (the parent used when none is
    given) and passes the hyperparameters it overrides to ``__init__`` as
    keywords; those that are ``None`` keep the parent's value.
    """

    is_elementwise = True

    _default_hyperparam = None

    def __init__(self, parent_hyperparam=None, **hyperparams):
        super().__init__(parent_hyperparam or self._default_hyperparam)
        for name, value in hyperparams.items():
            if value is not None:
                setattr(self.hyperparam, name, value)

    def zeros_state(self, param, *names):
        """Creates zero states like ``param``, in its dtype (a float16
        parameter's states are float16 and the rule computes in float16,
        as Chainer 7.8.1's)."""
        for name in names:
            self.state[name] = param.xp.zeros_like(param.array)

    def grad_and_hyperparam(self, param):
        """Returns the gradient and the hyperparameters."""
        return param.grad, self.hyperparam

    @optimizer.skips_missing
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
