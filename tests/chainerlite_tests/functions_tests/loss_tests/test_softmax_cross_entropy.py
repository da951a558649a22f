import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _log_softmax(x):
    x = x.astype(numpy.float64)
    shifted = x - x.max(axis=1, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=1, keepdims=True))


def _tolerances(case):
    if case.dtype == numpy.float16:
        case.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
        case.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-2,
            'rtol': 1e-2,
        }
        case.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-2,
            'rtol': 5e-2,
        }
    elif case.dtype == numpy.float32:
        case.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        case.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }


@testing.parameterize(
    *testing.product_dict(
        [
            {'shape': (4, 3), 'ignore_label': -1},
            {'shape': (3, 4, 2), 'ignore_label': 2},
        ],
        [
            {'reduce': 'mean', 'normalize': True},
            {'reduce': 'mean', 'normalize': False},
            {'reduce': 'no', 'normalize': True},
        ],
        testing.product(
            {
                'weighted': [False, True],
                'cache_score': [True, False],
                'enable_double_backprop': [False, True],
                'dtype': [numpy.float16, numpy.float32, numpy.float64],
            }
        ),
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSoftmaxCrossEntropy(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)
        self.skip_double_backward_test = not self.enable_double_backprop
        n_classes = self.shape[1]
        self.class_weight = None
        if self.weighted:
            self.class_weight = numpy.random.uniform(0.5, 2, n_classes).astype(
                self.dtype
            )

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        t_shape = self.shape[:1] + self.shape[2:]
        t = numpy.random.randint(0, self.shape[1], t_shape)
        t.ravel()[0] = self.ignore_label
        return x, t.astype(numpy.int32)

    def forward(self, inputs, device):
        x, t = inputs
        class_weight = None
        if self.class_weight is not None:
            class_weight = device.send(self.class_weight)
        return (
            F.softmax_cross_entropy(
                x,
                t,
                normalize=self.normalize,
                cache_score=self.cache_score,
                class_weight=class_weight,
                ignore_label=self.ignore_label,
                reduce=self.reduce,
                enable_double_backprop=self.enable_double_backprop,
            ),
        )

    def forward_expected(self, inputs):
        x, t = inputs
        log_y = numpy.moveaxis(_log_softmax(x), 1, -1)
        valid = t != self.ignore_label
        label = numpy.where(valid, t, 0)
        picked = numpy.take_along_axis(log_y, label[..., None], -1)[..., 0]
        if self.class_weight is not None:
            picked = picked * self.class_weight[label]
        loss = -picked * valid
        if self.reduce == 'mean':
            # all labels ignored: divided by 1 (see test_all_ignored_gives_zero)
            count = max(valid.sum(), 1) if self.normalize else len(x)
            loss = loss.sum() / count
        return (numpy.asarray(loss, self.dtype),)


@testing.parameterize(
    *testing.product(
        {
            'shape': [(4, 3), (2, 3, 2)],
            'soft_target_loss': ['cross-entropy', 'kl-divergence'],
            'reduce': ['mean', 'no'],
            'enable_double_backprop': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSoftmaxCrossEntropySoftTarget(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)
        self.skip_double_backward_test = not self.enable_double_backprop
        # The soft target is a float input, but it gets no gradient.
        for options in ('check_backward_options', 'check_double_backward_options'):
            setattr(self, options, dict(getattr(self, options), no_grads=[False, True]))

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape)
        t = numpy.random.uniform(0, 1, self.shape)
        t.ravel()[0] = 0  # an impossible class (KL needs 0 log 0 = 0)
        t /= t.sum(axis=1, keepdims=True)
        return x.astype(self.dtype), t.astype(self.dtype)

    def forward(self, inputs, device):
        x, t = inputs
        return (
            F.softmax_cross_entropy(
                x,
                t,
                reduce=self.reduce,
                enable_double_backprop=self.enable_double_backprop,
                soft_target_loss=self.soft_target_loss,
            ),
        )

    def forward_expected(self, inputs):
        x, t = inputs
        t = t.astype(numpy.float64)
        loss = -(t * _log_softmax(x)).sum(axis=1)
        if self.soft_target_loss == 'kl-divergence':
            loss += (t * numpy.log(t + 1e-7)).sum(axis=1)
        if self.reduce == 'mean':
            loss = loss.mean()
        return (numpy.asarray(loss, self.dtype),)


def test_kl_divergence_adds_eps_to_the_target_under_its_log():
    # Chainer's SoftmaxCrossEntropy.eps: log(t + eps), a node may change it
    x = numpy.array([[0.0, 1.0, 2.0]])
    t = numpy.array([[0.5, 0.5, 0.0]])
    log_y = x - numpy.log(numpy.exp(x).sum())
    for eps in (None, 0.25):
        node = F.loss.softmax_cross_entropy.SoftmaxCrossEntropy(
            soft_target_loss='kl-divergence', reduce='no'
        )
        if eps is not None:
            node.eps = eps
        (loss,) = node.apply((x, t))
        expected = (t * (numpy.log(t + node.eps) - log_y)).sum()
        numpy.testing.assert_allclose(loss.array, [expected], rtol=1e-12)
    assert F.loss.softmax_cross_entropy.SoftmaxCrossEntropy.eps == 1e-7


def test_soft_target_gradient_does_not_need_normalized_targets():
    x = chainerlite.Variable(numpy.array([[0.0, 1.0, 2.0]]))
    t = numpy.array([[1.0, 1.0, 0.0]])
    F.softmax_cross_entropy(x, t).backward()
    y = numpy.exp(x.array) / numpy.exp(x.array).sum()
    numpy.testing.assert_allclose(x.grad, 2 * y - t)


def test_t_gets_no_gradient():
    x = chainerlite.Variable(numpy.zeros((2, 3), numpy.float32))
    t = chainerlite.Variable(numpy.array([[0.5, 0.5, 0.0]] * 2, numpy.float32))
    F.softmax_cross_entropy(x, t, enable_double_backprop=True).backward()
    assert x.grad is not None
    assert t.grad is None


def test_double_backprop_needs_the_option():
    x = chainerlite.Variable(numpy.random.uniform(-1, 1, (2, 3)))
    t = numpy.array([0, 2], numpy.int32)
    (gx,) = chainerlite.grad(
        [F.softmax_cross_entropy(x, t)], [x], enable_double_backprop=True
    )
    with pytest.raises(RuntimeError, match='enable_double_backprop=True'):
        F.sum(gx * gx).backward()


def test_all_ignored_gives_zero():
    x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    t = numpy.full(2, -1, numpy.int32)
    assert float(F.softmax_cross_entropy(x, t).array) == 0


@pytest.mark.parametrize('debug', [False, True])
@pytest.mark.parametrize('double', [False, True])
@pytest.mark.parametrize('t, bad', [([0, 3], 3), ([-2, 1], -2), ([[0, 1], [7, -1]], 7)])
def test_out_of_range_label_raises(debug, double, t, bad):
    t = numpy.array(t, numpy.int32)
    x = numpy.zeros((2, 3) + t.shape[1:], numpy.float32)
    with chainerlite.using_config('debug', debug):
        # An IndexError as in Chainer 7.8.1, and chainerlite's ValueError.
        with pytest.raises(
            IndexError,
            match=(
                r'softmax_cross_entropy: .*0 <= t < x.shape\[1\].* '
                r'label {} is given'.format(bad)
            ),
        ) as info:
            F.softmax_cross_entropy(x, t, enable_double_backprop=double)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize('ignore_label', [-1, 3, -5])
def test_ignore_label_outside_the_classes_is_accepted(ignore_label):
    x = numpy.random.uniform(-1, 1, (3, 3)).astype(numpy.float32)
    t = numpy.array([0, ignore_label, 2], numpy.int32)
    loss = F.softmax_cross_entropy(x, t, ignore_label=ignore_label)
    expected = F.softmax_cross_entropy(x[[0, 2]], t[[0, 2]])
    numpy.testing.assert_allclose(loss.array, expected.array, rtol=1e-6)


@pytest.mark.parametrize(
    'kwargs, error, match',
    [
        ({'reduce': 'sum'}, ValueError, "'mean' and 'no'"),
        ({'soft_target_loss': 'l2'}, ValueError, 'soft_target_loss'),
        ({'class_weight': numpy.ones((3, 1), numpy.float32)}, ValueError, 'ndim'),
        ({'class_weight': numpy.ones(3, numpy.int32)}, ValueError, 'dtype'),
        (
            {'class_weight': chainerlite.Variable(numpy.ones(3, numpy.float32))},
            ValueError,
            'not a Variable',
        ),
        ({'class_weight': numpy.ones(4, numpy.float32)}, ValueError, r'x.shape\[1\]'),
    ],
)
def test_invalid_options(kwargs, error, match):
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)
    with pytest.raises(error, match=match):
        F.softmax_cross_entropy(x, t, **kwargs)


def test_class_weight_with_soft_target_is_not_implemented():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(NotImplementedError, match='class_weight'):
        F.softmax_cross_entropy(
            x,
            numpy.full((2, 3), 1 / 3, numpy.float32),
            class_weight=numpy.ones(3, numpy.float32),
        )


@pytest.mark.parametrize(
    'x, t',
    [
        (numpy.zeros((2, 3), numpy.int32), numpy.zeros(2, numpy.int32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.int32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 1), numpy.int32)),
        (numpy.zeros((2, 3, 4), numpy.float32), numpy.zeros((2, 3), numpy.int32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 4), numpy.float32)),
    ],
)
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType, match='SoftmaxCrossEntropy'):
        F.softmax_cross_entropy(x, t)


@pytest.mark.parametrize('double, error', [(False, IndexError), (True, RuntimeError)])
def test_0d_input_with_labels_raises_chainers_type(double, error):
    # Chainer 7.8.1 indexes x's first axis, or (double backprop) reads a
    # type-check variable as a bool; chainerlite's check names the function
    x = numpy.zeros((), numpy.float32)
    t = numpy.zeros(4, numpy.int32)
    with pytest.raises(error, match='SoftmaxCrossEntropy') as info:
        F.softmax_cross_entropy(x, t, enable_double_backprop=double)
    assert isinstance(info.value, type_check.InvalidType)


@pytest.mark.parametrize('normalize', [True, False])
def test_double_backprop_mean_loss_is_a_sum_of_scaled_losses(normalize):
    # As Chainer builds it: the last node is a sum that keeps nothing; the
    # value and the gradients are those of the single-backprop loss.
    x = numpy.random.RandomState(3).randn(6, 4).astype(numpy.float32)
    t = numpy.array([0, 3, -1, 2, 1, -1], numpy.int32)
    xv = chainerlite.Variable(x)
    loss = F.softmax_cross_entropy(
        xv, t, normalize=normalize, enable_double_backprop=True
    )
    node = loss.creator_node
    assert node.label == 'Sum'
    assert node._input_indexes_to_retain is None
    assert node._output_indexes_to_retain is None
    plain = F.softmax_cross_entropy(x, t, normalize=normalize)
    testing.assert_allclose(loss.array, plain.array, rtol=1e-6)
    (gx,) = chainerlite.grad([loss], [xv], enable_double_backprop=True)
    plain_x = chainerlite.Variable(x)
    F.softmax_cross_entropy(plain_x, t, normalize=normalize).backward()
    testing.assert_allclose(gx.array, plain_x.grad, rtol=1e-6)
    (ggx,) = chainerlite.grad([F.sum(gx * gx)], [xv])
    assert numpy.isfinite(ggx.array).all() and (ggx.array[2] == 0).all()
