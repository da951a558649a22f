"""resize_images, roi_pooling_2d and replaced functions named Shape/Reshape."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F

onnx = pytest.importorskip('onnx', reason='the onnx package is not installed')

from chainerlite.onnx import export  # noqa: E402
from chainerlite.onnx.replace_func import as_funcnode  # noqa: E402


@pytest.mark.parametrize('mode', ['bilinear', 'nearest'])
@pytest.mark.parametrize('align_corners', [True, False])
@pytest.mark.parametrize('out', [(7, 5), (2, 3), (1, 1)])
def test_resize_images_opset11_values(onnx_matches, mode, align_corners, out):
    x = np.random.RandomState(0).randn(2, 3, 4, 6).astype(np.float32)
    model = chainerlite.Sequential(
        lambda x: F.resize_images(x, out, mode=mode, align_corners=align_corners)
    )
    onnx_matches(model, x, 11)


@pytest.mark.parametrize('opset', [7, 9, 10])
def test_resize_images_before_opset11_warns(onnx_matches, opset):
    x = np.ones((1, 1, 2, 2), np.float32)
    model = chainerlite.Sequential(lambda x: F.resize_images(x, (4, 4)))
    with pytest.warns(UserWarning, match='values differ'):
        # a constant image: every sampling gives the same values
        proto = onnx_matches(model, x, opset)
    assert proto.graph.node[-1].op_type == ('Resize' if opset == 10 else 'Upsample')


def test_roi_pooling_2d(onnx_matches):
    rng = np.random.RandomState(0)
    x = rng.randn(2, 3, 7, 9).astype(np.float32)
    rois = np.array(
        [[0, 1, 1, 6, 6], [1, -1, 2, 8, 11], [1, 3, 1, 5, 10], [0, 3, 3, 3, 3]],
        np.float32,
    )
    model = chainerlite.Sequential(lambda x, r: F.roi_pooling_2d(x, r, 3, 4, 0.6))
    with pytest.warns(UserWarning, match='MaxRoiPool'):
        onnx_matches(model, (x, rois), 11)


def _dynamic_model():
    class Dynamic(chainerlite.Chain):
        @as_funcnode('Shape')
        def shape(self, x):
            return np.array(x.shape, np.int64)

        @as_funcnode('Reshape')
        def reshape(self, x, shape):
            return F.reshape(x, tuple(shape.array))

        def forward(self, x, shape):
            return self.shape(x), self.reshape(x, shape)

    return Dynamic()


def test_shape_and_run_time_reshape(onnx_matches):
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    with pytest.warns(FutureWarning, match='as_funcnode is experimental'):
        model = _dynamic_model()
    proto = onnx_matches(model, (x, np.array([12, 5], np.int64)), 11)
    assert sorted(n.op_type for n in proto.graph.node) == ['Reshape', 'Shape']
    assert len(proto.graph.input) == 2


def test_reshape_without_a_shape_is_refused():
    with pytest.warns(FutureWarning, match='as_funcnode is experimental'):

        class M(chainerlite.Chain):
            @as_funcnode('Reshape')
            def reshape(self, x):
                return x.array.reshape(-1)

            def forward(self, x):
                return self.reshape(x)

    with pytest.raises(ValueError, match='Reshape: the shape must be'):
        export(M(), np.ones((2, 3), np.float32))
