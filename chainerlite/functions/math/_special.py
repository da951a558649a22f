"""SciPy's (or CuPy's) special functions as one-input nodes (F.lgamma...)."""

from chainerlite.functions.math import _scipy_special
from chainerlite.functions.math import _unary


class UnarySpecial(_unary.UnaryFloat):
    """``special_name`` is the SciPy function computing the forward."""

    special_name = None

    def compute(self, xp, x):
        return _scipy_special.routine(self.special_name, x, self.name)(x)


class UnarySpecialOfOutput(UnarySpecial):
    """A :class:`UnarySpecial` whose backward also needs the output."""

    def forward(self, inputs):
        self.retain_outputs((0,))
        return super().forward(inputs)
