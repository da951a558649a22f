import pickle

import numpy
import pytest

from chainerlite import backend
from chainerlite import dataset
from chainerlite.testing import attr


def test_stacks_arrays_tuples_and_dicts():
    xs = [numpy.random.rand(2, 3) for _ in range(4)]
    ts = [numpy.int32(i) for i in range(4)]
    numpy.testing.assert_array_equal(dataset.concat_examples(xs), numpy.stack(xs))
    x, t = dataset.concat_examples(list(zip(xs, ts)))
    numpy.testing.assert_array_equal(x, numpy.stack(xs))
    assert t.dtype == numpy.int32 and t.tolist() == [0, 1, 2, 3]
    d = dataset.concat_examples([{'x': a, 't': b} for a, b in zip(xs, ts)])
    assert set(d) == {'x', 't'}
    numpy.testing.assert_array_equal(d['x'], numpy.stack(xs))


def test_python_scalars_become_an_array():
    ints = dataset.concat_examples([1, 2, 3], -1)
    floats = dataset.concat_examples([1.0, 2.5], None, 0)
    assert ints.dtype == numpy.array([1]).dtype and ints.tolist() == [1, 2, 3]
    assert floats.dtype == numpy.float64 and floats.tolist() == [1.0, 2.5]


def test_padding_fills_the_largest_shape():
    a, b = numpy.ones((1, 3), 'f'), numpy.full((2, 1), 2, 'f')
    out = dataset.concat_examples([a, b], padding=-1)
    expected = numpy.array([[[1, 1, 1], [-1, -1, -1]], [[2, -1, -1], [2, -1, -1]]], 'f')
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, expected)


def test_padding_per_tuple_entry():
    batch = [
        (numpy.ones(1, 'i'), numpy.ones(2, 'i')),
        (numpy.ones(2, 'i'), numpy.ones(1, 'i')),
    ]
    x, y = dataset.concat_examples(batch, padding=(0, 9))
    numpy.testing.assert_array_equal(x, [[1, 0], [1, 1]])
    numpy.testing.assert_array_equal(y, [[1, 1], [1, 9]])


def test_bad_batches_are_rejected():
    with pytest.raises(ValueError, match='empty'):
        dataset.concat_examples([])
    with pytest.raises(ValueError, match='padding'):
        dataset.concat_examples([numpy.ones(2), numpy.ones(3)])


def test_concat_examples_is_a_picklable_converter():
    assert isinstance(dataset.concat_examples, dataset.Converter)
    assert (
        pickle.loads(pickle.dumps(dataset.concat_examples)) is dataset.concat_examples
    )


def test_converter_decorator_hands_a_device_object():
    seen = []

    @dataset.converter()
    def conv(batch, device):
        seen.append(device)
        return len(batch)

    assert conv([1, 2], -1) == 2 and conv([1], None) == 1
    assert conv([1], '@numpy') == 1
    assert seen == [backend.CpuDevice(), None, backend.CpuDevice()]
    assert isinstance(conv, dataset.Converter)


@pytest.mark.parametrize('thing', [5, None, 'concat'])
def test_converter_decorator_wraps_callables_only(thing):
    # TypeError when decorating, as Chainer's
    with pytest.raises(TypeError, match='callable'):
        dataset.converter()(thing)


def test_call_converter_keeps_the_old_protocol_for_plain_functions():
    seen = []

    def legacy(batch, device):
        seen.append(device)

    dataset.convert._call_converter(legacy, [1], backend.CpuDevice())
    dataset.convert._call_converter(legacy, [1], None)
    assert seen == [-1, None]


def test_to_device_cpu():
    x = numpy.arange(3)
    assert dataset.to_device(None, x) is x
    assert isinstance(dataset.to_device(-1, x), numpy.ndarray)
    assert dataset.to_device('@numpy', None) is None


def test_async_transfer_on_the_cpu_is_concat_examples():
    conv = dataset.ConcatWithAsyncTransfer()
    x, t = conv([(numpy.ones(2), 1), (numpy.zeros(3), 2)], None, 0)
    numpy.testing.assert_array_equal(x, [[1, 1, 0], [0, 0, 0]])
    numpy.testing.assert_array_equal(t, [1, 2])


def test_async_transfer_keeps_the_device_of_its_first_tuples():
    # as Chainer: once a batch of tuples went through, another device is
    # refused; batches of arrays alone do not bind it
    conv = dataset.ConcatWithAsyncTransfer()
    conv([numpy.ones(2)], -1)
    conv([numpy.ones(2)], None)
    conv([(numpy.ones(2), 1)], None)
    with pytest.raises(ValueError, match='device is different'):
        conv([(numpy.ones(2), 1)], -1)
    with pytest.raises(ValueError, match='batch is empty'):
        conv([], -1)


@attr.gpu
def test_to_gpu_and_async_transfer():
    import cupy

    batch = [
        (numpy.ones(2, 'f'), numpy.int32(1)),
        (numpy.zeros(2, 'f'), numpy.int32(0)),
    ]
    x, t = dataset.concat_examples(batch, 0)
    assert isinstance(x, cupy.ndarray) and int(x.device) == 0
    y, u = dataset.ConcatWithAsyncTransfer()(batch, 0)
    cupy.testing.assert_array_equal(x, y)
    cupy.testing.assert_array_equal(t, u)
    padded = dataset.concat_examples([cupy.ones(1), cupy.ones(2)], padding=0)
    assert isinstance(padded, cupy.ndarray)
    assert padded.tolist() == [[1, 0], [1, 1]]


def test_concat_examples_func_is_the_plain_function():
    # Chainer 7.8.1: concat_examples wraps concat_examples_func, which takes
    # the device spec as given (a negative int: the CPU).
    from chainerlite.dataset import convert

    batch = [(numpy.zeros(2), 1), (numpy.ones(2), 2)]
    xs, ts = convert.concat_examples_func(batch, -1)
    numpy.testing.assert_array_equal(xs, [[0, 0], [1, 1]])
    numpy.testing.assert_array_equal(ts, [1, 2])
    padded = convert.concat_examples_func([numpy.zeros(1), numpy.ones(2)], None, -1)
    numpy.testing.assert_array_equal(padded, [[0, -1], [1, 1]])


@pytest.mark.parametrize('device', [None, -1])
def test_conveyor_returns_arrays_in_put_order(device):
    from chainerlite.dataset.convert import Conveyor

    conveyor = Conveyor(device)
    arrays = [numpy.full(3, i, numpy.float32) for i in range(3)]
    for a in arrays:
        conveyor.put(a)
    for a in arrays:
        got = conveyor.get()
        assert isinstance(got, numpy.ndarray)
        numpy.testing.assert_array_equal(got, a)
    with pytest.raises(IndexError, match='Conveyor'):
        conveyor.get()


@attr.gpu
def test_conveyor_sends_on_the_stream():
    import cupy

    from chainerlite.dataset.convert import Conveyor

    conveyor = Conveyor(0, cupy.cuda.Stream(non_blocking=True))
    arrays = [numpy.arange(6, dtype=numpy.float32) * i for i in range(3)]
    for a in arrays:
        conveyor.put(a)
    got = [conveyor.get(), conveyor.get(sync=False), conveyor.get()]
    cupy.cuda.runtime.deviceSynchronize()
    for a, g in zip(arrays, got):
        assert isinstance(g, cupy.ndarray)
        numpy.testing.assert_array_equal(cupy.asnumpy(g), a)


def test_a_tuple_padding_shorter_than_the_examples_is_refused():
    batch = [(numpy.ones(1), numpy.ones(2)), (numpy.ones(2), numpy.ones(2))]
    # one entry of padding for two-entry examples: no batch with one array
    with pytest.raises(IndexError, match='padding has 1 entries for examples of 2'):
        dataset.concat_examples(batch, padding=(0,))
    x, y = dataset.concat_examples(batch, padding=(0, 5, 7))
    assert x.shape == (2, 2) and y.shape == (2, 2)


@pytest.mark.parametrize(
    'batch, name',
    [([None, None], 'NoneType'), (['a', 'b'], 'str'), ([[1], [None]], 'list')],
)
def test_examples_that_are_not_numbers_are_a_type_error(batch, name):
    with pytest.raises(TypeError, match='not ' + name):
        dataset.concat_examples(batch)
    with pytest.raises(TypeError, match='not ' + name):
        dataset.concat_examples([(e,) for e in batch], padding=0)
