import gc
import io
import time
import weakref
from unittest import mock

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import function_node
from chainerlite.backends import cuda
from chainerlite.function_hooks import timer
from chainerlite.testing import attr


class Sleep(function_node.FunctionNode):
    def forward(self, inputs):
        time.sleep(0.01)
        return inputs

    def backward(self, indexes, grad_outputs):
        time.sleep(0.01)
        return grad_outputs


def _variable():
    return chainerlite.Variable(numpy.random.uniform(-1, 1, (2, 3)))


def test_name():
    assert timer.TimerHook().name == 'TimerHook'


def test_forward_and_backward_calls_are_recorded():
    x = _variable()
    with timer.TimerHook() as hook:
        y = F.exp(x)
        y.grad = numpy.ones((2, 3))
        y.backward()
    # Exp's backward multiplies with the output: Mul runs nested inside it.
    assert [name for name, _ in hook.call_history] == ['Exp', 'Mul', 'Exp']
    assert all(elapsed >= 0 for _, elapsed in hook.call_history)
    summary = hook.summary()
    assert list(summary) == ['Exp', 'Mul']
    assert summary['Exp']['occurrence'] == 2
    assert summary['Exp']['elapsed_time'] == pytest.approx(
        hook.call_history[0][1] + hook.call_history[2][1]
    )
    assert hook.total_time() == pytest.approx(summary['Exp']['elapsed_time'])


def test_total_time_sums_outermost_calls():
    x = _variable()
    with timer.TimerHook() as hook:
        (y,) = Sleep().apply((x,))
        y.grad = numpy.ones((2, 3))
        y.backward()
    assert hook.total_time() >= 0.02
    assert hook.total_time() == pytest.approx(
        sum(elapsed for _, elapsed in hook.call_history)
    )


def test_nested_calls_in_forget_are_not_double_counted():
    x = _variable()
    with timer.TimerHook() as hook:
        y = F.forget(lambda a: F.exp(Sleep().apply((a,))[0]), x)
        y.grad = numpy.ones((2, 3))
        y.backward()
    summary = hook.summary()
    assert summary['Forget']['occurrence'] == 2
    assert summary['Sleep']['occurrence'] == 3
    outer = summary['Forget']['elapsed_time']
    assert hook.total_time() == pytest.approx(outer)
    assert hook.total_time() < sum(r['elapsed_time'] for r in summary.values())


def test_hook_keeps_no_function_nodes():
    x = _variable()
    with timer.TimerHook() as hook:
        y = F.exp(x)
    node = weakref.ref(y.creator)
    del y
    gc.collect()
    assert node() is None
    assert hook.summary()['Exp']['occurrence'] == 1


def test_calls_outside_the_hook_are_not_recorded():
    x = _variable()
    hook = timer.TimerHook()
    with hook:
        F.exp(x)
    F.exp(x)
    assert hook.summary()['Exp']['occurrence'] == 1


def _report(hook, unit):
    out = io.StringIO()
    hook.print_report(unit=unit, file=out)
    return out.getvalue().splitlines()


def _hook_with_history(history):
    hook = timer.TimerHook()
    hook.call_history.extend(history)
    return hook


def test_print_report_table():
    hook = _hook_with_history(
        [('LinearFunction', 1.5), ('ReLU', 0.25), ('LinearFunction', 0.5)]
    )
    lines = _report(hook, 'sec')
    assert [line.split()[:3] for line in lines] == [
        ['FunctionName', 'ElapsedTime', 'Occurrence'],
        ['LinearFunction', '2.00sec', '2'],
        ['ReLU', '0.25sec', '1'],
    ]
    assert len({len(line) for line in lines}) == 1  # aligned columns


@pytest.mark.parametrize(
    'unit, cells',
    [
        ('auto', ['2.00ms', '0.25ms']),
        ('auto_foreach', ['2.00ms', '250.00us']),
        ('sec', ['0.00sec', '0.00sec']),
        ('us', ['2000.00us', '250.00us']),
        ('ns', ['2000000.00ns', '250000.00ns']),
    ],
)
def test_print_report_units(unit, cells):
    lines = _report(_hook_with_history([('A', 0.002), ('B', 0.00025)]), unit)
    assert [line.split()[1] for line in lines[1:]] == cells


def test_print_report_of_nothing():
    assert _report(timer.TimerHook(), 'auto') == [
        'FunctionName  ElapsedTime  Occurrence'
    ]
    out = io.StringIO()
    timer.TimerHook().print_report(file=out, details=True)
    assert out.getvalue().split() == [
        'FunctionName',
        'ElapsedTime',
        'Occurrence',
        'SelfTime',
        'Forward',
        'Backward',
        'Recompute',
    ]


def test_print_report_is_chainer_s_table_unless_details_are_asked():
    # Chainer's report: the three columns right-aligned to their widest
    # cell, two spaces apart, nothing more on a line
    hook = _hook_with_history([('Exp', 0.0015), ('MulConstant', 0.00025)] * 2)
    assert _report(hook, 'ms') == [
        'FunctionName  ElapsedTime  Occurrence',
        '         Exp       3.00ms           2',
        ' MulConstant       0.50ms           2',
    ]
    out = io.StringIO()
    hook.print_report(unit='ms', file=out, details=True)
    lines = out.getvalue().splitlines()
    assert lines[0].split()[3:] == ['SelfTime', 'Forward', 'Backward', 'Recompute']
    assert lines[1].split() == ['Exp', '3.00ms', '2', '-', '-', '-', '-']


def test_self_time_excludes_nested_calls_and_directions_are_split():
    x = _variable()
    with timer.TimerHook() as hook:
        y = F.forget(lambda a: Sleep().apply((a,))[0] * 2.0, x)
        y.grad = numpy.ones((2, 3))
        y.backward()
    summary = hook.summary()
    forget, sleep = summary['Forget'], summary['Sleep']
    for record in summary.values():
        assert 0 <= record['self_time'] <= record['elapsed_time'] + 1e-9
        directions = ('forward_time', 'backward_time', 'recompute_time')
        assert sum(record[d] for d in directions) == pytest.approx(
            record['elapsed_time']
        )
    # Forget's own work is tiny: its time is Sleep's (run inside it)
    assert forget['self_time'] < forget['elapsed_time'] - 0.02
    # Sleep's forward ran twice: once forward, once recomputed by forget
    assert sleep['forward_time'] >= 0.01 and sleep['recompute_time'] >= 0.01
    assert sleep['backward_time'] >= 0.01
    assert forget['recompute_time'] == 0.0
    lines = _report(hook, 'ms')
    row = dict((line.split()[0], line.split()) for line in lines[1:])
    assert row['Sleep'][2] == '3' and row['Forget'][2] == '2'


def test_chainer_doc_example():
    model1, model2, model3 = (L.Linear(3, 3) for _ in range(3))
    x = chainerlite.Variable(numpy.ones((2, 3), numpy.float32))
    with timer.TimerHook() as m:
        y = model1(x)
        z = model2(y)
    model3(z)
    assert m.total_time() > 0
    assert {name: r['occurrence'] for name, r in m.summary().items()} == {
        'LinearFunction': 2
    }


@attr.gpu
def test_gpu_calls_are_timed_with_cuda_events():
    x = chainerlite.Variable(cuda.cupy.ones((2, 3), numpy.float32))
    with timer.TimerHook() as hook:
        y = F.exp(x)
        y.grad = cuda.cupy.ones((2, 3), numpy.float32)
        y.backward()
    assert hook.summary()['Exp']['occurrence'] == 2
    assert all(elapsed >= 0 for _, elapsed in hook.call_history)
    assert hook.total_time() > 0


class _Fail(function_node.FunctionNode):
    def forward(self, inputs):
        raise ValueError('fail')


def test_a_call_that_raised_inside_another_is_dropped():
    x = _variable()

    def block(a):
        try:
            _Fail().apply((a,))
        except ValueError:
            pass
        return F.exp(a)

    with timer.TimerHook() as hook:
        F.forget(block, x)
        F.exp(x)
    summary = hook.summary()
    assert summary['Exp']['occurrence'] == 2
    # both top-level calls count once each in the total
    assert hook.total_time() == pytest.approx(
        summary['Forget']['elapsed_time'] + hook.call_history[-1][1]
    )


def test_one_hook_in_two_threads_keeps_their_calls_apart():
    import threading

    hook = timer.TimerHook()
    barrier = threading.Barrier(2)

    def work():
        with hook:
            barrier.wait()
            for _ in range(50):
                F.exp(_variable())

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert hook.summary()['Exp']['occurrence'] == 100
    assert hook.total_time() == pytest.approx(hook.summary()['Exp']['elapsed_time'])


def _check_only_sleeps_counted(hook, occurrence):
    summary = hook.summary()
    assert list(summary) == ['Sleep']  # the raising call is not recorded
    assert summary['Sleep']['occurrence'] == occurrence
    assert all(elapsed > 0 for _, elapsed in hook.call_history)
    # every Sleep ran at top level: the total is their sum
    assert hook.total_time() == pytest.approx(summary['Sleep']['elapsed_time'])
    assert summary['Sleep']['self_time'] == pytest.approx(
        summary['Sleep']['elapsed_time']
    )


def test_a_raise_out_of_the_with_block_leaves_no_open_call():
    x = _variable()
    hook = timer.TimerHook()
    with pytest.raises(ValueError):
        with hook:
            Sleep().apply((x,))
            _Fail().apply((x,))
    _check_only_sleeps_counted(hook, 1)
    with hook:
        Sleep().apply((x,))
    _check_only_sleeps_counted(hook, 2)


def test_a_top_level_raise_caught_inside_the_with_block_is_forgotten():
    x = _variable()
    with timer.TimerHook() as hook:
        with pytest.raises(ValueError):
            _Fail().apply((x,))
        Sleep().apply((x,))
        Sleep().apply((x,))
    _check_only_sleeps_counted(hook, 2)


class _FailBackward(function_node.FunctionNode):
    def forward(self, inputs):
        return inputs

    def backward(self, indexes, grad_outputs):
        raise ValueError('fail')


def test_a_backward_that_raised_is_forgotten():
    x = _variable()
    (y,) = _FailBackward().apply((x,))
    y.grad = numpy.ones_like(y.array)
    with timer.TimerHook() as hook:
        with pytest.raises(ValueError):
            y.backward()
        Sleep().apply((x,))
        Sleep().apply((x,))
    _check_only_sleeps_counted(hook, 2)


class _Counted(timer.TimerHook):
    # overrides one callback in Python: that one is called, the others
    # stay compiled
    def __init__(self):
        super().__init__()
        self.seen = []

    def forward_preprocess(self, function, in_data):
        self.seen.append(function.label)
        super().forward_preprocess(function, in_data)


def test_subclass_override_is_called_and_the_rest_still_records():
    hook = _Counted()
    x = _variable()
    with hook:
        y = F.exp(x)
        F.sum(y * 2.0).backward()
    # backward calls nested in the backward of each function are seen too
    assert hook.seen == ['exp', '_ * 2.0', 'Sum', 'BroadcastTo', '_ * 2.0', '_ * _']
    occurrences = {name: r['occurrence'] for name, r in hook.summary().items()}
    assert occurrences == {
        'Exp': 2,
        'MulConstant': 3,  # forward, backward and its nested forward
        'Sum': 2,
        'BroadcastTo': 1,
        'Mul': 1,
    }
    assert hook.total_time() > 0


def test_callback_patched_on_the_instance_replaces_the_compiled_one():
    hook = timer.TimerHook()
    with hook, mock.patch.object(hook, 'backward_postprocess') as patched:
        F.sum(F.exp(_variable())).backward()
    assert [c.args[0].label for c in patched.call_args_list] == ['Sum', 'exp']
    # backward calls never closed by the patched callback are not recorded
    backward = {name: r['backward_time'] for name, r in hook.summary().items()}
    assert backward == dict.fromkeys(['Exp', 'Sum', 'BroadcastTo', 'Mul'], 0.0)


def test_name_follows_a_class_changed_after_use():
    class Twice(function_node.FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

    hook = timer.TimerHook()
    x = _variable()
    with hook:
        Twice().apply((x,))
        Twice._impl_name = 'Renamed'
        Twice().apply((x,))
    assert [name for name, _ in hook.call_history] == ['Twice', 'Renamed']


def test_long_history_keeps_every_call_in_order():
    # more calls than the first buffer of finished calls holds, with the
    # history read part way (the calls read are not repeated)
    x = _variable()
    with timer.TimerHook() as hook:
        for _ in range(300):
            x = F.exp(x * -1.0)
        first = list(hook.call_history)
        for _ in range(300):
            x = F.tanh(x)
    history = hook.call_history
    assert [name for name, _ in first] == ['MulConstant', 'Exp'] * 300
    assert history[:600] == first
    assert [name for name, _ in history[600:]] == ['Tanh'] * 300
    assert all(isinstance(e, float) and e >= 0 for _, e in history)
    summary = hook.summary()
    assert [(k, v['occurrence']) for k, v in summary.items()] == [
        ('MulConstant', 300),
        ('Exp', 300),
        ('Tanh', 300),
    ]
    assert list(hook.stats) == ['MulConstant', 'Exp', 'Tanh']


def test_recorded_and_timed_calls_keep_their_order():
    hook = timer.TimerHook()
    with hook:
        F.exp(_variable())
    hook.record('Outside', 1, 0.5, 0.25)
    with hook:
        F.tanh(_variable())
    assert [name for name, _ in hook.call_history] == ['Exp', 'Outside', 'Tanh']
    assert hook.call_history[1] == ('Outside', 0.5)
    assert hook.stats['Outside'].forward_time == 0.5
    assert hook.stats['Outside'].self_time == 0.25


def test_assigning_the_history_drops_the_unread_calls():
    hook = timer.TimerHook()
    with hook:
        F.exp(_variable())
        hook.history = []
        F.tanh(_variable())
    assert [name for name, _ in hook.call_history] == ['Tanh']
    with pytest.raises(TypeError):
        hook.history = None
    with pytest.raises(AttributeError):
        hook.stats = {}


@pytest.mark.parametrize('phase', [0, 4])
def test_record_rejects_an_unknown_phase(phase):
    with pytest.raises(ValueError, match='phase'):
        timer.TimerHook().record('F', phase, 1.0, 1.0)


def test_record_of_a_recomputation():
    hook = timer.TimerHook()
    hook.record('F', 3, 1.0, 0.5)
    assert hook.summary()['F']['recompute_time'] == 1.0
    assert hook.summary()['F']['forward_time'] == 0.0


def test_unit_table_is_chainers():
    # Chainer 7.8.1's class attribute (found by the differential harness)
    table = {'sec': 1, 'ms': 10**3, 'us': 10**6, 'ns': 10**9}
    assert chainerlite.function_hooks.TimerHook.table == table
    assert chainerlite.link_hooks.TimerHook.table == table


def test_a_shallow_copy_is_a_hook_of_its_own_with_the_records_so_far():
    import copy
    import pickle

    x = chainerlite.Variable(numpy.ones(3, numpy.float32))
    with timer.TimerHook() as hook:
        F.sum(F.exp(x)).backward()
    dup = copy.copy(hook)
    assert type(dup) is timer.TimerHook and dup is not hook
    assert dup.call_history == hook.call_history
    assert dup.summary() == hook.summary()
    assert dup.total_time() == hook.total_time()
    before = hook.summary()['Exp']['occurrence']
    with dup:
        F.exp(x)
    assert len(dup.call_history) == len(hook.call_history) + 1
    assert dup.summary()['Exp']['occurrence'] == before + 1
    assert hook.summary()['Exp']['occurrence'] == before
    # as Chainer's hook (it holds a module), deep copies and pickles fail
    with pytest.raises(TypeError):
        copy.deepcopy(hook)
    with pytest.raises(TypeError):
        pickle.dumps(hook)


def test_an_unknown_unit_is_also_chainers_key_error():
    hook = timer.TimerHook()
    for error in (KeyError, ValueError):
        with pytest.raises(error, match='unit must be one of'):
            hook.print_report(unit='hours', file=io.StringIO())
