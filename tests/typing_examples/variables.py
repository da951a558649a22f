"""Define-by-run code at the level of Variables, as a user writes it.

Type-checked by ``make typecheck`` (the ``assert_type`` lines state what
mypy infers; the ``type: ignore`` lines in :func:`rejected` are calls mypy
must reject, and ``warn_unused_ignores`` fails the check if it does not);
test_examples.py runs :func:`main`.
"""

from __future__ import annotations

import numpy as np
from typing_extensions import assert_type

import chainerlite as chainer
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import types


def main() -> chainer.Variable:
    x = chainer.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert_type(x, chainer.Variable)
    assert_type(x.shape, tuple[int, ...])

    W = chainer.Parameter(chainer.initializers.Normal(0.1), (4, 3))
    assert_type(W.is_initialized, bool)
    b = chainer.Parameter(0.0, 4)
    y = F.linear(x, W, b)
    assert_type(y, chainer.Variable)

    z = F.sum(F.reshape(y * 2.0 + x.array.sum(), (8,)))
    assert_type(z, chainer.Variable)
    z.backward()
    grads = chainer.grad([F.mean_squared_error(y, np.zeros((2, 4), np.float32))], [W])
    assert len(grads) == 1

    shape: types.Shape = x.shape
    spec: types.ShapeSpec = 3
    assert shape == (2, 3) and spec == 3
    init: types.AbstractInitializer = chainer.initializers.Zero()
    assert init.dtype is None

    device = chainer.get_device('@numpy')
    assert_type(device, chainer.backend.Device)
    assert_type(L.Linear(3, 2).to_device(device), L.Linear)

    with chainer.function_hooks.TimerHook() as hook:
        assert_type(
            F.sigmoid(F.max_pooling_2d(x.reshape(1, 1, 2, 3), 2)), chainer.Variable
        )
    assert_type(hook, chainer.function_hooks.TimerHook)
    return z


def rejected(x: chainer.Variable) -> None:
    # Calls mypy must reject (never run): a str where an int is expected,
    # a Variable where a Link is.
    L.Linear('3', 2)  # type: ignore[arg-type]
    chainer.optimizers.SGD().setup(x)  # type: ignore[arg-type]
