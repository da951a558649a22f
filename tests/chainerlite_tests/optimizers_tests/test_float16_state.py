"""Optimizer states of float16 parameters are float16, as Chainer 7.8.1
keeps them (Adam and its variants compute in float32 and round each moment
as they store it; the others compute in float16). The expected values were
recorded on Chainer 7.8.1: parameters of ones, three updates with the
gradients [0.5, 1e-3, -2] in float16; the differential harness
(tools/diff_chainer) compares the same on generated cases."""

import numpy
import pytest

import chainerlite
from chainerlite import optimizers

_KWARGS = {'AdamW': {'weight_decay_rate': 0.1}, 'RMSpropGraves': {'eps': 1e-4}}
# {optimizer: ({state: values after 3 updates}, parameter after them)}
CHAINER = {
    'AMSBound': (
        {
            'm': [0.135498, 0.000271082, -0.541992],
            'v': [0.000749111, 0.0, 0.0119858],
            'vhat': [0.000749111, 0.0, 0.0119858],
        },
        [0.99707, 0.971191, 1.00293],
    ),
    'AMSGrad': (
        {
            'm': [0.135498, 0.000271082, -0.541992],
            'v': [0.000749111, 0.0, 0.0119858],
            'vhat': [0.000749111, 0.0, 0.0119858],
        },
        [0.99707, -12.1094, 1.00293],
    ),
    'AdaBound': (
        {'m': [0.135498, 0.000271082, -0.541992], 'v': [0.000749111, 0.0, 0.0119858]},
        [0.99707, 0.971191, 1.00293],
    ),
    'AdaDelta': (
        {
            'msdx': [2.92063e-06, 1.78814e-07, 2.92063e-06],
            'msg': [0.0356445, 1.78814e-07, 0.570312],
        },
        [0.986816, 0.99707, 1.01465],
    ),
    'Adam': (
        {'m': [0.135498, 0.000271082, -0.541992], 'v': [0.000749111, 0.0, 0.0119858]},
        [0.99707, -12.1094, 1.00293],
    ),
    'AdamW': (
        {'m': [0.135498, 0.000271082, -0.541992], 'v': [0.000749111, 0.0, 0.0119858]},
        [0.726074, -11.3281, 0.731445],
    ),
    'MSVAG': (
        {
            'm': [0.135498, 0.000271082, -0.541992],
            'v': [0.067749, 2.38419e-07, 1.08398],
        },
        [0.850586, 1.0, 1.60059],
    ),
    'RMSpropGraves': (
        {
            'delta': [-0.000958443, -3.23057e-05, 0.000960827],
            'g': [0.0712891, 0.000142694, -0.285156],
            'n': [0.0356445, 1.78814e-07, 0.570312],
        },
        [0.997559, 1.0, 1.00195],
    ),
    'SMORMS3': (
        {
            'g': [0.411133, 0.00082016, -1.64453],
            'g2': [0.205566, 8.34465e-07, 3.28906],
            'mem': [1.25781, 1.32129, 1.25781],
        },
        [0.996582, 0.996582, 1.00293],
    ),
}


def _three_updates(name):
    link = chainerlite.Link()
    with link.init_scope():
        link.p = chainerlite.Parameter(numpy.ones(3, numpy.float16))
    opt = getattr(optimizers, name)(**_KWARGS.get(name, {}))
    opt.setup(link)
    for _ in range(3):
        link.p.grad = numpy.array([0.5, 1e-3, -2], numpy.float16)
        opt.update()
    return link.p


@pytest.mark.parametrize('name', sorted(CHAINER))
def test_float16_state_as_chainer(name):
    states, expected = CHAINER[name]
    param = _three_updates(name)
    assert sorted(param.update_rule.state) == sorted(states)
    for key, values in states.items():
        state = param.update_rule.state[key]
        assert state.dtype == numpy.float16, key
        numpy.testing.assert_allclose(state, values, rtol=2e-3, atol=1e-6, err_msg=key)
    assert param.array.dtype == numpy.float16
    numpy.testing.assert_allclose(param.array, expected, rtol=2e-3, atol=1e-6)
