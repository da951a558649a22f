import io

import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import serializer
from chainerlite import serializers


def test_abstract_serializer():
    s = serializer.AbstractSerializer()
    with pytest.raises(NotImplementedError):
        s['a']
    with pytest.raises(NotImplementedError):
        s('a', 1)


def test_save_and_load_call_serialize_method():
    class Counter:
        def __init__(self, n):
            self.n = n

        def serialize(self, s):
            self.n = s['sub']('n', self.n)

    saver = serializers.DictionarySerializer()
    saver.save(Counter(5))
    assert list(saver.target) == ['sub/n']
    restored = Counter(0)
    serializers.NpzDeserializer(saver.target).load(restored)
    assert restored.n == 5


def test_link_without_serialize_is_walked():
    chain = chainerlite.Chain()
    with chain.init_scope():
        chain.fc = L.Linear(2, 2)
    chain.add_persistent('step', 3)
    saver = serializers.DictionarySerializer()
    serializer.serialize_link(chain, saver)
    assert set(saver.target) == {'fc/W', 'fc/b', 'step'}


def test_unserializable_object():
    with pytest.raises(TypeError, match='object'):
        serializers.DictionarySerializer().save(object())
    with pytest.raises(TypeError, match='int'):
        serializers.NpzDeserializer({}).load(3)


def test_link_with_own_serialize_is_used_for_children():
    class Custom(chainerlite.Link):
        def serialize(self, s):
            s('custom', numpy.ones(1))

    chain = chainerlite.Chain()
    with chain.init_scope():
        chain.c = Custom()
    saver = serializers.DictionarySerializer()
    saver.save(chain)
    assert list(saver.target) == ['c/custom']


def test_object_without_serialize_is_type_and_attribute_error():
    # Chainer 7.8.1 calls obj.serialize (an AttributeError there)
    with pytest.raises(TypeError, match='it has no serialize method') as info:
        serializers.save_npz(io.BytesIO(), object())
    assert isinstance(info.value, AttributeError)
