"""A user's FunctionNode used wrongly fails as in Chainer 7.8.1: the
exception types and the first lines of their messages."""

import numpy
import pytest

import chainerlite
from chainerlite import FunctionNode
from chainerlite import Variable


def _x(n=2):
    return Variable(numpy.linspace(1, 2, n).astype(numpy.float32))


def _node(backward):
    class Halve(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] / 2,)

    Halve.backward = lambda self, indexes, gys: backward(gys[0])
    return Halve


def _backprop(cls, debug=False, x=None):
    x = _x() if x is None else x
    (y,) = cls().apply((x,))
    y.grad = numpy.ones_like(y.array)
    with chainerlite.using_config('debug', debug):
        y.backward()
    return x.grad


def test_calling_a_node_instead_of_applying_it_raises_runtime_error():
    cls = _node(lambda g: (g,))
    with pytest.raises(RuntimeError, match=r'\(Halve\) which is derived from'):
        cls()(_x())


def test_an_array_given_back_by_backward_is_refused():
    cls = _node(lambda g: (g.array / 2,))
    with pytest.raises(AttributeError, match='Halve.backward returned a ndarray'):
        _backprop(cls)
    with pytest.raises(ValueError, match='type of gradients returned from backward'):
        _backprop(cls, debug=True)


def test_a_bare_variable_from_backward_counts_as_its_rows():
    # two rows for one input: the count is wrong
    with pytest.raises(ValueError, match='incorrect: 2 != expected 1'):
        _backprop(_node(lambda g: g))
    # one row of a (1,) gradient: a gradient of shape () for a (1,) input
    with pytest.raises(ValueError, match='shape of gradients'):
        _backprop(_node(lambda g: g), x=_x(1))


def test_none_from_backward_is_not_a_sequence():
    with pytest.raises(TypeError):
        _backprop(_node(lambda g: None))


def test_gradient_count_and_shape_messages_name_the_node_and_its_arrays():
    with pytest.raises(ValueError) as e:
        _backprop(_node(lambda g: (g, g)))
    lines = str(e.value).split('\n')
    assert lines[0] == (
        'number of gradients returned from backward is incorrect: 2 != expected 1'
    )
    assert lines[1] == '  function=Halve (Halve)'
    assert lines[2] == '    input 0: shape=(2,) dtype=float32'
    with pytest.raises(
        ValueError, match=r'input-index=0, actual \(3,\) != expected \(2,\)'
    ):
        _backprop(_node(lambda g: (Variable(numpy.ones(3, numpy.float32)),)))


def test_nan_messages_of_debug_mode():
    cls = _node(lambda g: (Variable(g.array * numpy.float32('nan')),))
    with pytest.raises(
        RuntimeError, match='NaN is detected on backward computation of Halve'
    ):
        _backprop(cls, debug=True)

    class MakesNaN(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * numpy.float32('nan'),)

    with chainerlite.using_config('debug', True):
        with pytest.raises(
            RuntimeError, match='^NaN is detected on forward computation of MakesNaN$'
        ):
            MakesNaN().apply((_x(),))


def test_a_python_scalar_output_lists_the_output_types():
    class Scalar(FunctionNode):
        def forward(self, inputs):
            return (1.0,)

    with pytest.raises(TypeError) as e:
        Scalar().apply((_x(),))
    assert str(e.value).split('\n') == [
        'forward output must be a tuple of ndarrays.',
        'Function: Scalar',
        "Actual output types: (<class 'float'>,)",
    ]


def test_unchain_empties_the_node_and_refuses_a_second_time():
    cls = _node(lambda g: (g,))
    node = cls()
    with pytest.raises(TypeError):
        node.unchain()  # never applied
    (y,) = node.apply((_x(),))
    node.unchain()
    assert node.inputs is None and node.outputs is None
    assert y.creator is None
    assert node.get_retained_outputs() == ()
    with pytest.raises(TypeError):
        node.unchain()


def test_a_backward_error_in_debug_mode_tells_where_the_node_was_applied():
    def fail(g):
        raise ValueError('no gradient here')

    cls = _node(fail)
    with pytest.raises(ValueError) as plain:
        _backprop(cls)
    assert str(plain.value) == 'no gradient here'
    with chainerlite.using_config('debug', True):
        x = _x()
        (y,) = cls().apply((x,))  # the line the message points to
    y.grad = numpy.ones_like(y.array)
    with pytest.raises(ValueError) as debug:
        y.backward()
    text = str(debug.value)
    assert text.startswith('no gradient here\n')
    assert 'Stacktrace of the function is below:' in text
    assert 'the line the message points to' in text


def test_a_node_not_applied_has_no_layouts():
    node = _node(lambda g: (g,))()
    with pytest.raises(AssertionError):
        node.input_layouts
    node.apply((_x(),))
    assert node.input_layouts == (None,) and node.output_layouts == (None,)
