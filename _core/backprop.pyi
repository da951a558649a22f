from typing import Any, Sequence

from chainerlite._core.node import Variable, VariableNode

class AttributeTypeError(TypeError, AttributeError): ...

def backprop(
    outputs: list[Variable] | list[VariableNode],
    grad_outputs: list[Any],
    retain_grad: bool,
    enable_double_backprop: bool,
    loss_scale: Any,
    inputs: list[VariableNode] | None = ...,
    set_grad: bool = ...,
    seeds: list[Any] | None = ...,
    retain_graph: bool | None = ...,
    handed: bool = ...,
) -> list[Variable | None] | None: ...
def backward(
    outputs: Sequence[Variable], grad_outputs: Sequence[Any] | None = ..., **kwargs: Any
) -> None: ...
def grad(
    outputs: Sequence[Variable],
    inputs: Sequence[Variable],
    grad_outputs: Sequence[Any] | None = ...,
    grad_inputs: Sequence[Any] | None = ...,
    set_grad: bool = ...,
    retain_grad: bool = ...,
    enable_double_backprop: bool = ...,
    loss_scale: float | None = ...,
    retain_graph: bool | None = ...,
) -> list[Variable | None]: ...
