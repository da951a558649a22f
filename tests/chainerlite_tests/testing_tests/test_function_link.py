import unittest

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_node
from chainerlite import testing
from chainerlite.backends import cuda


class Square(function_node.FunctionNode):
    """y = x * x, with a backward that supports double backprop."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        (x,) = inputs
        # x * x of a 0-d array is a NumPy scalar, which forward may not return
        return (chainerlite.utils.force_array(x * x),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (2 * x * gy,)


class SquareWrongBackward(Square):
    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (3 * x * gy,)


class SquareNoDoubleBackward(Square):
    """Right first order gradient, built from raw arrays (graph is cut)."""

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (chainerlite.Variable(2 * x.array * gy.array),)


class SquareInPlace(Square):
    def forward(self, inputs):
        (x,) = inputs
        y = chainerlite.utils.force_array(x * x)
        x *= 0
        return (y,)


class _SquareTest(testing.FunctionTestCase):
    __test__ = False
    node = Square
    dtype = numpy.float64
    shape = (3, 2)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return self.node().apply(inputs)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (x * x,)


@testing.parameterize(
    *testing.product(
        {
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
            'shape': [(), (3, 2)],
            'contiguous': [None, 'C'],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquare(_SquareTest):
    def setUp(self):
        tolerance = {
            numpy.float16: {'atol': 5e-3, 'rtol': 1e-2},
            numpy.float32: {'atol': 1e-4, 'rtol': 1e-3},
        }.get(self.dtype)
        if tolerance is not None:
            self.check_forward_options = tolerance
            self.check_backward_options = dict(tolerance, dtype=numpy.float64)
            self.check_double_backward_options = self.check_backward_options

    def forward(self, inputs, device):
        (x,) = inputs
        assert isinstance(x.array, device.xp.ndarray)
        return Square().apply(inputs)


def _make(base, backend=None, **attrs):
    """Returns the generated class of ``base`` for one backend, unregistered.

    The module name is not a loaded module, so nothing is added to this
    module's namespace (pytest has already collected it).
    """
    attrs['__module__'] = 'not_a_loaded_module'
    cls = type('Target', (base,), attrs)
    decorated = testing.inject_backend_tests(None, [backend or {}])(cls)
    return decorated.classes[0]


def _run(cls, test_name):
    case = cls(test_name)
    case.setUp()
    getattr(case, test_name)()


def test_correct_function_passes_directly():
    cls = _make(_SquareTest)
    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        _run(cls, name)


def test_wrong_backward_fails_backward_only():
    cls = _make(_SquareTest, node=SquareWrongBackward)
    _run(cls, 'test_forward')
    with pytest.raises(AssertionError) as info:
        _run(cls, 'test_backward')
    assert isinstance(info.value, testing.FunctionTestError)
    message = str(info.value)
    assert 'Target_use_chainerx_false__' in message
    assert '.test_backward on backend {}' in message
    assert 'inputs:' in message


def test_cut_graph_fails_double_backward_only():
    cls = _make(_SquareTest, node=SquareNoDoubleBackward)
    _run(cls, 'test_backward')
    with pytest.raises(AssertionError, match='test_double_backward'):
        _run(cls, 'test_double_backward')


def test_wrong_forward_expected_fails_forward():
    def forward_expected(self, inputs):
        (x,) = inputs
        return (x * x + 0.5,)

    cls = _make(_SquareTest, forward_expected=forward_expected)
    with pytest.raises(testing.FunctionTestError) as info:
        _run(cls, 'test_forward')
    message = str(info.value)
    assert 'output 0 differs from forward_expected' in message
    assert 'inputs:' in message and 'shape=(3, 2) dtype=float64' in message


def test_wrong_dtype_fails_forward():
    def forward_expected(self, inputs):
        (x,) = inputs
        return ((x * x).astype(numpy.float32),)

    cls = _make(_SquareTest, forward_expected=forward_expected)
    with pytest.raises(testing.FunctionTestError, match='dtype float64'):
        _run(cls, 'test_forward')


def test_wrong_output_count_fails_forward():
    def forward_expected(self, inputs):
        (x,) = inputs
        return x * x, x

    cls = _make(_SquareTest, forward_expected=forward_expected)
    with pytest.raises(testing.FunctionTestError, match='1 outputs'):
        _run(cls, 'test_forward')


def test_in_place_forward_fails():
    cls = _make(_SquareTest, node=SquareInPlace, skip_backward_test=True)
    with pytest.raises(testing.FunctionTestError, match='modified input 0'):
        _run(cls, 'test_forward')


@pytest.mark.parametrize(
    'test_name', ['test_forward', 'test_backward', 'test_double_backward']
)
def test_skip_flags(test_name):
    flag = 'skip_{}_test'.format(test_name[5:])

    def generate_inputs(self):
        raise AssertionError('a skipped test must not generate inputs')

    cls = _make(_SquareTest, generate_inputs=generate_inputs, **{flag: True})
    with pytest.raises(unittest.SkipTest, match=flag):
        _run(cls, test_name)


def test_before_test_sees_name_and_config():
    seen = []

    def before_test(self, test_name):
        seen.append((test_name, self.backend_config.xp))
        raise unittest.SkipTest('skipped by before_test')

    cls = _make(_SquareTest, before_test=before_test)
    with pytest.raises(unittest.SkipTest, match='before_test'):
        _run(cls, 'test_double_backward')
    assert seen == [('test_double_backward', numpy)]


def test_custom_grad_generators_are_used():
    seen = []

    def generate_grad_outputs(self, outputs_template):
        (y,) = outputs_template
        seen.append(('gy', y.shape, y.dtype))
        return (numpy.ones_like(y),)

    def generate_grad_grad_inputs(self, inputs_template):
        (x,) = inputs_template
        seen.append(('ggx', x.shape, x.dtype))
        return (numpy.ones_like(x),)

    cls = _make(
        _SquareTest,
        generate_grad_outputs=generate_grad_outputs,
        generate_grad_grad_inputs=generate_grad_grad_inputs,
    )
    _run(cls, 'test_backward')
    _run(cls, 'test_double_backward')
    f64 = numpy.dtype(numpy.float64)
    assert seen == [('gy', (3, 2), f64), ('gy', (3, 2), f64), ('ggx', (3, 2), f64)]


class _ReluTest(testing.FunctionTestCase):
    __test__ = False
    calls = None

    def generate_inputs(self):
        # The first draw sits on the kink of relu, later ones do not.
        self.calls.append(None)
        value = 0.0 if len(self.calls) == 1 else 0.5
        return (numpy.full((2,), value),)

    def forward(self, inputs, device):
        return (F.relu(inputs[0]),)

    def forward_expected(self, inputs):
        return (numpy.maximum(inputs[0], 0),)


@pytest.mark.parametrize('test_name', ['test_backward', 'test_double_backward'])
def test_dodge_nondifferentiable_draws_new_inputs(test_name):
    calls = []
    cls = _make(_ReluTest, dodge_nondifferentiable=True, calls=calls)
    _run(cls, test_name)
    assert len(calls) == 2


def test_without_dodging_the_kink_fails():
    cls = _make(_ReluTest, calls=[])
    with pytest.raises(AssertionError):
        _run(cls, 'test_backward')


def test_dodging_gives_up():
    def generate_inputs(self):
        return (numpy.zeros((2,)),)

    cls = _make(
        _ReluTest, dodge_nondifferentiable=True, generate_inputs=generate_inputs
    )
    with pytest.raises(testing.FunctionTestError, match='10 tries'):
        _run(cls, 'test_backward')


@pytest.mark.parametrize(
    'method, value, match',
    [
        ('forward', lambda self, inputs, device: inputs[0] * 1, 'tuple of Var'),
        ('forward', lambda self, inputs, device: (inputs[0].array,), 'tuple of Var'),
        ('generate_inputs', lambda self: [numpy.ones(2)], 'generate_inputs'),
        ('forward_expected', lambda self, inputs: inputs[0], 'forward_expected'),
        ('generate_grad_outputs', lambda self, t: (), 'generate_grad_outputs'),
    ],
)
def test_malformed_test_case(method, value, match):
    cls = _make(_SquareTest, **{method: value})
    test_name = 'test_backward' if method == 'generate_grad_outputs' else 'test_forward'
    with pytest.raises(testing.FunctionTestError, match=match):
        _run(cls, test_name)


@pytest.mark.parametrize(
    'contiguous, shape, expected',
    [
        (None, (3, 2), False),
        (None, (3, 1), False),
        (None, (1, 1), True),
        (None, (), True),
        ('C', (3, 2), True),
        ('C', (), True),
    ],
)
def test_contiguity_of_inputs(contiguous, shape, expected):
    seen = []

    def forward(self, inputs, device):
        seen.append(inputs[0].array.flags.c_contiguous)
        return Square().apply(inputs)

    cls = _make(_SquareTest, forward=forward, contiguous=contiguous, shape=shape)
    _run(cls, 'test_forward')
    _run(cls, 'test_backward')
    # test_forward's call, then check_backward's first (backprop) call
    assert seen[:3] == [expected] * 3


def test_bad_contiguous_value():
    cls = _make(_SquareTest, contiguous='F')
    with pytest.raises(testing.FunctionTestError, match='contiguous'):
        _run(cls, 'test_forward')


def test_needs_backend_config():
    case = type('Target', (_SquareTest,), {})('test_forward')
    with pytest.raises(testing.FunctionTestError, match='inject_backend_tests'):
        case.test_forward()


def test_collection_flags():
    assert testing.FunctionTestCase.__test__ is False
    assert _SquareTest.__test__ is False
    assert type('Concrete', (_SquareTest,), {}).__test__ is True


@pytest.mark.skipif(not cuda.available, reason='CUDA is not available')
def test_cuda_inputs_are_on_the_device():
    seen = []

    def forward(self, inputs, device):
        seen.append((type(inputs[0].array), device))
        return Square().apply(inputs)

    cls = _make(_SquareTest, {'use_cuda': True}, forward=forward)
    _run(cls, 'test_forward')
    assert seen == [(cuda.cupy.ndarray, chainerlite.backend.GpuDevice(0))]
