import copy
import pickle
import warnings

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import initializers
from chainerlite import Parameter
from chainerlite import Variable


def test_is_variable_subclass():
    assert issubclass(Parameter, Variable)
    p = Parameter(1.0, (2,))
    assert isinstance(p, Variable)
    assert chainerlite.variable.Parameter is Parameter


def test_scalar_initializer():
    p = Parameter(2.5, (2, 3), name='w')
    assert p.is_initialized
    assert p.shape == (2, 3)
    assert p.dtype == numpy.float32  # config.dtype by default
    numpy.testing.assert_array_equal(p.array, numpy.full((2, 3), 2.5))
    assert p.name == 'w'
    # as in Chainer, the gradient starts full of NaN (cleargrad() or a
    # backward after it fills it)
    assert p.grad.shape == (2, 3) and numpy.isnan(p.grad).all()


def test_int_scalar_initializer():
    p = Parameter(3, (4,))
    numpy.testing.assert_array_equal(p.array, numpy.full(4, 3.0))
    assert p.dtype == numpy.float32


def test_array_initializer_is_the_data():
    a = numpy.arange(6, dtype=numpy.float64).reshape(2, 3)
    p = Parameter(a)
    assert p.is_initialized
    assert p.array is a
    assert p.dtype == numpy.float64


def test_initializer_object():
    p = Parameter(initializers.Constant(7.0), (3,))
    numpy.testing.assert_array_equal(p.array, numpy.full(3, 7.0))


def test_initializer_object_with_dtype():
    p = Parameter(initializers.One(numpy.float64), (2, 2))
    assert p.dtype == numpy.float64
    numpy.testing.assert_array_equal(p.array, numpy.ones((2, 2)))


def test_none_initializer_fills_nan():
    p = Parameter(None, (2, 3))
    assert p.shape == (2, 3)
    assert numpy.isnan(p.array).all()


def test_default_is_uninitialized():
    p = Parameter()
    assert p.array is None
    assert not p.is_initialized
    p.initialize((2,))
    assert p.is_initialized
    assert numpy.isnan(p.array).all()


def test_shape_none_is_uninitialized_then_initialize():
    p = Parameter(initializers.Constant(4.0))
    assert not p.is_initialized
    assert p.array is None
    with pytest.raises(RuntimeError, match='uninitialised'):
        p.grad  # nothing gave it a gradient yet (Chainer's rule)
    assert p.grad_var is None
    p.initialize((2, 3))
    assert p.is_initialized
    assert p.shape == (2, 3)
    assert numpy.isnan(p.grad).all()
    numpy.testing.assert_array_equal(p.array, numpy.full((2, 3), 4.0))
    assert p.node.shape == (2, 3)


def test_scalar_initializer_shape_none_then_initialize_int_shape():
    p = Parameter(3.0)
    assert not p.is_initialized
    p.initialize(4)
    assert p.shape == (4,)
    numpy.testing.assert_array_equal(p.array, numpy.full(4, 3.0))


def test_cleargrad_on_uninitialized():
    p = Parameter(initializers.Constant(1.0))
    p.cleargrad()
    assert p.grad is None
    p.initialize((3,))
    assert p.grad is None


def test_zerograd_on_uninitialized_gives_zero_grad_after_initialize():
    p = Parameter(initializers.Constant(1.0))
    with pytest.warns(DeprecationWarning):
        p.zerograd()
    assert p.grad is None
    p.initialize((3,))
    assert p.grad is not None
    numpy.testing.assert_array_equal(p.grad, numpy.zeros(3))
    assert p.grad.dtype == p.dtype


def test_cleargrad_after_zerograd_on_uninitialized():
    p = Parameter(initializers.Constant(1.0))
    with pytest.warns(DeprecationWarning):
        p.zerograd()
    p.cleargrad()
    p.initialize((3,))
    assert p.grad is None


def test_zerograd_and_cleargrad_on_initialized():
    p = Parameter(1.0, (2,))
    with pytest.warns(DeprecationWarning):
        p.zerograd()
    numpy.testing.assert_array_equal(p.grad, numpy.zeros(2))
    p.cleargrad()
    assert p.grad is None


def test_parameter_receives_grads():
    p = Parameter(2.0, (3,))
    x = Variable(numpy.array([1.0, 2.0, 3.0], numpy.float32))
    p.cleargrad()
    F.sum(p * x).backward()
    numpy.testing.assert_array_equal(p.grad, x.array)


def test_pickle_initialized():
    p = Parameter(2.0, (2, 3), name='w')
    p.grad = numpy.ones((2, 3), numpy.float32)
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is Parameter
    numpy.testing.assert_array_equal(q.array, p.array)
    numpy.testing.assert_array_equal(q.grad, p.grad)
    assert q.name == 'w'
    assert q.is_initialized


def test_pickle_uninitialized_keeps_initializer():
    p = Parameter(initializers.Constant(5.0), name='b')
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is Parameter
    assert not q.is_initialized
    assert q.name == 'b'
    q.initialize((2,))
    numpy.testing.assert_array_equal(q.array, numpy.full(2, 5.0))


def test_deepcopy():
    p = Parameter(2.0, (2,), name='w')
    q = copy.deepcopy(p)
    assert type(q) is Parameter
    assert q.name == 'w'
    assert q.array is not p.array
    numpy.testing.assert_array_equal(q.array, p.array)
    q.array[0] = 9
    assert p.array[0] == 2


def test_uninitialized_copydata_and_addgrad_initialize_first():
    from chainerlite import initializers

    src = chainerlite.Parameter(numpy.arange(3, dtype=numpy.float32))
    src.grad = numpy.ones(3, numpy.float32)
    p = chainerlite.Parameter(initializers.Zero())
    p.copydata(src)
    numpy.testing.assert_array_equal(p.array, src.array)
    q = chainerlite.Parameter(initializers.Zero())
    q.addgrad(src)
    assert q.array.shape == (3,)
    numpy.testing.assert_array_equal(q.grad, numpy.ones(3))


def test_uninitialized_parameter_remembers_its_device():
    from chainerlite import initializers

    p = chainerlite.Parameter(initializers.One())
    p.to_device('@numpy')
    assert p.device == chainerlite.get_device('@numpy')
    p.initialize((2,))
    assert isinstance(p.array, numpy.ndarray)
    with pytest.raises(ValueError):
        p.to_device('@bogus')


class _CopyingDevice(chainerlite.backend.Device):
    # A user-defined device that keeps arrays in host memory.
    xp = numpy
    supported_array_types = (numpy.ndarray,)

    def __init__(self, index):
        self.index = index

    def __eq__(self, other):
        return isinstance(other, _CopyingDevice) and other.index == self.index

    def __hash__(self):
        return hash(self.index)

    def __str__(self):
        return '@copying:{}'.format(self.index)

    def send_array(self, array):
        return array.copy()


def test_parameter_reports_the_user_device_it_was_moved_to():
    initialized = chainerlite.Parameter(numpy.ones(2, numpy.float32))
    uninitialized = chainerlite.Parameter()
    for param in (initialized, uninitialized):
        param.to_device(_CopyingDevice(3))
        assert param.device == _CopyingDevice(3)
    # a new array on another device: the parameter follows the array
    initialized.array = numpy.zeros(2, numpy.float32)
    assert initialized.device == chainerlite.get_device('@numpy')
    uninitialized.initialize((2,))
    assert uninitialized.device == _CopyingDevice(3)


def test_layout_keyword():
    # Chainer 7.8.1's Parameter(..., *, layout=None); chainerlite has the
    # standard layout only
    p = chainerlite.Parameter(numpy.zeros(2, numpy.float32), layout=None)
    assert p.shape == (2,)
    with pytest.raises(NotImplementedError, match='layout'):
        chainerlite.Parameter(0.0, (2,), layout='CUDNN_CHANNEL_LAST_W')


def test_initializer_is_a_class_attribute_and_per_parameter():
    assert chainerlite.Parameter.initializer is None
    init = chainerlite.initializers.Normal()
    p = chainerlite.Parameter(init)
    assert p.initializer is init and chainerlite.Parameter.initializer is None


def test_initialize_drops_a_gradient_of_another_shape_or_dtype():
    # a parameter given an array has no gradient initializer: initialize
    # leaves it without a gradient (it failed when the old one was float32
    # and config.dtype made the new array float16)
    param = Parameter(numpy.zeros(2, numpy.float32))
    param.grad = numpy.ones(2, numpy.float32)
    with chainerlite.using_config('dtype', numpy.float16):
        param.initialize((2,))
    assert param.array.dtype == numpy.float16
    assert param.grad is None


def test_dtype_of_an_uninitialised_parameter_is_its_initializer_s():
    half = chainerlite.Parameter(chainerlite.initializers.Normal(dtype=numpy.float16))
    assert half.dtype == numpy.float16
    half.initialize((2,))
    assert half.dtype == half.array.dtype == numpy.float16
    # an initializer without a dtype reads as NumPy's default, as in Chainer
    assert chainerlite.Parameter().dtype == numpy.float64
    assert chainerlite.Parameter(2.0).dtype == numpy.float64
    with pytest.raises(RuntimeError, match='uninitialised.*gives no dtype'):
        chainerlite.Parameter(lambda array: None).dtype


def test_an_array_with_a_shape_is_broadcast_to_it():
    row = numpy.array([1.0, 2.0, 3.0], numpy.float32)
    p = chainerlite.Parameter(row, (2, 3))
    numpy.testing.assert_array_equal(p.array, [[1, 2, 3], [1, 2, 3]])
    assert p.array.dtype == numpy.float32 and p.array is not row
    assert numpy.isnan(p.grad).all()
    with pytest.raises(ValueError):
        chainerlite.Parameter(numpy.ones((2, 3), numpy.float32), (3, 2))


@pytest.mark.parametrize(
    'give',
    [
        lambda p: p.cleargrad(),
        lambda p: p.zerograd(),
        lambda p: p.initialize((2,)),
        lambda p: setattr(p, 'grad', None),
        lambda p: setattr(p, 'grad_var', None),
    ],
)
def test_an_uninitialised_parameter_has_a_gradient_once_given_one(give):
    # Chainer's rule: reading grad raises until something gives one, and
    # the rule travels with copies and pickles
    p = Parameter(initializers.Constant(1.0))
    for q in (p, copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        with pytest.raises(RuntimeError, match='cleargrad'):
            q.grad
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)  # zerograd's
        give(p)
    p.grad  # no error now, nor on its copies
    pickle.loads(pickle.dumps(p)).grad


def test_an_initializer_that_is_no_array_with_a_shape_is_a_type_error():
    # Chainer calls it as an initializer (a TypeError)
    with pytest.raises(TypeError, match='invalid type of initializer'):
        Parameter([1.0, 2.0], (2,))
