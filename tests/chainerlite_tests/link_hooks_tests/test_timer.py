"""link_hooks.TimerHook."""

import io
import re

import numpy
import pytest

import chainerlite
from chainerlite import link_hooks
from chainerlite import links as L


class Model(chainerlite.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, 3)
            self.l2 = L.Linear(3, 4)

    def forward(self, x):
        return self.l2(self.l1(x))


@pytest.mark.parametrize('unit', ['sec', 'ms', 'us', 'ns', 'auto', 'auto_foreach'])
def test_timer_records_nested_calls(unit):
    model, hook = Model(), link_hooks.TimerHook()
    assert hook.name == 'TimerHook'
    with hook:
        for _ in range(2):
            model(numpy.ones((1, 2), numpy.float32))
    names = [name for name, _ in hook.call_history]
    times = [t for _, t in hook.call_history]
    assert names == ['Linear', 'Linear', 'Model'] * 2
    assert times[0] + times[1] < times[2]
    summary = hook.summary()
    assert summary['Linear']['occurrence'] == 4
    numpy.testing.assert_allclose(summary['Model']['elapsed_time'], times[2] + times[5])
    numpy.testing.assert_allclose(
        summary['Model']['self_time'],
        times[2] + times[5] - sum(times[:2]) - sum(times[3:5]),
    )
    numpy.testing.assert_allclose(hook.total_time(), times[2] + times[5])
    out = io.StringIO()
    hook.print_report(unit=unit, file=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and 'LinkName' in lines[0]
    assert re.search(r'Linear +[.0-9a-z]+ +4', lines[1])


def test_timer_rejects_unknown_units():
    with pytest.raises(ValueError, match='unit'):
        link_hooks.TimerHook().print_report(unit='hours', file=io.StringIO())


def test_the_report_has_chainers_columns_and_the_self_time_on_request():
    link = L.Linear(2, 2)
    with link_hooks.TimerHook() as hook:
        link(numpy.ones((1, 2), numpy.float32))
    plain, detailed = io.StringIO(), io.StringIO()
    hook.print_report(file=plain)
    hook.print_report(file=detailed, details=True)
    assert plain.getvalue().split('\n')[0].split() == [
        'LinkName',
        'ElapsedTime',
        'Occurrence',
    ]
    head, row = detailed.getvalue().splitlines()
    assert head.split()[-1] == 'SelfTime'
    assert row.split()[:1] == ['Linear'] and row.split()[2] == '1'
