"""softmax_cross_entropy exports with each of its options."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F


def _labels(rng, shape, n_class, ignore_label):
    t = rng.randint(0, n_class, shape).astype(np.int32)
    t.flat[::3] = ignore_label
    return t


@pytest.mark.parametrize('opset', [9, 11])
@pytest.mark.parametrize('x_shape', [(4, 3), (2, 3, 4), (2, 3, 2, 2)])
@pytest.mark.parametrize(
    'kwargs',
    [
        {},
        {'ignore_label': 2},
        {'normalize': False},
        {'reduce': 'no'},
        {'class_weight': np.array([0.5, 2.0, 1.5], np.float32)},
        {'class_weight': np.array([0.5, 2.0, 1.5], np.float32), 'reduce': 'no'},
    ],
)
def test_hard_labels(onnx_matches, x_shape, kwargs, opset):
    rng = np.random.RandomState(0)
    x = rng.randn(*x_shape).astype(np.float32)
    t_shape = x_shape[:1] + x_shape[2:]
    t = _labels(rng, t_shape, x_shape[1], kwargs.get('ignore_label', -1))
    model = chainerlite.Sequential(lambda x, t: F.softmax_cross_entropy(x, t, **kwargs))
    onnx_matches(model, (x, t), opset)


def test_every_label_ignored(onnx_matches):
    x = np.ones((2, 3), np.float32)
    t = np.full((2,), -1, np.int32)
    model = chainerlite.Sequential(F.softmax_cross_entropy)
    onnx_matches(model, (x, t), 11)


@pytest.mark.parametrize('soft_target_loss', ['cross-entropy', 'kl-divergence'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('x_shape', [(4, 3), (2, 3, 4)])
def test_soft_targets(onnx_matches, soft_target_loss, reduce, x_shape):
    rng = np.random.RandomState(1)
    x = rng.randn(*x_shape).astype(np.float32)
    t = rng.uniform(0, 1, x_shape).astype(np.float32)
    t[0] = 0  # 0 log 0
    t /= np.maximum(t.sum(axis=1, keepdims=True), 1e-3)

    def loss(x, t):
        return F.softmax_cross_entropy(
            x, t, reduce=reduce, soft_target_loss=soft_target_loss
        )

    onnx_matches(chainerlite.Sequential(loss), (x, t), 11)
