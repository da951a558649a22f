import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L


def _data(n=6, classes=3):
    x = numpy.random.uniform(-1, 1, (n, 4)).astype(numpy.float32)
    t = numpy.random.randint(0, classes, n).astype(numpy.int32)
    return x, t


def _reference(y, t):
    log_p = y - numpy.log(numpy.exp(y).sum(axis=1, keepdims=True))
    loss = -log_p[numpy.arange(len(t)), t].mean()
    accuracy = (y.argmax(axis=1) == t).mean()
    return loss, accuracy


def test_loss_and_accuracy():
    model = L.Classifier(L.Linear(4, 3))
    x, t = _data()
    loss = model(x, t)
    y = x @ model.predictor.W.array.T + model.predictor.b.array
    expected_loss, expected_accuracy = _reference(y, t)
    assert loss is model.loss
    numpy.testing.assert_allclose(model.y.array, y, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(loss.array, expected_loss, rtol=1e-5)
    numpy.testing.assert_allclose(model.accuracy.array, expected_accuracy)
    assert model.compute_accuracy is True


def test_loss_backpropagates_to_the_predictor():
    model = L.Classifier(L.Linear(4, 3))
    assert [path for path, _ in model.namedparams()] == ['/predictor/W', '/predictor/b']
    model(*_data()).backward()
    assert model.predictor.W.grad is not None


def test_without_accuracy():
    model = L.Classifier(L.Linear(4, 3))
    model.compute_accuracy = False
    model(*_data())
    assert model.accuracy is None and model.loss is not None


def test_custom_functions_and_label_position():
    model = L.Classifier(
        L.Linear(3, 2),
        lossfun=lambda y, t: F.sum(y) * t,
        accfun=lambda y, t: t + 1,
        label_key=0,
    )
    loss = model(2.0, numpy.ones((1, 3), numpy.float32))
    assert model.y.shape == (1, 2)
    numpy.testing.assert_allclose(loss.array, 2 * model.y.array.sum(), rtol=1e-6)
    assert model.accuracy == 3.0


def test_label_by_keyword():
    model = L.Classifier(L.Linear(4, 3), label_key='t')
    x, t = _data()
    model(x, t=t)
    expected_loss, _ = _reference(model.y.array, t)
    numpy.testing.assert_allclose(model.loss.array, expected_loss, rtol=1e-5)
    with pytest.raises(ValueError, match='"t" is not found'):
        model(x, t)


def test_label_key_errors():
    with pytest.raises(TypeError, match='label_key must be int or str'):
        L.Classifier(L.Linear(4, 3), label_key=1.5)
    model = L.Classifier(L.Linear(4, 3), label_key=2)
    with pytest.raises(ValueError, match='Label key 2 is out of bounds'):
        model(*_data())


def test_results_are_reset_on_each_call():
    model = L.Classifier(L.Linear(4, 3))
    model(*_data())
    first = model.y
    model.compute_accuracy = False
    with pytest.raises(chainerlite.utils.type_check.InvalidType):
        model(numpy.ones((2, 5), numpy.float32), numpy.zeros(2, numpy.int32))
    assert first is not None
    assert model.y is None and model.accuracy is None


def test_reports_to_the_current_reporter():
    from chainerlite import reporter

    model = L.Classifier(L.Linear(4, 3))
    r = reporter.Reporter()
    r.add_observer('main', model)
    observation = {}
    with r.scope(observation):
        model(*_data())
    assert set(observation) == {'main/loss', 'main/accuracy'}


def test_in_a_training_step():
    from chainerlite import optimizers

    numpy.random.seed(1)
    model = L.Classifier(L.Linear(4, 3))
    opt = optimizers.SGD(lr=0.5)
    opt.setup(model)
    x, t = _data(20)
    first = float(model(x, t).array)
    for _ in range(20):
        model.cleargrads()
        model(x, t).backward()
        opt.update()
    assert float(model(x, t).array) < first
    with chainerlite.using_config('train', False):
        assert model(x, t).shape == ()
