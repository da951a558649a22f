import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import testing


class Scale(chainerlite.Link):
    """y = W * x with W shaped on the first call (a lazy parameter)."""

    def __init__(self, wrong_grad=False):
        super().__init__()
        self.wrong_grad = wrong_grad
        with self.init_scope():
            self.W = chainerlite.Parameter()

    def forward(self, x):
        if self.W.array is None:
            self.W.initialize(x.shape[1:])
            self.W.array[...] = numpy.random.uniform(0.5, 1.5, x.shape[1:])
        if self.wrong_grad:
            return x * chainerlite.Variable(self.W.array)
        return x * F.broadcast_to(self.W, x.shape)


@testing.parameterize({'dtype': numpy.float32})
@testing.inject_backend_tests(None, [{}])
class TestLinear(testing.LinkTestCase):
    param_names = ('W', 'b')

    def setUp(self):
        self.check_backward_options.update({'atol': 1e-3, 'rtol': 1e-3})

    def generate_params(self):
        return (
            numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype),
            numpy.random.uniform(-1, 1, (2,)).astype(self.dtype),
        )

    def create_link(self, initializers):
        initial_w, initial_b = initializers
        return L.Linear(3, 2, initialW=initial_w, initial_bias=initial_b)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype),)

    def forward_expected(self, link, inputs):
        (x,) = inputs
        return (x.dot(link.W.array.T) + link.b.array,)


class _ScaleTest(testing.LinkTestCase):
    __test__ = False
    param_names = ('W',)
    wrong_grad = False
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return Scale(self.wrong_grad)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32),)

    def forward_expected(self, link, inputs):
        # Calling the CPU link initializes W; the test then uses that W.
        (x,) = inputs
        return (link(x).array,)


def _make(**attrs):
    attrs['__module__'] = 'not_a_loaded_module'
    cls = type('Target', (_ScaleTest,), attrs)
    return testing.inject_backend_tests(None, [{}])(cls).classes[0]


def _run(cls, test_name):
    case = cls(test_name)
    case.setUp()
    getattr(case, test_name)()


@pytest.mark.parametrize('test_name', ['test_forward', 'test_backward'])
def test_lazy_parameter_link_passes(test_name):
    _run(_make(), test_name)


def test_forward_expected_sees_the_link_after_its_forward():
    # W is shaped by the checked forward: forward_expected reads it directly.
    def forward_expected(self, link, inputs):
        assert isinstance(link.W.array, numpy.ndarray)
        return (inputs[0] * link.W.array,)

    _run(_make(forward_expected=forward_expected), 'test_forward')


def test_wrong_parameter_gradient_fails_backward():
    cls = _make(wrong_grad=True)
    _run(cls, 'test_forward')
    with pytest.raises(testing.LinkTestError, match='check_backward'):
        _run(cls, 'test_backward')


def test_wrong_forward_expected_fails_forward():
    def forward_expected(self, link, inputs):
        return (link(inputs[0]).array + 1,)

    with pytest.raises(testing.LinkTestError, match='differs'):
        _run(_make(forward_expected=forward_expected), 'test_forward')


def test_unknown_parameter_name():
    with pytest.raises(testing.LinkTestError, match="no parameter 'b'"):
        _run(_make(param_names=('W', 'b')), 'test_backward')


def test_create_link_must_return_a_link():
    with pytest.raises(testing.LinkTestError, match='must return a Link'):
        _run(_make(create_link=lambda self, i: None), 'test_forward')


def test_only_forward_and_backward_are_tests():
    tests = sorted(n for n in dir(testing.LinkTestCase) if n.startswith('test'))
    assert tests == ['test_backward', 'test_forward']
    assert testing.LinkTestCase.__test__ is False
