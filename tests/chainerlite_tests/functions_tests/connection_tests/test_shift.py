import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, ksize, dilate):
    """Group g of the channels reads its input moved against the offset of
    tap g = (i, j), with the centre tap and the last one swapped (what
    Chainer 7.8.1 does); the leftover channels stay."""
    (kh, kw), (dy, dx) = ksize, dilate
    n, c, h, w = x.shape
    size = c // (kh * kw)
    y = x.astype(numpy.float64).copy()
    centre, last = (kh * kw) // 2, kh * kw - 1
    for g in range(kh * kw):
        tap = {centre: last, last: centre}.get(g, g)
        i, j = divmod(tap, kw)
        oy, ox = (kh // 2 - i) * dy, (kw // 2 - j) * dx
        for ch in range(g * size, (g + 1) * size):
            for a in range(h):
                for b in range(w):
                    inside = 0 <= a + oy < h and 0 <= b + ox < w
                    y[:, ch, a, b] = x[:, ch, a + oy, b + ox] if inside else 0
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # channels, ksize, dilate
                (9, (3, 3), (1, 1)),
                (11, (1, 5), (1, 2)),
                (6, (5, 1), (3, 1)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestShift(testing.FunctionTestCase):
    def setUp(self):
        self.channels, self.ksize, self.dilate = self.case
        self.check_backward_options = {'dtype': numpy.float64}
        self.check_double_backward_options = {'dtype': numpy.float64}

    def generate_inputs(self):
        return (
            numpy.random.uniform(-1, 1, (2, self.channels, 4, 3)).astype(self.dtype),
        )

    def forward(self, inputs, device):
        return (F.shift(inputs[0], self.ksize, self.dilate),)

    def forward_expected(self, inputs):
        return (_reference(inputs[0], self.ksize, self.dilate).astype(self.dtype),)


def test_even_ksize_is_rejected():
    with pytest.raises(ValueError, match='shift: ksize'):
        F.shift(numpy.zeros((1, 9, 3, 3)), ksize=2)


def test_too_few_channels():
    with pytest.raises(type_check.InvalidType, match='Shift'):
        F.shift(numpy.zeros((1, 8, 3, 3), numpy.float32), ksize=3)
