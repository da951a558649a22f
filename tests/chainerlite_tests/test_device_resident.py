import warnings

import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import device_resident
from chainerlite import utils


class _Recorder(device_resident.DeviceResidentsVisitor):
    def __init__(self):
        self.log = []

    def visit_device_resident(self, device_resident):
        self.log.append(type(device_resident).__name__)

    def visit_array(self, arr):
        self.log.append(('array', arr.shape))
        return arr * 2

    def visit_variable(self, param):
        self.log.append(('variable', param.name))


def test_link_is_a_device_resident():
    assert issubclass(chainerlite.Link, chainerlite.DeviceResident)
    assert chainerlite.DeviceResident is device_resident.DeviceResident
    link = L.Linear(2, 3)
    assert str(link.device) == '@numpy'
    assert link.xp is numpy


def test_accept_visits_link_params_persistents_then_children():
    model = L.Classifier(L.Linear(2, 3))
    model.add_persistent('counts', numpy.ones(4))
    recorder = _Recorder()
    model.device_resident_accept(recorder)
    assert recorder.log == [
        'Classifier',
        ('array', (4,)),
        'Linear',
        ('variable', 'W'),
        ('variable', 'b'),
    ]
    # the array the visitor returns replaces the persistent value
    numpy.testing.assert_array_equal(model.counts, numpy.full(4, 2.0))


def test_stateful_rnn_visits_its_state():
    lstm = L.LSTM(2, 3)
    lstm(numpy.zeros((1, 2), numpy.float32))
    recorder = _Recorder()
    lstm.device_resident_accept(recorder)
    assert recorder.log.count(('variable', None)) == 2  # c and h


def test_walker_alias_moves_its_tables():
    sampler = utils.WalkerAlias([1.0, 3.0])
    assert isinstance(sampler, chainerlite.DeviceResident)
    recorder = _Recorder()
    sampler.device_resident_accept(recorder)
    # Chainer's layout: a threshold per column, two values per column
    assert recorder.log == ['WalkerAlias', ('array', (2,)), ('array', (4,))]
    assert sampler.to_device('@numpy') is sampler
    assert str(sampler.device) == '@numpy'


def test_negative_sampling_hands_its_sampler_to_the_visitor():
    link = L.NegativeSampling(3, [1, 2, 3], 2)
    recorder = _Recorder()
    link.device_resident_accept(recorder)
    assert 'WalkerAlias' in recorder.log


def test_base_visitor_methods_must_be_defined():
    visitor = device_resident.DeviceResidentsVisitor()
    with pytest.raises(NotImplementedError, match='visit_device_resident'):
        visitor.visit_device_resident(chainerlite.DeviceResident())
    with pytest.raises(NotImplementedError, match='visit_array'):
        visitor.visit_array(numpy.zeros(1))
    with pytest.raises(NotImplementedError, match='visit_variable'):
        visitor.visit_variable(chainerlite.Variable(numpy.zeros(1)))


def test_deprecated_moves_and_unavailable_backends():
    link = L.Linear(2, 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert link.to_cpu() is link
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    with pytest.raises(RuntimeError, match='ChainerX'):
        link.to_chx()
    assert link.from_chx() is link
    with pytest.warns(DeprecationWarning), pytest.raises(RuntimeError, match='iDeep'):
        link.to_intel64()
    assert str(link.device) == '@numpy'


def test_an_overridden_move_is_called_when_a_parent_moves():
    # code written for old Chainer moves arrays of its own in an overridden
    # to_cpu (or to_gpu); Chainer 7.8.1 calls it when an ancestor moves,
    # by the deprecated move or by to_device, and not twice from its own
    log = []

    class Custom(chainerlite.Link):
        def to_cpu(self):
            log.append('to_cpu')
            return super().to_cpu()

    assert Custom._overridden_moves == ('to_cpu',)
    assert chainerlite.Link._overridden_moves == ()
    parent = chainerlite.Chain()
    with parent.init_scope():
        parent.custom = Custom()
        parent.plain = L.Linear(2, 2)
    with pytest.deprecated_call():
        parent.to_cpu()
    assert log == ['to_cpu']
    with pytest.deprecated_call():  # (the overridden to_cpu warns)
        parent.to_device('@numpy')
    assert log == ['to_cpu'] * 2
    with pytest.deprecated_call():
        parent.custom.to_cpu()
    assert log == ['to_cpu'] * 3
    assert str(parent.custom.device) == '@numpy'
