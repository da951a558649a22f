import functools
import pickle

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import link
from chainerlite import sequential


def _x():
    return numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)


def _relu(a):
    return numpy.maximum(a, 0)


def test_exported_at_top_level():
    assert chainerlite.Sequential is sequential.Sequential
    assert issubclass(sequential.Sequential, link.ChainList)


def test_forward_calls_layers_in_order():
    l1, l2 = L.Linear(3, 4), L.Linear(4, 2)
    model = chainerlite.Sequential(l1, F.relu, l2, lambda y: y * 2)
    x = _x()
    h = _relu(x @ l1.W.array.T + l1.b.array)
    expected = 2 * (h @ l2.W.array.T + l2.b.array)
    numpy.testing.assert_allclose(model(x).array, expected, rtol=1e-5)


def test_tuple_outputs_are_unpacked():
    model = chainerlite.Sequential(lambda a, b: (a + b, a - b), lambda s, d: s * d)
    assert model(3.0, 2.0) == 5.0


def test_empty_forward_raises():
    with pytest.raises(RuntimeError, match='does not have any layer'):
        chainerlite.Sequential()(1.0)


def test_links_are_children_named_by_link_index():
    l1, l2 = L.Linear(3, 4), L.Linear(4, 2)
    model = chainerlite.Sequential(l1, F.relu, l2)
    assert list(model.children()) == [l1, l2]
    assert (l1.name, l2.name) == ('0', '1')
    assert [p for p, _ in model.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b']


def test_gradients_reach_parameters():
    model = chainerlite.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
    y = F.sum(model(_x()))
    y.backward()
    assert all(p.grad is not None for p in model.params())


def test_list_interface():
    l1, l2, l3 = L.Linear(3, 3), L.Linear(3, 3), L.Linear(3, 3)
    model = chainerlite.Sequential(l1, F.relu)
    model.append(l2)
    model.insert(0, F.tanh)
    model.extend([F.sigmoid, l3])
    assert list(model) == [F.tanh, l1, F.relu, l2, F.sigmoid, l3]
    assert len(model) == 6
    assert model[1] is l1 and model[-1] is l3
    assert model[1:3] == [l1, F.relu]
    assert list(reversed(model))[0] is l3
    assert F.relu in model and F.elu not in model
    assert model.index(l2) == 3
    assert model.index(F.relu, 1, 4) == 2
    assert model.count(F.relu) == 1
    assert [child.name for child in model.children()] == ['0', '1', '2']
    assert model.pop() is l3
    assert model.pop(0) is F.tanh
    assert list(model) == [l1, F.relu, l2, F.sigmoid]
    del model[0]
    assert list(model.children()) == [l2] and l2.name == '0'
    model[0] = l1
    assert list(model) == [l1, l2, F.sigmoid]
    assert list(model.children()) == [l1, l2]
    model.remove(l1)
    assert list(model) == [l2, F.sigmoid]
    assert list(model.children()) == [l2] and l2.name == '0'
    with pytest.raises(ValueError, match='no layer object'):
        model.remove(F.relu)
    model.clear()
    assert len(model) == 0 and list(model.children()) == []


def test_non_callable_layers_are_rejected():
    model = chainerlite.Sequential(F.relu)
    with pytest.raises(ValueError, match='callable'):
        model.append(3)
    with pytest.raises(ValueError, match='callable'):
        model.insert(0, 'x')
    with pytest.raises(ValueError, match='callable'):
        model[0] = None
    with pytest.raises(ValueError, match='callable'):
        chainerlite.Sequential(F.relu, 1.0)


def test_add_and_iadd():
    a = chainerlite.Sequential(L.Linear(3, 3), F.relu)
    b = chainerlite.Sequential(L.Linear(3, 2))
    c = a + b
    assert list(c) == list(a) + list(b)
    assert len(list(c.params())) == 4
    a += b
    assert len(a) == 3
    with pytest.raises(ValueError, match='Sequential'):
        a + [F.relu]
    with pytest.raises(ValueError, match='Sequential'):
        a += [F.relu]


def test_a_link_used_twice_is_a_child_twice():
    # as in a ChainList (and in Chainer 7.8.1): its parameters are listed,
    # counted and saved under both names
    shared = L.Linear(3, 3)
    model = chainerlite.Sequential(shared, F.relu, shared)
    assert list(model.children()) == [shared, shared]
    assert model.count_params() == 24
    assert shared.name == '1'


def _sizes(model):
    """The output size of each child, in the children's order, and the
    parameter paths of the weights."""
    return (
        [child.out_size for child in model.children()],
        [path for path, _ in model.namedparams() if path.endswith('W')],
    )


def test_children_are_placed_as_chainer_places_them():
    # Chainer 7.8.1 puts an appended link right after the first child, so
    # that its saved models key the layers in this order; a model saved by
    # Chainer must load into the same layers here
    model = chainerlite.Sequential(*[L.Linear(1, n) for n in (1, 2, 3, 4)])
    assert _sizes(model)[0] == [1, 4, 3, 2]
    assert [layer.name for layer in model] == ['0', '3', '2', '1']
    assert model[1].W is dict(model.namedparams())['/3/W']
    mixed = chainerlite.Sequential(
        L.Linear(1, 1), F.relu, L.Linear(1, 2), L.Linear(1, 3)
    )
    assert _sizes(mixed)[0] == [1, 3, 2]
    leading = chainerlite.Sequential(F.relu, L.Linear(1, 1), L.Linear(1, 2))
    assert _sizes(leading)[0] == [1, 2]


def test_insert_delete_and_replace_keep_chainer_children():
    model = chainerlite.Sequential(L.Linear(1, 1), F.relu, L.Linear(1, 2))
    model.insert(1, L.Linear(1, 3))
    assert _sizes(model)[0] == [1, 3, 2]
    model.append(L.Linear(1, 4))
    assert _sizes(model)[0] == [1, 4, 3, 2]
    del model[1]  # the child of that name goes; those after it are renamed
    assert _sizes(model) == ([1, 4, 2], ['/0/W', '/1/W', '/2/W'])
    assert [getattr(layer, 'name', None) for layer in model] == ['0', None, '2', '1']
    model[0] = L.Linear(1, 5)  # removed, then inserted at 0
    assert _sizes(model)[0] == [5, 4, 2]
    with pytest.raises(ValueError):
        model[4] = F.relu
    with pytest.raises(TypeError):
        del model[0:2]


def test_copy_places_the_children_as_appending_does():
    model = chainerlite.Sequential(L.Linear(1, 1), F.relu, L.Linear(1, 2))
    model.insert(1, L.Linear(1, 3))
    for mode in ('share', 'copy', 'init'):
        assert _sizes(model.copy(mode))[0] == [1, 2, 3]


def test_copyparams_pairs_layers_and_needs_a_sequential():
    a = chainerlite.Sequential(L.Linear(2, 2), F.relu, L.Linear(2, 1))
    b = chainerlite.Sequential(L.Linear(2, 2), F.relu, L.Linear(2, 1))
    a.copyparams(b)
    for mine, theirs in ((a[0], b[0]), (a[2], b[2])):
        numpy.testing.assert_array_equal(mine.W.array, theirs.W.array)
    with pytest.raises(ValueError, match='Sequential'):
        a.copyparams(chainerlite.ChainList(L.Linear(2, 2)))


def test_layer_types():
    model = chainerlite.Sequential(
        L.Linear(3, 3), F.relu, L.Linear(3, 3), F.relu, F.tanh
    )
    assert model.count_by_layer_type('Linear') == 2
    assert model.count_by_layer_type('relu') == 2
    model.remove_by_layer_type('relu')
    assert [type(layer).__name__ for layer in model] == ['Linear', 'Linear', 'function']
    assert [child.name for child in model.children()] == ['0', '1']
    model.remove_by_layer_type('Linear')
    assert list(model) == [F.tanh]
    assert list(model.children()) == []


def test_flatten():
    inner = chainerlite.Sequential(L.Linear(3, 3), F.relu)
    outer = chainerlite.Sequential(F.tanh, inner, chainerlite.Sequential(inner))
    flat = outer.flatten()
    assert list(flat) == [F.tanh, inner[0], F.relu, inner[0], F.relu]
    assert len(outer) == 3


@pytest.mark.parametrize('mode', ['share', 'copy', 'init'])
def test_copy(mode):
    model = chainerlite.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
    c = model.copy(mode)
    assert isinstance(c, chainerlite.Sequential)
    assert c[1] is F.relu
    assert c[0] is not model[0]
    assert list(c.children()) == [c[0], c[2]]
    assert [child.name for child in c.children()] == ['0', '1']
    assert (c[0].W.array is model[0].W.array) == (mode == 'share')
    assert list(model.children()) == [model[0], model[2]]
    x = _x()
    if mode != 'init':
        numpy.testing.assert_array_equal(c(x).array, model(x).array)


def test_repeat_of_sequential():
    block = chainerlite.Sequential(L.Linear(3, 3), F.relu)
    net = block.repeat(2)
    assert len(net) == 2
    assert all(isinstance(layer, chainerlite.Sequential) for layer in net)
    assert [p for p, _ in net.namedparams()] == ['/0/0/W', '/0/0/b', '/1/0/W', '/1/0/b']
    assert net(_x()).shape == (4, 3)


def test_add_link_appends_a_layer():
    model = chainerlite.Sequential()
    layer = L.Linear(3, 3)
    model.add_link(layer)
    assert list(model) == [layer] and list(model.children()) == [layer]


def test_str_shows_each_layer_on_its_line():
    assert str(chainerlite.Sequential()) == 'Sequential()'
    inner = chainerlite.Sequential(L.Linear(3), L.Linear(3, 2, nobias=True))
    partial = functools.partial(F.leaky_relu, slope=0.1)
    model = chainerlite.Sequential(inner, lambda x: F.leaky_relu(x, slope=0.2), partial)
    assert str(model) == (
        'Sequential(\n'
        '  (0): Sequential(\n'
        '    (0): Linear(in_size=None, out_size=3, nobias=False),\n'
        '    (1): Linear(in_size=3, out_size=2, nobias=True),\n'
        '  ),\n'
        '  (1): lambda x: F.leaky_relu(x, slope=0.2),\n'
        '  (2): {},\n'
        ')'.format(partial)
    )


def test_str_of_a_lambda_spanning_lines():
    # fmt: off
    model = chainerlite.Sequential(
        lambda x: F.tanh(
            x) * 2, F.relu)
    # fmt: on
    assert str(model).splitlines()[1] == '  (0): lambda x: F.tanh( x) * 2,'


def test_chain_and_chain_list_show_their_children():
    chain = chainerlite.Chain(a=L.Linear(2, 3))
    assert str(chainerlite.ChainList(chain)) == (
        'ChainList(\n'
        '  (0): Chain(\n'
        '    (a): Linear(in_size=2, out_size=3, nobias=False),\n'
        '  ),\n'
        ')'
    )
    assert str(chainerlite.Chain()) == 'Chain()'
    assert str(chainerlite.Link()) == 'Link()'


def test_pickling_a_lambda_layer_is_a_value_error():
    model = chainerlite.Sequential(L.Linear(3, 2), lambda x: x * 2)
    with pytest.raises(ValueError, match='lambda'):
        pickle.dumps(model)
    # copies keep the lambda
    for mode in ('share', 'copy'):
        copied = model.copy(mode)
        assert copied[1] is model[1]
        x = _x()
        numpy.testing.assert_array_equal(copied(x).array, model(x).array)


@pytest.mark.parametrize('n, i', [(0, 1), (0, -1), (1, 2), (1, -2)])
def test_insert_out_of_range_is_an_index_error(n, i):
    model = chainerlite.Sequential(*[F.relu] * n)
    with pytest.raises(IndexError, match='Sequential.insert'):
        model.insert(i, F.tanh)
    assert len(model) == n


@pytest.mark.parametrize('n, i', [(0, 0), (1, -1), (1, 1), (2, -2)])
def test_insert_in_range(n, i):
    model = chainerlite.Sequential(*[F.relu] * n)
    model.insert(i, F.tanh)
    # as list.insert: before the layer that was at i
    assert model[i if i >= 0 else n + i] is F.tanh
    assert len(model) == n + 1


def test_pickle_without_lambdas():
    model = chainerlite.Sequential(
        L.Linear(3, 2), functools.partial(F.leaky_relu, slope=0.1)
    )
    restored = pickle.loads(pickle.dumps(model))
    x = _x()
    numpy.testing.assert_array_equal(restored(x).array, model(x).array)
