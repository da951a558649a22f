import numpy
import pytest

import chainerlite as chainer
import chainerlite.functions as F
from chainerlite.graph_optimizations.static_graph import static_graph
import chainerlite.links as L


class _MLP(chainer.Chain):
    def __init__(self):
        super(_MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)

    def plain(self, x):
        return F.relu(self.l1(x))

    @static_graph
    def bare(self, x):
        return F.relu(self.l1(x))

    @static_graph(verbosity_level=2, minimize_cache_size=False)
    def verbose(self, x):
        return F.relu(self.l1(x))

    @static_graph(force_test_define_by_run=True)
    def forced(self, x):
        return F.relu(self.l1(x))


def _x(n=2):
    return numpy.random.RandomState(n).uniform(-1, 1, (n, 3)).astype('f')


def test_static_matches_define_by_run_forward_and_backward():
    chain = _MLP()
    x = _x()
    for _ in range(3):
        chain.cleargrads()
        y = chain.bare(x)
        F.sum(y).backward()
        gw = chain.l1.W.grad.copy()
        chain.cleargrads()
        y_ref = chain.plain(x)
        F.sum(y_ref).backward()
        numpy.testing.assert_allclose(y.array, y_ref.array)
        numpy.testing.assert_allclose(gw, chain.l1.W.grad)
    schedule = chain.static_schedule
    assert schedule.call_count == 3
    assert schedule.function_labels[-1] == 'ReLU'


def test_schedules_per_signature_and_verbosity(capsys):
    chain = _MLP()
    chain.verbose(_x(2))
    chain.verbose(_x(5))
    chain.verbose(_x(2))
    assert len(chain.schedule_manager.schedules) == 2
    out = capsys.readouterr().out
    assert out.count('new schedule') == 2


def test_minimized_cache_keeps_one_schedule_per_mode():
    chain = _MLP()
    chain.bare(_x(2))
    chain.bare(_x(5))
    assert len(chain.schedule_manager.schedules) == 1
    with chainer.using_config('train', False):
        chain.bare(_x(2))
    assert len(chain.schedule_manager.schedules) == 2


def test_disabled_by_config_or_force_test_define_by_run():
    chain = _MLP()
    with chainer.using_config('use_static_graph', False):
        chain.bare(_x())
    chain.forced(_x())
    assert not hasattr(chain, 'schedule_manager')
    assert not hasattr(chain, 'static_schedule')


def test_bad_options():
    with pytest.raises(TypeError, match='static_graph'):
        static_graph(verbosity=1)
    with pytest.raises(TypeError, match='static_graph'):
        static_graph(1, 2)


def test_static_code_runs_the_function():
    @chainer.static_code
    def double(x):
        return 2 * x

    assert double(3) == 6
    assert chainer.static_code()(double)(4) == 8


def test_schedule_manager_get_schedule_from_input_variables():
    # Chainer 7.8.1's get_schedule(in_vars, enable_double_backprop=False):
    # one schedule per input shapes and dtypes in a mode
    from chainerlite.graph_optimizations.static_graph import ScheduleManager

    manager = ScheduleManager(minimize_cache_size=False)
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    first = manager.get_schedule((x,))
    assert manager.get_schedule([x], enable_double_backprop=True) is first
    other = manager.get_schedule((chainer.Variable(numpy.zeros((4, 3))),))
    assert other is not first and len(manager.schedules) == 2
    with chainer.using_config('train', False):
        assert manager.get_schedule((x,)) is not first
