"""Attributes set by Python code on nodes and variables.

Compiled instances keep such attributes in a dict made on first use; Python
subclasses use their own ``__dict__`` (and CPython's plain attribute lookup
once an instance is applied or initialised), unless they define attribute
hooks of their own.
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_node


def _x():
    return chainerlite.Variable(numpy.ones(3, numpy.float32))


class Twice(function_node.FunctionNode):
    def forward(self, inputs):
        self.note = 'forward ran'
        return (inputs[0] * 2,)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] * 2,)


class Hooked(Twice):
    def __init__(self):
        self.reads = []

    def __getattr__(self, name):
        self.reads.append(name)
        return 'default ' + name

    def __setattr__(self, name, value):
        object.__setattr__(
            self, name, value.upper() if isinstance(value, str) else value
        )


def test_python_node_attributes_before_and_after_apply():
    node = Twice()
    node.before = 1
    (y,) = node.apply((_x(),))
    assert (node.before, node.note) == (1, 'forward ran')
    node.after = 2
    assert node.__dict__['after'] == 2
    del node.after
    with pytest.raises(AttributeError, match='after'):
        node.after
    with pytest.raises(AttributeError):
        node.label = 'read-only property'
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()


def test_subclass_attribute_hooks_are_kept():
    node = Hooked()
    node.apply((_x(),))
    node2 = Hooked()
    node2.apply((_x(),))
    assert node2.note == 'FORWARD RAN'  # __setattr__ still runs
    assert node2.missing == 'default missing'
    assert node2.reads == ['missing']


def test_compiled_nodes_and_variables_take_attributes():
    x = _x()
    y = x * 2.0
    y.creator.tag = 'mul'
    y.tag = 'product'
    assert (y.creator.tag, y.tag) == ('mul', 'product')
    with pytest.raises(AttributeError):
        y.creator.untagged


def test_parameter_attributes():
    p = chainerlite.Parameter(numpy.zeros(2, numpy.float32))
    p.custom = 5
    assert p.custom == 5 and p.__dict__['custom'] == 5
    p.array = numpy.ones(2, numpy.float32)
    numpy.testing.assert_array_equal(p.data, [1, 1])
    with pytest.raises(AttributeError):
        p.unset_attribute
    F.sum(p * 3.0).backward()
    numpy.testing.assert_array_equal(p.grad, [3, 3])


def _variable_with_setattr():
    class Traced(chainerlite.Variable):
        def __setattr__(self, name, value):
            super().__setattr__(name, value)

    return Traced(numpy.ones(1, numpy.float32))


def _node_with_delattr():
    class Deleting(function_node.FunctionNode):
        def __delattr__(self, name):
            super().__delattr__(name)

    return Deleting()


@pytest.mark.parametrize(
    'make',
    [
        _x,
        lambda: _x().node,
        function_node.FunctionNode,
        Twice,
        _variable_with_setattr,
        _node_with_delattr,
    ],
)
def test_deleting_attributes(make):
    # as of Chainer's plain classes: an attribute set is deleted, one never
    # set or a property without a deleter is an AttributeError (deletes
    # that reached object.__delattr__ raised CPython's TypeError "can't
    # apply this __delattr__", the compiled classes overriding it)
    obj = make()
    obj.tag = 1
    del obj.tag
    assert not hasattr(obj, 'tag')
    name = type(obj).__name__
    with pytest.raises(
        AttributeError, match="'{}' object has no attribute 'tag'".format(name)
    ):
        del obj.tag
    if isinstance(obj, chainerlite.Variable):
        with pytest.raises(
            AttributeError, match="'grad' of '{}' object has no deleter".format(name)
        ):
            del obj.grad
    elif isinstance(obj, function_node.FunctionNode):
        with pytest.raises(AttributeError):
            del obj.label


@pytest.mark.parametrize('base', [chainerlite.Variable, chainerlite.Parameter, Twice])
def test_super_attribute_setters_below_a_python_subclass(base):
    # a Python subclass uses CPython's generic attribute functions; a class
    # under it whose __setattr__ and __delattr__ call super()'s (as code
    # written for Chainer's plain classes does) reaches object's through it
    # (they reached the compiled class's, which CPython refused: "can't
    # apply this __setattr__")
    class Middle(base):
        pass

    class Tracing(Middle):
        def __init__(self, *args):
            self.seen = []
            super().__init__(*args)

        def __setattr__(self, name, value):
            if name != 'seen':
                self.seen.append(name)
            super().__setattr__(name, value)

        def __delattr__(self, name):
            super().__delattr__(name)

        def __getattr__(self, name):
            return 'missing ' + name

    args = () if issubclass(base, function_node.FunctionNode) else (_x().array,)
    obj = Tracing(*args)
    obj.tag = 1
    assert obj.tag == 1 and 'tag' in obj.seen
    del obj.tag
    assert obj.tag == 'missing tag'  # its own __getattr__ is kept
    plain = Middle(*args)
    plain.tag = 2
    assert plain.tag == 2
    with pytest.raises(AttributeError):
        plain.missing
