import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, W, b, stride):
    x, W = x.astype(numpy.float64), W.astype(numpy.float64)
    sy, sx = stride
    c_out, out_h, out_w, _, kh, kw = W.shape
    y = numpy.zeros((x.shape[0], c_out, out_h, out_w))
    for p in range(out_h):
        for q in range(out_w):
            patch = x[:, :, p * sy : p * sy + kh, q * sx : q * sx + kw]
            y[:, :, p, q] = numpy.einsum('ncji,ocji->no', patch, W[:, p, q])
    if b is not None:
        y += b
    return y


@testing.parameterize(
    *testing.product(
        {
            'stride': [(1, 1), (2, 1)],
            'nobias': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLocalConvolution2D(testing.FunctionTestCase):
    def setUp(self):
        tol = 5e-2 if self.dtype == numpy.float16 else 1e-4
        self.check_forward_options = {'atol': tol, 'rtol': tol}
        self.check_backward_options = {'dtype': numpy.float64, 'atol': tol, 'rtol': tol}
        self.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': tol,
            'rtol': tol,
        }

    def generate_inputs(self):
        out_h = (5 - 3) // self.stride[0] + 1
        out_w = (4 - 2) // self.stride[1] + 1
        x = numpy.random.uniform(-1, 1, (2, 3, 5, 4))
        W = numpy.random.uniform(-1, 1, (2, out_h, out_w, 3, 3, 2))
        inputs = (
            (x, W)
            if self.nobias
            else (x, W, numpy.random.uniform(-1, 1, (2, out_h, out_w)))
        )
        return tuple(a.astype(self.dtype) for a in inputs)

    def forward(self, inputs, device):
        b = None if self.nobias else inputs[2]
        return (F.local_convolution_2d(inputs[0], inputs[1], b, self.stride),)

    def forward_expected(self, inputs):
        b = None if self.nobias else inputs[2]
        return (_reference(inputs[0], inputs[1], b, self.stride).astype(self.dtype),)


def test_filters_must_match_the_output_size():
    x = numpy.zeros((1, 3, 5, 4), numpy.float32)
    W = numpy.zeros((2, 2, 3, 3, 3, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='LocalConvolution2DFunction'):
        F.local_convolution_2d(x, W)
