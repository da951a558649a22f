from typing import Any

from typing_extensions import disjoint_base

from chainerlite._core.node import BuiltinNode, Variable

def scalar_like(value: Any, x: Any) -> Any: ...

class _Binary(BuiltinNode): ...
class _Unary(BuiltinNode): ...

class Add(_Binary):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class Sub(_Binary):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class Mul(_Binary):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class Div(_Binary):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class PowVarVar(_Binary):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class Neg(_Unary):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class Absolute(_Unary):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

@disjoint_base
class _Const(_Unary):
    @property
    def value(self) -> Any: ...
    def __init__(self, value: Any) -> None: ...

class AddConstant(_Const):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class SubFromConstant(_Const):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class MulConstant(_Const):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class DivFromConstant(_Const):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class PowVarConst(_Const):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...

class PowConstVar(_Const):
    def backward(
        self, indexes: tuple[int, ...], grad_outputs: tuple[Variable | None, ...]
    ) -> tuple[Variable | None, ...]: ...
