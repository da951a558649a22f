import numpy

import chainerlite
import chainerlite.links as L


def test_holds_the_array_as_w():
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link = L.Parameter(array)
    assert isinstance(link.W, chainerlite.Parameter)
    assert link.W.array is array
    assert [name for name, _ in link.namedparams()] == ['/W']


def test_call_returns_a_new_variable_whose_gradient_reaches_w():
    link = L.Parameter(numpy.zeros(3, numpy.float32))
    y = link()
    assert y is not link.W
    numpy.testing.assert_array_equal(y.array, link.W.array)
    link.cleargrads()
    chainerlite.functions.sum(y * numpy.array([1, 2, 3], numpy.float32)).backward()
    numpy.testing.assert_array_equal(link.W.grad, [1.0, 2.0, 3.0])


def test_keeps_the_dtype():
    link = L.Parameter(numpy.ones(2, numpy.int32))
    assert link().dtype == numpy.int32


def test_gradient_starts_as_nan_and_init_copy_is_nan_of_the_dtype():
    # Chainer's Parameter link: W's gradient is NaN until cleared, and
    # copy('init') re-creates W as NaN in the array's dtype, whatever
    # config.dtype is then (it failed: a float32 gradient met a float16 array)
    link = L.Parameter(numpy.zeros((2, 3), numpy.float32))
    assert link.W.grad.dtype == numpy.float32 and numpy.isnan(link.W.grad).all()
    link.W.grad = numpy.ones((2, 3), numpy.float32)
    with chainerlite.using_config('dtype', numpy.float16):
        fresh = link.copy('init')
    for array in (fresh.W.array, fresh.W.grad):
        assert array.dtype == numpy.float32 and numpy.isnan(array).all()
    assert (link.W.grad == 1).all() and (link.W.array == 0).all()
