import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import links


def test_transposed_inputs_match_time_major():
    link = links.CRF1d(3, initial_cost=numpy.random.uniform(-1, 1, (3, 3)))
    lengths = [3, 2]
    seqs = [numpy.random.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in lengths]
    labels = [numpy.random.randint(0, 3, n).astype(numpy.int32) for n in lengths]
    xs = [numpy.stack([s[t] for s in seqs if len(s) > t]) for t in range(3)]
    ys = [numpy.stack([s[t] for s in labels if len(s) > t]) for t in range(3)]
    expected = F.crf1d(link.cost, xs, ys, reduce='no')
    actual = link(seqs, labels, reduce='no', transpose=True)
    numpy.testing.assert_allclose(actual.array, expected.array, rtol=1e-6)
    actual.grad = numpy.ones_like(actual.array)
    actual.backward()
    assert link.cost.grad.shape == (3, 3)
    score, path = link.argmax(seqs, transpose=True)
    _, time_path = F.argmax_crf1d(link.cost, xs)
    assert [p.tolist() for p in path] == [
        [int(time_path[t][i]) for t in range(n)] for i, n in enumerate(lengths)
    ]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_initialization(dtype):
    with chainerlite.using_config('dtype', dtype):
        assert (links.CRF1d(2).cost.array == 0).all()
        cost = numpy.arange(4, dtype=dtype).reshape(2, 2)
        link = links.CRF1d(2, initial_cost=cost)
    assert link.cost.dtype == dtype
    numpy.testing.assert_array_equal(link.cost.array, cost)
