"""Arithmetic nodes behind the Variable operators (compiled in the core)."""
from chainerlite._core import (  # NOQA
    Absolute, Add, AddConstant, Div, DivFromConstant, Mul, MulConstant, Neg,
    PowConstVar, PowVarConst, PowVarVar, Sub, SubFromConstant)
