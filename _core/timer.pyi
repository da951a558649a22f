from typing import Any

from typing_extensions import disjoint_base

from chainerlite._core.hooks import CompiledHook

@disjoint_base
class Stat:
    @property
    def self_time(self) -> float: ...
    @property
    def forward_time(self) -> float: ...
    @property
    def backward_time(self) -> float: ...

@disjoint_base
class TimerRecorder(CompiledHook):
    history: list[tuple[str, float]]
    stats: dict[str, Stat]
    outer_time: float
    gpu_calls: list[tuple[Any, ...]]
    def reset_thread(self) -> None: ...
    def record(
        self, name: str, phase: int, elapsed: float, self_time: float
    ) -> None: ...

def _set_cupy(module: Any) -> None: ...
def forward_preprocess(self: Any, function: Any, in_data: tuple[Any, ...]) -> None: ...
def forward_postprocess(self: Any, function: Any, in_data: tuple[Any, ...]) -> None: ...
def backward_preprocess(
    self: Any, function: Any, in_data: tuple[Any, ...], out_grad: tuple[Any, ...]
) -> None: ...
def backward_postprocess(
    self: Any, function: Any, in_data: tuple[Any, ...], out_grad: tuple[Any, ...]
) -> None: ...
