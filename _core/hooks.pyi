from typing import Any, final

from typing_extensions import disjoint_base

@disjoint_base
class HookRegistry(dict[str, Any]):
    @property
    def version(self) -> int: ...
    @property
    def entries(self) -> tuple[HookEntry, ...]: ...
    def setdefault(self, key: str, default: Any = ...) -> Any: ...

@disjoint_base
class CompiledHook: ...

def callback_set(hook: Any, name: str) -> None: ...
def forward_preprocess(
    self: CompiledHook, function: Any, in_data: tuple[Any, ...]
) -> None: ...
def forward_postprocess(
    self: CompiledHook, function: Any, in_data: tuple[Any, ...]
) -> None: ...
def backward_preprocess(
    self: CompiledHook,
    function: Any,
    in_data: tuple[Any, ...],
    out_grad: tuple[Any, ...],
) -> None: ...
def backward_postprocess(
    self: CompiledHook,
    function: Any,
    in_data: tuple[Any, ...],
    out_grad: tuple[Any, ...],
) -> None: ...

@final
class HookEntry:
    @property
    def hook(self) -> Any: ...
    @property
    def mask(self) -> int: ...
    def __new__(cls, hook: Any) -> HookEntry: ...

def get_function_hooks() -> HookRegistry: ...
