"""The gradient nodes of Chainer's arithmetic (``basic_math.DivGrad``,
``PowVarConstGrad``, ...), by Chainer's names, constructors and inputs.
Their values are those of chainerlite's compiled arithmetic nodes'
backward (``_grad_of.GradOf``), which declares the derivatives."""

from chainerlite._core import ops_math
from chainerlite.functions import _grad_of


class AbsoluteGrad(ops_math.AbsoluteGrad):
    """Gradient of ``abs`` (the compiled node ``abs``'s backward applies):
    applied to ``(gy,)``, ``gy`` times the sign of ``x`` (an array)."""

    def forward_cpu(self, inputs):
        return self.forward(inputs)

    def forward_gpu(self, inputs):
        return self.forward(inputs)


class DivGrad(_grad_of.GradOf):
    """Gradients of ``x0 / x1`` (broadcast together), applied to
    ``(x0, x1, gy)``: those of ``x0`` and ``x1``, summed to their shapes."""

    def __init__(self, is_elementwise):
        self.is_elementwise = is_elementwise

    def gradients(self, xs):
        return _grad_of.grads_of(lambda a, b: a / b, xs[:2], xs[2])


class DivFromConstantGrad(_grad_of.GradOf):
    """Gradient of ``value / x``, applied to ``(x, gy)``."""

    def __init__(self, value):
        self.value = value

    def gradients(self, xs):
        return _grad_of.grads_of(lambda x: self.value / x, xs[:1], xs[1])


class PowVarVarGrad(_grad_of.GradOf):
    """Gradients of ``x0 ** x1`` (broadcast together), applied to
    ``(x0, x1, gy)``; ``y``, the power's output, is kept as Chainer keeps
    it (the op computes it again)."""

    def __init__(self, is_elementwise, y):
        self.is_elementwise = is_elementwise
        self.y = y

    def gradients(self, xs):
        return _grad_of.grads_of(lambda a, b: a**b, xs[:2], xs[2])


class PowVarConstGrad(_grad_of.GradOf):
    """Gradient of ``x ** value``, applied to ``(x, gy)``."""

    def __init__(self, value):
        self.value = value

    def gradients(self, xs):
        return _grad_of.grads_of(lambda x: x**self.value, xs[:1], xs[1])
