import numpy
import pytest

import chainerlite as chainer
import chainerlite.functions as F
from chainerlite.examples.digits import models


def _function_names(y):
    names, stack = set(), [y.creator]
    while stack:
        function = stack.pop()
        if function is not None:
            names.add(type(function).__name__)
            stack.extend(x.creator for x in function.inputs)
    return names


def _grads(model):
    return {name: param.grad.copy() for name, param in model.namedparams()}


@pytest.fixture
def x():
    return numpy.random.RandomState(0).uniform(0, 1, (5, 64)).astype(numpy.float32)


@pytest.mark.parametrize('cls', [models.MLP, models.CNN])
def test_maps_64_features_to_10_scores(cls, x):
    y = cls()(x)
    assert y.shape == (5, 10) and y.dtype == numpy.float32


def test_cnn_graph_has_two_convolution_blocks(x):
    model = models.CNN()
    names = _function_names(model(x))
    assert {'Convolution2DFunction', 'ReLU', 'MaxPooling2D', 'LinearFunction'} <= names
    assert model.conv1.W.shape == (32, 1, 3, 3)
    assert model.conv2.W.shape == (64, 32, 3, 3)


@pytest.mark.parametrize('cls', [models.MLP, models.CNN])
def test_forget_keeps_only_block_outputs_in_the_graph(cls, x):
    names = _function_names(cls(forget=True)(x))
    assert 'Forget' in names
    assert not names & {'ReLU', 'Convolution2DFunction', 'MaxPooling2D'}


@pytest.mark.parametrize('cls', [models.MLP, models.CNN])
def test_forget_gives_the_same_outputs_and_gradients(cls, x):
    numpy.random.seed(1)
    plain = cls()
    numpy.random.seed(1)
    forgetting = cls(forget=True)
    results = []
    for model in (plain, forgetting):
        y = model(x)
        F.sum(y * y).backward()
        results.append((y.array, _grads(model)))
    numpy.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-6)
    assert results[0][1].keys() == results[1][1].keys()
    for name, grad in results[0][1].items():
        numpy.testing.assert_allclose(
            grad, results[1][1][name], rtol=1e-5, atol=1e-6, err_msg=name
        )


def test_forget_recomputes_the_blocks_on_backward(x):
    model = models.MLP(forget=True)
    calls = []
    block = model.hidden2

    def counting(h):
        calls.append(chainer.config.in_recomputing)
        return block(h)

    model.hidden2 = counting
    F.sum(model(x)).backward()
    assert calls == [False, True]
