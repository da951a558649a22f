"""Fixtures of the vision model tests."""

import numpy
import pytest


class _Holder:
    def __init__(self, value):
        self.array = numpy.asarray(value, dtype=numpy.float32)


class _Layer:
    def __init__(self, value):
        self.W = _Holder(value)
        self.b = _Holder(value + 0.5)
        self.avg_mean = numpy.asarray(value + 0.25, dtype=numpy.float32)
        self.avg_var = numpy.asarray(value + 0.75, dtype=numpy.float32)
        self.bias = type('Bias', (), {'b': _Holder(value + 0.125)})()


class FakeCaffe:
    """Answers any attribute with a layer whose arrays hold ``value(name)``."""

    def __init__(self):
        self.names = []

    def value(self, name):
        return float(self.names.index(name) + 1)

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        if name not in self.names:
            self.names.append(name)
        return _Layer(self.value(name))


@pytest.fixture
def fake_caffe():
    """A stand-in for CaffeFunction: each layer asked for has its own value."""
    return FakeCaffe()


@pytest.fixture
def zero_init(monkeypatch):
    """Makes the models' random initializers zero (the big ones are slow to
    draw); returns the list of the ``(name, scale)`` they were asked for."""
    from chainerlite import initializers

    asked = []
    for name in ('Normal', 'HeNormal', 'LeCunUniform'):

        def make(scale=1.0, name=name, **kwargs):
            asked.append((name, scale))
            return initializers.Zero()

        monkeypatch.setattr(initializers, name, make)
    return asked


@pytest.fixture
def lazy_linear(monkeypatch):
    """Makes the VGG models' fully connected layers lazy, so that a test
    that stops before them allocates only the convolutions."""
    from chainerlite import links
    from chainerlite.links.model.vision import vgg

    monkeypatch.setattr(
        vgg, 'Linear', lambda in_size, out_size, **kwargs: links.Linear(None, out_size)
    )
