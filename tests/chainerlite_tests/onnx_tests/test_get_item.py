"""GetItem: every mix of slices, ints, None, Ellipsis and index arrays that
NumPy allows exports to the same result (opset 11; Gather up to opset 10)."""

import os

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F

_FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'


def _model(slices):
    return chainerlite.Sequential(lambda x: F.get_item(x, slices))


_X = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize(
    'slices',
    [
        ([0, 1], [1, 2]),
        ([[0, 1], [1, 0]], [[2, 1], [0, 2]]),
        (slice(None), [0, 1], [0, 1]),  # Chainer refuses these three
        ([0, 1], 0, [0, 1]),
        (None, [0, 1], [0, 1]),
        (0, slice(None), [[0, 1]]),  # advanced dims go first (not adjacent)
        ([1, 0], slice(1, 3), [3, -1]),
        (Ellipsis, [0, 2], None),
        (np.array([True, False]), slice(None, None, -1)),
        (slice(1, None), [0, 2], [1, 3]),
        (slice(None), [[2, 1], [0, 0]], Ellipsis, [[-2, -3], [-1, -1]]),  # apart
    ],
)
def test_advanced_indexing(onnx_matches, slices):
    onnx_matches(_model(slices), _X, 11)


@pytest.mark.parametrize('opset', [7, 9, 10, 11])
def test_one_index_array_any_opset(onnx_matches, opset):
    onnx_matches(_model((slice(None), 1, [[0, -1], [2, 3]])), _X, opset)


def test_several_index_arrays_need_opset_11():
    pytest.importorskip('onnx')
    from chainerlite.onnx import export

    with pytest.raises(ValueError, match='GatherND, opset 11'):
        export(_model(([0, 1], [1, 2])), _X, opset_version=10)


def test_step_needs_opset_10():
    pytest.importorskip('onnx')
    from chainerlite.onnx import export

    with pytest.raises(ValueError, match='step needs opset 10'):
        export(_model((slice(None, None, 2),)), _X, opset_version=9)


def _random_index(rng, ndim):
    # a random index over `ndim` axes: each axis a slice, an int or an array
    # (arrays broadcasting to (2,) or (2, 2)), Nones and an Ellipsis among them
    items = []
    shape = [(2,), (2, 2)][rng.randint(2)]
    for size in _X.shape[:ndim]:
        kind = rng.randint(4)
        if kind == 0:
            start, stop = sorted(rng.randint(-size, size + 1, 2))
            step = int(rng.choice([1, 2, -1]))
            items.append(
                slice(start, stop, step) if step > 0 else slice(stop, start, step)
            )
        elif kind == 1:
            items.append(int(rng.randint(-size, size)))
        elif kind == 2:
            items.append(rng.randint(-size, size, size=shape).tolist())
        else:
            items.append(slice(None))
        if rng.randint(4) == 0:
            items.append(None)
    if rng.randint(3) == 0:
        items.insert(rng.randint(len(items) + 1), Ellipsis)
    return tuple(items)


def test_random_indices_match_numpy(onnx_matches):
    rng = np.random.RandomState(0)
    n = 400 if _FULL else 40
    checked = 0
    for _ in range(n):
        slices = _random_index(rng, rng.randint(1, 4))
        if _X[slices].size == 0:
            continue
        onnx_matches(_model(slices), _X, 11)
        checked += 1
    assert checked > n // 2
