import warnings

import pytest

from chainerlite import utils


def _base_with_final_method(**kwargs):
    class Base(utils.enable_final()):
        @utils.final(**kwargs)
        def method(self):
            return 'base'

        def free(self):
            return 'base'

    return Base


def test_overriding_a_final_method_raises_type_error():
    base = _base_with_final_method()
    with pytest.raises(TypeError, match="'method'"):

        class Child(base):
            def method(self):
                return 'child'


def test_other_methods_and_plain_subclasses_are_allowed():
    base = _base_with_final_method()

    class Child(base):
        def free(self):
            return 'child'

    class GrandChild(Child):
        pass

    assert GrandChild().method() == 'base'
    assert GrandChild().free() == 'child'


def test_warning_action_warns_and_keeps_the_override():
    base = _base_with_final_method(action=UserWarning)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')

        class Child(base):
            def method(self):
                return 'child'

    assert [w.category for w in caught] == [UserWarning]
    assert Child().method() == 'child'


def test_exception_action_raises_it():
    base = _base_with_final_method(action=ValueError)
    with pytest.raises(ValueError):

        class Child(base):
            def method(self):
                return 'child'


def test_enable_final_with_bases_and_metaclass():
    class Meta(type):
        pass

    class Mixin(metaclass=Meta):
        def hello(self):
            return 'hello'

    base = utils.enable_final(base=Mixin, meta_base=Meta)

    class Derived(base):
        pass

    # the returned class stands in for the bases, as Chainer's (made by
    # six.with_metaclass) does: a class deriving from it derives from them
    assert Derived.__bases__ == (Mixin,)
    assert isinstance(Derived, Meta)
    assert type(Derived).__name__ == 'base_metaclass'
    assert Derived().hello() == 'hello'
    assert not issubclass(base, Mixin)


def test_final_rejects_a_bad_action():
    with pytest.raises(TypeError, match='action'):
        utils.final(action='ignore')


def test_messages_are_chainers():
    base = _base_with_final_method()
    with pytest.raises(TypeError) as e:

        class Child(base):
            def method(self):
                return 'child'

    assert str(e.value) == "method 'method' is final."
    base = _base_with_final_method(action=UserWarning)
    with pytest.warns(UserWarning) as caught:

        class Other(base):
            def method(self):
                return 'other'

    assert [str(w.message) for w in caught] == ["Overriding method 'method'."]
