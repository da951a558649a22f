"""utils.argument, array, cache, precision, experimental, tempdir."""

import os
import warnings

import numpy
import pytest

import chainerlite
from chainerlite import utils
from chainerlite.utils import argument
from chainerlite.utils import array
from chainerlite.utils import cache
from chainerlite.utils import collections_abc
from chainerlite.utils import precision


def test_parse_kwargs():
    def f(**kwargs):
        return argument.parse_kwargs(kwargs, ('a', 1), ('b', 2), old='old is gone')

    assert f() == (1, 2) and f(b=3, a=4) == (4, 3)
    with pytest.raises(
        TypeError,
        match=r"f\(\) got unexpected keyword argument\(s\) "
        r"'x', 'y'",
    ):
        f(y=1, x=2)
    with pytest.raises(ValueError, match='old is gone'):
        f(old=1)


def test_assert_kwargs_empty():
    def g(**kwargs):
        argument.assert_kwargs_empty(kwargs)

    g()
    with pytest.raises(TypeError, match=r"g\(\) .* 'z'"):
        g(z=1)


@pytest.mark.parametrize(
    'in_shape, out_shape',
    [
        ((), ()),
        ((3,), ()),
        ((3,), (1,)),
        ((2, 3), (3,)),
        ((2, 3), (2, 1)),
        ((2, 3, 4), (3, 1)),
    ],
)
def test_sum_to(in_shape, out_shape):
    x = numpy.arange(1, numpy.prod(in_shape) + 1, dtype=numpy.float32).reshape(in_shape)
    lead = x.ndim - len(out_shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(out_shape) if n == 1
    )
    expected = x.sum(axis=axes).reshape(out_shape)
    y = array.sum_to(x, out_shape)
    assert type(y) is numpy.ndarray and y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y, expected)
    assert array.size_of_shape(in_shape) == x.size


class Holder(object):
    def __init__(self):
        self.calls = 0

    @cache.cached_property
    def value(self):
        self.calls += 1
        return chainerlite.Variable(numpy.ones(1)) * 2


def test_cached_property_per_backprop_mode():
    assert Holder.value.__name__ == 'value'
    h = Holder()
    a = h.value
    assert h.value is a and h.calls == 1 and a.creator is not None
    with chainerlite.no_backprop_mode():
        b = h.value
        assert h.value is b and b.creator is None
    assert h.value is a and h.calls == 2


def test_fp16_helper():
    class F(chainerlite.FunctionNode):
        @precision._fp16_mixed_precision_helper
        def forward(self, inputs):
            self.seen = inputs
            return inputs

    x16 = numpy.ones(2, numpy.float16)
    i8 = numpy.ones(2, numpy.int8)
    f = F()
    y, z = f.apply((x16, i8))
    assert f.seen[0].dtype == numpy.float32 and f.seen[1] is i8
    assert y.dtype == numpy.float16 and z.dtype == numpy.int8
    x32 = numpy.ones(2, numpy.float32)
    f = F()
    f.apply((x32, x32))
    assert f.seen[0] is x32
    # a float32 input beside a float16 one: the outputs stay float32, as
    # Chainer's helper casts back only when every float input is float16
    f = F()
    y, z = f.apply((x16, x32))
    assert f.seen[0].dtype == numpy.float32
    assert y.dtype == z.dtype == numpy.float32


def test_experimental_warning(monkeypatch):
    monkeypatch.setattr(chainerlite, 'disable_experimental_feature_warning', False)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        utils.experimental('my_api')
    assert len(w) == 1 and w[0].category is FutureWarning
    assert 'my_api is experimental.' in str(w[0].message)
    monkeypatch.setattr(chainerlite, 'disable_experimental_feature_warning', True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        utils.experimental('my_api')
    assert not w


def test_tempdir_is_removed():
    with utils.tempdir(prefix='chainerlite') as path:
        assert os.path.isdir(path)
        open(os.path.join(path, 'f'), 'w').close()
    assert not os.path.exists(path)


def test_tempdir_removal_errors_unless_ignored():
    # as Chainer: an error while removing is raised unless ignore_errors
    with pytest.raises(FileNotFoundError):
        with utils.tempdir() as path:
            os.rmdir(path)
    with utils.tempdir(ignore_errors=True) as path:
        os.rmdir(path)
    assert not os.path.exists(path)


def test_cached_property_is_read_only():
    class Thing(object):
        @cache.cached_property
        def value(self):
            return 1

    thing = Thing()
    with pytest.raises(AttributeError, match="'value'.* is readonly"):
        thing.value = 2
    assert thing.value == 1


def test_collections_abc():
    assert isinstance([], collections_abc.Sequence)
    assert isinstance({}, collections_abc.Mapping)


def test_collections_ordered_dict_is_pythons():
    # chainer.utils._collections.OrderedDict is collections.OrderedDict on
    # Python 3.
    import collections

    from chainerlite.utils import _collections

    assert _collections.OrderedDict is collections.OrderedDict
