"""Fixtures shared by the link tests."""

import numpy
import pytest


class _Saver:
    """Serializer that copies each value into a flat dict by path."""

    def __init__(self, target, path=''):
        self.target = target
        self.path = path

    def __getitem__(self, name):
        return _Saver(self.target, self.path + name + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = (
            None if value is None else numpy.array(value, copy=True)
        )
        return value


class _Loader:
    """Deserializer from such a dict: fills arrays, returns other values."""

    def __init__(self, source, path=''):
        self.source = source
        self.path = path

    def __getitem__(self, name):
        return _Loader(self.source, self.path + name + '/')

    def __call__(self, key, value):
        data = self.source[self.path + key]
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, data)
            return value
        if value is None or data is None:
            return data
        return type(value)(data)


@pytest.fixture
def roundtrip():
    """Returns ``f(src, dst)``: saves ``src`` into a dict, loads ``dst``.

    ``f`` returns the dict of saved values, keyed by path.
    """

    def run(src, dst):
        saved = {}
        src.serialize(_Saver(saved))
        dst.serialize(_Loader(saved))
        return saved

    return run
