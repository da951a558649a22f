import numpy
import pytest

import chainerlite
from chainerlite import gradient_check
from chainerlite import links

BHSM = links.BinaryHierarchicalSoftmax


def test_huffman_tree():
    tree = BHSM.create_huffman_tree({'x': 8, 'y': 6, 'z': 5, 'w': 4, 'v': 3})
    assert tree == (('z', 'y'), (('v', 'w'), 'x'))
    assert BHSM.create_huffman_tree({'a': 1}) == 'a'
    with pytest.raises(ValueError, match='empty'):
        BHSM.create_huffman_tree({})


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_probabilities_sum_to_one(dtype):
    with chainerlite.using_config('dtype', dtype):
        link = BHSM(3, ((0, 1), ((2, 3), 4)))
    assert link.W.shape == (4, 3) and link.W.dtype == dtype
    x = numpy.array([[1, 2, 3]], dtype)
    probs = [numpy.exp(-float(link(x, numpy.array([w], 'i')).array)) for w in range(5)]
    assert sum(probs) == pytest.approx(1, abs=1e-3)


def test_loss_matches_reference_and_backward():
    link = BHSM(2, ((0, 1), 2))
    link.W.array = numpy.random.uniform(-1, 1, (2, 2))
    x = numpy.random.uniform(-1, 1, (3, 2))
    t = numpy.array([0, 2, 1], numpy.int32)

    def log_sigmoid(v):
        return -numpy.logaddexp(0, -v)

    W = link.W.array
    paths = {0: [(0, 1), (1, 1)], 1: [(0, 1), (1, -1)], 2: [(0, -1)]}
    expected = -sum(
        log_sigmoid(c * W[n].dot(x[i]))
        for i, w in enumerate(t)
        for n, c in paths[int(w)]
    )
    numpy.testing.assert_allclose(link(x, t).array, expected)
    gradient_check.check_backward(
        link, (x, t), numpy.array(0.7), params=(link.W,), atol=1e-6, rtol=1e-6
    )


def test_tree_leaves_must_be_word_ids():
    with pytest.raises(ValueError, match='word ids'):
        BHSM(2, ((0, 2), 3))
    with pytest.raises(ValueError, match='pairs'):
        BHSM(2, ((0, 1, 2), 3))


def test_tree_parser_as_chainer():
    # Chainer 7.8.1's TreeParser(dtype).parse(tree), values recorded there
    from chainerlite.links.loss.hierarchical_softmax import TreeParser

    parser = TreeParser(numpy.float32)
    assert parser.size() == 0
    parser.parse(((0, 1), ((2, 3), 4)))
    assert parser.size() == 4
    paths = {k: v.tolist() for k, v in parser.get_paths().items()}
    assert paths == {0: [0, 1], 1: [0, 1], 2: [0, 2, 3], 3: [0, 2, 3], 4: [0, 2]}
    codes = parser.get_codes()
    assert codes[3].dtype == numpy.float32 and codes[3].tolist() == [-1, 1, -1]
    assert codes[1].tolist() == [1, -1]
    parser.parse(('a', 'b'))  # a new tree replaces the old; any leaves
    assert parser.size() == 1 and sorted(parser.get_paths()) == ['a', 'b']
    with pytest.raises(ValueError, match='pairs'):
        parser.parse(((0, 1, 2), 3))
