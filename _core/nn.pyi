from typing import Any

from chainerlite._core.node import FunctionNode, Variable

class ReLU(FunctionNode):
    def backward(self, indexes: tuple[int, ...],
                 grad_outputs: tuple[Variable | None, ...]
                 ) -> tuple[Variable | None, ...]: ...

class LinearFunction(FunctionNode):
    def backward(self, indexes: tuple[int, ...],
                 grad_outputs: tuple[Variable | None, ...]
                 ) -> tuple[Variable | None, ...]: ...

def relu(x: Any) -> Variable: ...
def is_2d(x: Any) -> bool: ...
def linear2d(x: Any, W: Any, b: Any = ...) -> Variable: ...
