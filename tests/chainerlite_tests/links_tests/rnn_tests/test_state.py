"""set_state of the stateful recurrent links: a state that is not a
Variable is refused with a TypeError that is also the AssertionError
Chainer's assertion raises."""

import numpy
import pytest

import chainerlite
import chainerlite.links as L

STATEFUL = {
    'LSTM': (lambda: L.LSTM(2, 3), 2),
    'StatefulGRU': (lambda: L.StatefulGRU(2, 3), 1),
    'StatefulMGU': (lambda: L.StatefulMGU(2, 3), 1),
    'StatefulZoneoutLSTM': (lambda: L.StatefulZoneoutLSTM(2, 3), 2),
}


@pytest.mark.parametrize('name', sorted(STATEFUL))
@pytest.mark.parametrize('bad', range(2))
def test_a_state_that_is_not_a_variable(name, bad):
    make, n = STATEFUL[name]
    if bad >= n:
        pytest.skip('one state only')
    link = make()
    states = [
        chainerlite.Variable(numpy.zeros((1, 3), numpy.float32)) for _ in range(n)
    ]
    states[bad] = states[bad].array
    for error in (TypeError, AssertionError):
        with pytest.raises(error, match='must be a Variable'):
            link.set_state(*states)
    assert link.h is None


@pytest.mark.parametrize('make', [L.LSTM, L.StatefulGRU, L.StatefulMGU])
def test_a_batch_larger_than_the_state(make):
    # Chainer's LSTM raises TypeError, its GRU and MGU fail in a type check
    link = make(2, 3)
    link(numpy.zeros((1, 2), numpy.float32))
    for error in (TypeError, chainerlite.utils.type_check.InvalidType):
        with pytest.raises(error, match='batch size of x'):
            link(numpy.zeros((2, 2), numpy.float32))
