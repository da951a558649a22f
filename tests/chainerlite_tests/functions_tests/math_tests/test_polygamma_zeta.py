import sys

import numpy
import pytest

import chainerlite.functions as F


def _without_scipy(monkeypatch):
    # None in sys.modules makes ``import scipy`` raise ImportError.
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)


def test_polygamma_without_scipy_raises_import_error(monkeypatch):
    _without_scipy(monkeypatch)
    with pytest.raises(ImportError, match='polygamma'):
        F.polygamma(numpy.zeros(3, numpy.int32), numpy.ones(3, numpy.float32))


def test_zeta_without_scipy_raises_import_error(monkeypatch):
    _without_scipy(monkeypatch)
    with pytest.raises(ImportError, match='zeta'):
        F.zeta(numpy.full(3, 2.0, numpy.float32), numpy.ones(3, numpy.float32))


def test_polygamma_checks_the_order_dtype():
    from chainerlite.utils import type_check

    with pytest.raises(type_check.InvalidType, match='polygamma'):
        F.polygamma(numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float32))
