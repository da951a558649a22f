"""chainerlite.utils.conv: Chainer 7.8.1's helpers, values recorded there."""

import numpy

from chainerlite.utils import conv


def test_im2col_takes_cover_all_at_chainers_place():
    x = numpy.arange(2 * 1 * 3 * 3, dtype=numpy.float32).reshape(2, 1, 3, 3)
    # the 8th positional argument is cover_all; padding is zeros
    col = conv.im2col(x, 2, 2, 2, 2, 1, 1, True)
    assert col.shape == (2, 1, 2, 2, 3, 3)
    assert col[0, 0, 0, 0].tolist() == [[0, 0, 0], [0, 4, 0], [0, 0, 0]]
    assert conv.im2col(x, 2, 2, 2, 2, 1, 1).shape == (2, 1, 2, 2, 2, 2)
