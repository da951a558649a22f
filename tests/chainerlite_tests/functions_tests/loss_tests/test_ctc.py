import itertools

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing


def _collapse(alignment, blank):
    merged = [k for i, k in enumerate(alignment) if i == 0 or k != alignment[i - 1]]
    return [k for k in merged if k != blank]


def _ctc_by_enumeration(x, t, blank, x_len, t_len):
    # Sums the probability of every alignment of every sequence explicitly.
    x = x.astype(numpy.float64)
    y = numpy.exp(x) / numpy.exp(x).sum(axis=2, keepdims=True)
    losses = []
    for b in range(x.shape[1]):
        target = list(t[b, : t_len[b]])
        total = 0.0
        for alignment in itertools.product(range(x.shape[2]), repeat=x_len[b]):
            if _collapse(alignment, blank) == target:
                total += numpy.prod([y[i, b, k] for i, k in enumerate(alignment)])
        losses.append(-numpy.log(total))
    return numpy.array(losses)


@testing.parameterize(
    *testing.product(
        {
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
            'reduce': ['mean', 'no'],
            'case': ['full', 'padded', 'repeated'],
        }
    )
)
class TestCTC:
    def setup_method(self):
        self.blank = 2
        self.x = numpy.random.uniform(-1, 1, (4, 2, 3)).astype(self.dtype)
        self.t = numpy.array([[0, 1], [1, 0]], numpy.int32)
        self.x_len = numpy.array([4, 4], numpy.int32)
        self.t_len = numpy.array([2, 2], numpy.int32)
        if self.case == 'padded':
            self.x_len[0] = 3
            self.t_len[1] = 1
        elif self.case == 'repeated':
            self.t = numpy.array([[1, 1], [0, 0]], numpy.int32)
        gy_shape = () if self.reduce == 'mean' else (2,)
        self.gy = numpy.random.uniform(-1, 1, gy_shape).astype(self.dtype)
        self.tol = {'atol': 1e-2} if self.dtype == numpy.float16 else {}

    def _loss(self, *xs):
        return F.connectionist_temporal_classification(
            list(xs), self.t, self.blank, self.x_len, self.t_len, reduce=self.reduce
        )

    def test_forward(self):
        loss = self._loss(*self.x)
        expected = _ctc_by_enumeration(
            self.x, self.t, self.blank, self.x_len, self.t_len
        )
        if self.reduce == 'mean':
            expected = expected.mean()
        assert loss.dtype == self.dtype
        testing.assert_allclose(loss.array, expected, **self.tol)

    def test_backward(self):
        gradient_check.check_backward(
            self._loss,
            tuple(self.x),
            self.gy,
            eps=1e-2,
            atol=1e-3,
            rtol=1e-3,
            dtype=numpy.float64,
        )


def test_default_lengths_use_the_whole_input():
    x = [numpy.zeros((1, 2), numpy.float32)] * 3
    t = numpy.array([[0]], numpy.int32)
    loss = F.connectionist_temporal_classification(x, t, 1)
    expected = _ctc_by_enumeration(
        numpy.stack(x), t, 1, numpy.array([3]), numpy.array([1])
    )
    testing.assert_allclose(loss.array, expected[0])


def test_works_without_backprop():
    xs = list(numpy.zeros((3, 2, 3), numpy.float32))
    with chainerlite.no_backprop_mode():
        loss = F.connectionist_temporal_classification(
            xs, numpy.zeros((2, 1), numpy.int32), 2
        )
    assert loss.creator is None


def test_x_must_be_a_sequence():
    with pytest.raises(TypeError, match='connectionist_temporal_classification'):
        F.connectionist_temporal_classification(
            numpy.zeros((4, 2, 3), numpy.float32), numpy.zeros((2, 2), numpy.int32), 0
        )


def test_invalid_reduce_is_rejected():
    with pytest.raises(ValueError, match='reduce'):
        F.connectionist_temporal_classification(
            list(numpy.zeros((4, 2, 3), numpy.float32)),
            numpy.zeros((2, 2), numpy.int32),
            0,
            reduce='sum',
        )


def _loss_and_grads(frames, t, **kwargs):
    xs = [chainerlite.Variable(f) for f in frames]
    loss = F.connectionist_temporal_classification(xs, t, 0, reduce='no', **kwargs)
    loss.grad = numpy.ones_like(loss.array)
    loss.backward()
    return loss, [x.grad for x in xs]


def test_node_keeps_every_input_as_chainers_and_takes_stacked_frames():
    frames = list(numpy.zeros((3, 2, 3), numpy.float32))
    loss = F.connectionist_temporal_classification(
        frames, numpy.zeros((2, 1), numpy.int32) + 1, 0
    )
    node = loss.creator_node
    assert tuple(node._input_indexes_to_retain) == (0, 1, 2, 3)
    assert node._output_indexes_to_retain is None
    assert node.inputs[3].shape == (3, 2, 3)


@pytest.mark.filterwarnings('ignore::RuntimeWarning')
def test_special_scores_follow_chainers_log_zero_convention():
    t = numpy.array([[1], [2]], numpy.int32)
    x0 = numpy.array(
        [[0.0, -numpy.inf, 1.0], [0.06554, 0.48384, 1.01946]], numpy.float32
    )
    x1 = numpy.array([[0.0, 0.0, 0.0], [numpy.nan, 0.0, 0.0]], numpy.float32)
    loss, (g0, g1) = _loss_and_grads([x0, x1], t)
    # A -inf score has probability 0: no NaN, no gradient on that entry.
    assert numpy.isfinite(loss.array[0]) and g0[0, 1] == 0
    assert numpy.isfinite(g0[0]).all() and numpy.isfinite(g1[0]).all()
    # A NaN frame has log probability -1e10 for every symbol: the loss is
    # about 1e10, the frame's gradient NaN.
    testing.assert_allclose(loss.array[1], 1e10, rtol=1e-6)
    assert numpy.isnan(g1[1]).all()
    # Beside it, the log probabilities are rounded in float32 (as Chainer
    # computes them): each position on the label's paths counts fully.
    softmax = numpy.exp(x0[1]) / numpy.exp(x0[1]).sum()
    testing.assert_allclose(g0[1], softmax - [1, 0, 1], atol=1e-6)


@pytest.mark.filterwarnings('ignore::RuntimeWarning')
def test_nan_in_a_frame_past_the_input_length_stays_nan_in_its_gradient():
    frames = numpy.array(
        [[[0.5, -1.0, 1.0]], [[0.2, 0.1, 0.3]], [[numpy.nan, 0.0, 0.0]]], numpy.float32
    )
    t = numpy.array([[1]], numpy.int32)
    loss, grads = _loss_and_grads(frames, t, input_length=numpy.array([2], numpy.int32))
    short, short_grads = _loss_and_grads(frames[:2], t)
    testing.assert_allclose(loss.array, short.array)
    testing.assert_allclose(grads[0], short_grads[0])
    assert numpy.isnan(grads[2]).all()


def test_second_order_is_refused_as_in_chainer():
    xs = [chainerlite.Variable(f) for f in numpy.zeros((2, 1, 3), numpy.float32)]
    t = numpy.ones((1, 1), numpy.int32)
    loss = F.connectionist_temporal_classification(xs, t, 0)
    (gx,) = chainerlite.grad([loss], [xs[0]], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        chainerlite.grad([F.sum(gx * gx)], [xs[0]])
