import threading
import weakref

from unittest import mock
import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.functions.math import basic_math


class Recorder(chainerlite.FunctionHook):
    def __init__(self, name='rec', log=None):
        self.name = name
        self.log = [] if log is None else log

    def added(self, function):
        self.log.append((self.name, 'added', function))

    def deleted(self, function):
        self.log.append((self.name, 'deleted', function))

    def forward_preprocess(self, function, in_data):
        self.log.append((self.name, 'fpre', function.label, in_data))

    def forward_postprocess(self, function, in_data):
        self.log.append((self.name, 'fpost', function.label))

    def backward_preprocess(self, function, in_data, out_grad):
        self.log.append((self.name, 'bpre', function.label, out_grad))

    def backward_postprocess(self, function, in_data, out_grad):
        self.log.append((self.name, 'bpost', function.label))


def _x():
    return chainerlite.Variable(np.array([1.0, 2.0], np.float32))


def test_with_registers_and_unregisters():
    hook = Recorder()
    with hook as h:
        assert h is hook
        assert chainerlite.get_function_hooks()['rec'] is hook
    assert 'rec' not in chainerlite.get_function_hooks()
    assert hook.log == [('rec', 'added', None), ('rec', 'deleted', None)]


def test_duplicate_name_raises_key_error_and_keeps_first():
    first, second = Recorder(), Recorder()
    with first:
        with pytest.raises(KeyError):
            with second:
                pass
        assert chainerlite.get_function_hooks()['rec'] is first
    assert not chainerlite.get_function_hooks()


def test_exit_unregisters_when_body_raises():
    with pytest.raises(ValueError):
        with Recorder():
            raise ValueError()
    assert not chainerlite.get_function_hooks()


def test_callbacks_receive_raw_arrays_in_order():
    x = _x()
    hook = Recorder()
    with hook:
        y = x * 3.0
        y.grad = np.ones(2, np.float32)
        y.backward()
    kinds = [entry[1] for entry in hook.log]
    # the backward of ``x * 3.0`` computes ``gy * 3.0``: as in Chainer, a
    # hook that watches forward calls sees that nested call
    assert kinds == [
        'added',
        'fpre',
        'fpost',
        'bpre',
        'fpre',
        'fpost',
        'bpost',
        'deleted',
    ]
    fpre = hook.log[1]
    assert fpre[2] == '_ * 3.0'
    assert isinstance(fpre[3], tuple) and fpre[3][0] is x.array
    bpre = hook.log[3]
    assert isinstance(bpre[3][0], np.ndarray)
    np.testing.assert_array_equal(x.grad, [3.0, 3.0])


class _BackwardOnly(chainerlite.FunctionHook):
    name = 'bwd'

    def __init__(self):
        self.log = []

    def backward_preprocess(self, function, in_data, out_grad):
        self.log.append(function.label)


@pytest.mark.parametrize(
    'build',
    [
        lambda x: x * 3.0,  # compiled node, one input
        lambda x: F.sum(F.exp(x)),  # Python nodes
        lambda x: F.tanh(x) * x,  # two-input compiled node
    ],
)
def test_nested_forward_calls_of_backward_are_seen_by_forward_hooks(build):
    x = _x()
    with Recorder() as hook:
        y = F.sum(build(x))
        n_forward = sum(1 for e in hook.log if e[1] == 'fpre')
        y.backward()
    log = hook.log
    first_bpre = next(i for i, e in enumerate(log) if e[1] == 'bpre')
    nested = [e for e in log[first_bpre:] if e[1] == 'fpre']
    assert n_forward >= 2 and nested, log
    # the gradient is the same as without the hook
    x2 = _x()
    y2 = F.sum(build(x2))
    y2.backward()
    np.testing.assert_allclose(x.grad, x2.grad, rtol=1e-6)


@pytest.mark.parametrize(
    'op',
    [
        lambda x: x * 3.0,
        lambda x: x + 2.0,
        lambda x: x - 1.0,
        lambda x: -x,
        lambda x: 2.0 - x,
        lambda x: F.tanh(x),  # Variable-level backward: the reference path
    ],
)
def test_nested_calls_of_array_backward_match_variable_backward(op):
    # Without double backprop a compiled node's array-level backward reports
    # its nested calls itself; the Variable-level backward (taken with
    # enable_double_backprop) is the reference for what hooks see.
    def run(double):
        x = _x()
        with Recorder() as hook:
            y = op(x)
            y.grad = np.array([1.5, -2.0], np.float32)
            y.backward(enable_double_backprop=double)
        events = [e[1:3] for e in hook.log if e[1] != 'added']
        in_data = [e[3] for e in hook.log if e[1] == 'fpre']
        return events, in_data, x.grad

    events, in_data, gx = run(False)
    ref_events, ref_in_data, ref_gx = run(True)
    assert events == ref_events
    for got, want in zip(in_data, ref_in_data):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert type(a) is np.ndarray
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(gx, ref_gx)


def test_subclass_overriding_compiled_backward_reports_its_own_calls():
    # a Python subclass's own backward runs (on Variables, compute-only);
    # the hook sees the node it applies
    class Twice(basic_math.MulConstant):
        def backward(self, indexes, grad_outputs):
            return (grad_outputs[0] * 3.0,)

    x = _x()
    with Recorder() as hook:
        (y,) = Twice(3.0).apply((x,))
        y.grad = np.ones(2, np.float32)
        y.backward()
    kinds = [e[1] for e in hook.log]
    assert kinds[kinds.index('bpre') : kinds.index('bpost')] == [
        'bpre',
        'fpre',
        'fpost',
    ]
    np.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_backward_only_hook_sees_no_nested_forward_calls():
    x = _x()
    hook = _BackwardOnly()
    with hook:
        y = F.sum(x * 3.0)
        y.backward()
    assert hook.log == ['Sum', '_ * 3.0']
    np.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_hooks_fire_for_python_function_nodes_and_grad():
    x = _x()
    hook = Recorder()
    with hook:
        y = F.sum(F.exp(x))
        (gx,) = chainerlite.grad([y], [x])
    labels = [(e[1], e[2]) for e in hook.log if e[1] in ('fpre', 'bpre')]
    # functions applied inside backward (e.g. broadcasting) fire forward hooks
    assert labels[:2] == [('fpre', 'exp'), ('fpre', 'Sum')]
    assert [lb for lb in labels if lb[0] == 'bpre'] == [
        ('bpre', 'Sum'),
        ('bpre', 'exp'),
    ]
    np.testing.assert_allclose(gx.array, np.exp(x.array), rtol=1e-6)


def test_local_hooks_run_after_global_ones():
    log = []
    x = _x()
    node = basic_math.MulConstant(2.0)
    local = Recorder('local', log)
    node.add_hook(local)
    assert log == [('local', 'added', node)]
    with Recorder('global', log):
        (y,) = node.apply((x,))
    order = [(e[0], e[1]) for e in log if e[1] in ('fpre', 'fpost')]
    assert order == [
        ('global', 'fpre'),
        ('local', 'fpre'),
        ('global', 'fpost'),
        ('local', 'fpost'),
    ]
    del log[:]
    y.grad = np.ones(2, np.float32)
    y.backward()
    assert [(e[0], e[1]) for e in log] == [('local', 'bpre'), ('local', 'bpost')]
    node.delete_hook('local')
    assert log[-1] == ('local', 'deleted', node)


def test_add_hook_errors():
    node = basic_math.MulConstant(2.0)
    with pytest.raises(TypeError):
        node.add_hook(object())
    node.add_hook(Recorder(), name='a')
    with pytest.raises(KeyError):
        node.add_hook(Recorder(), name='a')
    with pytest.raises(KeyError):
        node.delete_hook('b')
    assert list(node.local_function_hooks) == ['a']


def test_hook_that_overrides_nothing_is_not_called():
    class Silent(chainerlite.FunctionHook):
        name = 'silent'

        def __getattribute__(self, name):
            if name.endswith('process'):
                raise AssertionError('callback %s looked up' % name)
            return object.__getattribute__(self, name)

    x = _x()
    with Silent():
        y = F.sum(x * 2.0)
        y.backward()
    np.testing.assert_array_equal(x.grad, [2.0, 2.0])


@pytest.mark.parametrize('patch_after_enter', [False, True])
def test_callback_patched_on_instance_is_called(patch_after_enter):
    hook = chainerlite.FunctionHook()
    x = _x()
    if patch_after_enter:
        with hook:
            y0 = x * 2.0  # the hook is cached before the patch
            with (
                mock.patch.object(hook, 'forward_preprocess') as m,
                mock.patch.object(hook, 'backward_postprocess') as b,
            ):
                y = x * 2.0
                y.grad = np.ones(2, np.float32)
                y.backward()
            y1 = x * 2.0
        del y0, y1
    else:
        with (
            mock.patch.object(hook, 'forward_preprocess') as m,
            mock.patch.object(hook, 'backward_postprocess') as b,
        ):
            with hook:
                y = x * 2.0
                y.grad = np.ones(2, np.float32)
                y.backward()
    # once for ``x * 2.0``, once for ``gy * 2.0`` inside its backward
    assert m.call_count == 2
    func, in_data = m.call_args_list[0][0]
    assert func is y.creator and in_data[0] is x.array
    assert b.call_count == 1


def test_callback_patched_on_class_is_called():
    hook = chainerlite.FunctionHook()
    x = _x()
    with hook:
        x * 2.0
        with mock.patch.object(chainerlite.FunctionHook, 'forward_postprocess') as m:
            x * 2.0
    assert m.call_count == 1


@pytest.mark.parametrize('callback', ['forward_preprocess', 'backward_postprocess'])
def test_callback_gained_while_another_attribute_is_lost_is_called(callback):
    # The instance dict keeps its size between the two ops: a validity
    # guess from that size never called the new callback.
    hook = chainerlite.FunctionHook()
    hook.scratch = 1
    calls = []
    x = _x()
    with hook:
        x * 2.0
        del hook.scratch
        setattr(hook, callback, lambda function, *arrays: calls.append(function.label))
        y = x * 2.0
        y.grad = np.ones(2, np.float32)
        y.backward()
    assert calls and set(calls) == {'_ * 2.0'}


def test_callback_lost_while_another_attribute_is_gained_is_not_called():
    hook = chainerlite.FunctionHook()
    calls = []
    hook.forward_preprocess = lambda function, in_data: calls.append(1)
    x = _x()
    with hook:
        x * 2.0
        del hook.forward_preprocess
        hook.scratch = 1
        x * 2.0
    assert calls == [1]


def test_patched_callback_of_a_hook_with_changing_attributes_is_called():
    # a hook that sets and deletes attributes of its own between ops
    class Busy(chainerlite.FunctionHook):
        def backward_postprocess(self, function, in_data, out_grad):
            self.last = function.label

    hook = Busy()
    hook.first = True
    x = _x()
    with hook:
        x * 2.0
        with mock.patch.object(hook, 'forward_preprocess') as m:
            del hook.first
            x * 2.0
        x * 2.0
    assert m.call_count == 1


def test_callback_written_into_the_instance_dict_is_called():
    hook = chainerlite.FunctionHook()
    calls = []
    x = _x()
    with hook:
        x * 2.0
        vars(hook)['forward_preprocess'] = lambda function, in_data: calls.append(1)
        x * 2.0
    assert calls == [1]


def test_hooks_are_thread_local():
    fired = []

    class Mark(chainerlite.FunctionHook):
        name = 'mark'

        def forward_preprocess(self, function, in_data):
            fired.append(threading.get_ident())

    ready, done = threading.Event(), threading.Event()

    def worker():
        with Mark():
            ready.set()
            done.wait(5)
            _x() * 2.0

    t = threading.Thread(target=worker)
    t.start()
    ready.wait(5)
    assert 'mark' not in chainerlite.get_function_hooks()
    _x() * 2.0  # must not fire the other thread's hook
    done.set()
    t.join()
    assert fired == [t.ident]


def test_exception_in_hook_leaves_no_hook_and_no_graph():
    class Boom(chainerlite.FunctionHook):
        name = 'boom'

        def forward_postprocess(self, function, in_data):
            raise RuntimeError('boom')

    x = _x()
    node = basic_math.MulConstant(2.0)
    with pytest.raises(RuntimeError):
        with Boom():
            node.apply((x,))
    assert not chainerlite.get_function_hooks()
    assert node.inputs is None and node.outputs is None
    y = x * 2.0  # the engine still works
    assert y.creator.inputs[0] is x.node


def test_failing_added_does_not_register():
    class Bad(chainerlite.FunctionHook):
        name = 'bad'

        def added(self, function):
            raise ValueError()

    with pytest.raises(ValueError):
        with Bad():
            pass
    assert 'bad' not in chainerlite.get_function_hooks()
    node = basic_math.MulConstant(2.0)
    with pytest.raises(ValueError):
        node.add_hook(Bad())
    assert not node.local_function_hooks


class _OutData(chainerlite.FunctionHook):
    name = 'outs'
    forward_postprocess_out_data = True

    def __init__(self):
        self.seen = []

    def forward_postprocess(self, function, in_data, out_data):
        self.seen.append((function.label, out_data))


@pytest.mark.parametrize(
    'op', [lambda x: x * 3.0, lambda x: x + x, lambda x: F.exp(x), lambda x: F.relu(x)]
)
def test_forward_postprocess_can_receive_outputs(op):
    x = _x()
    hook = _OutData()
    with hook:
        y = op(x)
    label, out_data = hook.seen[0]
    assert isinstance(out_data, tuple) and len(out_data) == 1
    np.testing.assert_array_equal(out_data[0], y.array)


class _NestedCalls(chainerlite.FunctionHook):
    # the forward calls of the grad nodes a backward applies, with what
    # their callbacks receive
    def __init__(self, out_data):
        self.forward_postprocess_out_data = out_data
        self.seen = []

    def forward_preprocess(self, function, in_data):
        self.seen.append(('fpre', function.label, in_data))

    def forward_postprocess(self, function, in_data, out_data=None):
        self.seen.append(('fpost', function.label, in_data, out_data))

    def backward_preprocess(self, function, in_data, out_grad):
        self.seen.append(('bpre', function.label, out_grad))


@pytest.mark.parametrize('out_data', [True, False])
def test_grad_node_callbacks_of_a_backward_get_the_gradient_and_output(out_data):
    # the grad node of ``x * 3.0`` is applied to the output gradient: its
    # forward callbacks see that gradient as its input, and its output only
    # when the hook declares forward_postprocess_out_data
    x = _x()
    y = x * 3.0
    y.grad = np.array([1.5, -2.0], np.float32)
    hook = _NestedCalls(out_data)
    with hook:
        y.backward()
    (_, label, out_grad), pre, post = hook.seen
    assert label == pre[1] == post[1] == '_ * 3.0'
    for in_data in (pre[2], post[2]):
        assert type(in_data) is tuple and len(in_data) == 1
        np.testing.assert_array_equal(in_data[0], out_grad[0])
    if out_data:
        assert type(post[3]) is tuple and len(post[3]) == 1
        np.testing.assert_array_equal(post[3][0], x.grad)
        np.testing.assert_array_equal(x.grad, [4.5, -6.0])
    else:
        assert post[3] is None


def test_two_argument_forward_postprocess_still_works_with_mock():
    hook = chainerlite.FunctionHook()
    with mock.patch.object(hook, 'forward_postprocess') as m, hook:
        y = _x() * 2.0
    (func, in_data), kwargs = m.call_args
    assert func is y.creator and not kwargs


def test_debug_mode_names_function_and_phase():
    x = chainerlite.Variable(np.array([0.0, 1.0], np.float32))
    with chainerlite.using_config('debug', True), np.errstate(all='ignore'):
        with pytest.raises(RuntimeError) as info:
            F.log(x - 2.0)  # log(-2) = NaN
        assert 'forward' in str(info.value) and 'log' in str(info.value)
        y = F.sum(x**0.5 * 0.0)  # 0 times the infinite derivative at 0: NaN
        with pytest.raises(RuntimeError) as info:
            y.backward()
        assert 'backward' in str(info.value) and '_ ** 0.5' in str(info.value)
    assert x.grad is None
    assert not chainerlite.is_debug()
    with np.errstate(divide='ignore'):
        F.log(x)  # no check outside debug mode


def test_debug_mode_lets_infinities_pass():
    # as Chainer 7.8.1's checks only for NaN: -inf masks, log(0) and the
    # infinite derivative of sqrt at 0 are not errors
    x = chainerlite.Variable(np.array([0.0, 1.0], np.float32))
    with chainerlite.using_config('debug', True), np.errstate(all='ignore'):
        assert F.log(x).array[0] == -np.inf
        masked = F.logsumexp(x + np.array([-np.inf, 0.0], np.float32))
        assert masked.array == 1.0
        F.sum(F.sqrt(x)).backward()
    assert x.grad[0] == np.inf


def test_set_debug_is_global():
    chainerlite.set_debug(True)
    try:
        assert chainerlite.is_debug()
        with pytest.raises(RuntimeError):
            chainerlite.Variable(np.array([np.nan])) * 1.0
    finally:
        chainerlite.set_debug(False)
    assert not chainerlite.is_debug()


def test_optional_third_parameter_keeps_the_two_argument_call():
    seen = []

    class Hook(chainerlite.FunctionHook):
        name = 'opt'

        def forward_postprocess(self, function, in_data, extra=None):
            seen.append(extra)

    with Hook():
        _x() * 2.0
    assert seen == [None]


def test_instances_of_one_class_are_validated_separately():
    class Quiet(chainerlite.FunctionHook):
        pass

    first, second = Quiet(), Quiet()
    first.name, second.name = 'first', 'second'
    calls = []
    second.forward_preprocess = lambda function, in_data: calls.append(1)
    with first:
        _x() * 2.0  # caches Quiet as "overrides nothing"
        with second:
            _x() * 2.0
    assert calls == [1]
    Quiet.backward_postprocess = lambda self, f, i, o: calls.append(2)
    try:
        with Quiet() as third:
            y = _x() * 2.0
            y.grad = np.ones(2, np.float32)
            y.backward()
    finally:
        del Quiet.backward_postprocess
    assert calls == [1, 2]
    del third


@pytest.mark.parametrize(
    'insert',
    [
        lambda hooks: hooks.__setitem__('junk', object()),
        lambda hooks: hooks.update({'junk': 5}),
        lambda hooks: hooks.update(rec=Recorder(), junk=None),
        lambda hooks: hooks.setdefault('junk', 'not a hook'),
    ],
)
def test_registry_rejects_non_hooks_and_stays_usable(insert):
    hooks = chainerlite.get_function_hooks()
    with pytest.raises(TypeError, match='is not a function hook'):
        insert(hooks)
    assert list(hooks) == []
    x = chainerlite.Variable(np.ones(3, np.float32))
    with Recorder() as rec:
        x * 2.0
    assert [c[1] for c in rec.log] == ['added', 'fpre', 'fpost', 'deleted']
    assert list(hooks) == []


def test_registry_accepts_duck_typed_hooks():
    class Duck(object):
        def __init__(self):
            self.seen = []

        def forward_preprocess(self, function, in_data):
            self.seen.append(function.label)

        forward_postprocess = backward_preprocess = backward_postprocess = (
            lambda self, *args: None
        )

    hooks = chainerlite.get_function_hooks()
    duck = hooks['duck'] = Duck()
    try:
        chainerlite.Variable(np.ones(3, np.float32)) * 2.0
    finally:
        del hooks['duck']
    assert duck.seen == ['_ * 2.0']


def _nested_muls(hook_class):
    # the MulConstant nodes of the nested calls of two backward steps
    x = _x()
    y = F.sum((x * 2.0) * 3.0)
    with hook_class() as hook:
        y.backward()
    return hook


def test_nested_nodes_a_hook_keeps_stay_distinct():
    class Keep(chainerlite.FunctionHook):
        def __init__(self):
            self.kept = []

        def forward_preprocess(self, function, in_data):
            if isinstance(function, basic_math.MulConstant):
                self.kept.append((function, function.value))

    kept = _nested_muls(Keep).kept
    assert [value for _, value in kept] == [3.0, 2.0]
    assert [f.value for f, _ in kept] == [3.0, 2.0]
    assert kept[0][0] is not kept[1][0]


def test_nested_nodes_given_attributes_or_weak_references_are_not_reused():
    class Mark(chainerlite.FunctionHook):
        def __init__(self):
            self.refs = []

        def forward_preprocess(self, function, in_data):
            if isinstance(function, basic_math.MulConstant):
                assert not hasattr(function, 'seen')
                function.seen = True
                self.refs.append(weakref.ref(function))

    class WeakOnly(Mark):
        def forward_preprocess(self, function, in_data):
            if isinstance(function, basic_math.MulConstant):
                self.refs.append(weakref.ref(function))

    assert len(_nested_muls(Mark).refs) == 2
    first, second = (ref() for ref in _nested_muls(WeakOnly).refs)
    assert first is None or first is not second


def test_nested_node_a_hook_changed_is_not_reused():
    # a grad node nothing kept may serve the next nested call, but only if
    # its call left it as new: one whose retained indexes a hook set is not
    class Retain(chainerlite.FunctionHook):
        def __init__(self):
            self.seen = []

        def forward_preprocess(self, function, in_data):
            if isinstance(function, basic_math.MulConstant):
                self.seen.append(function._input_indexes_to_retain)
                function.retain_inputs((0,))

    assert _nested_muls(Retain).seen == [None, None]


def test_backward_only_hook_that_gains_and_loses_a_forward_callback():
    # a hook with backward callbacks only is skipped by the forward checks;
    # one patched on it later is called at once, and after its removal the
    # backward callback still is
    hook = _BackwardOnly()
    seen = []
    with hook:
        F.sum(_x() * 2.0).backward()
        hook.forward_preprocess = lambda function, in_data: seen.append(function.label)
        F.sum(_x() * 3.0).backward()
        del hook.forward_preprocess
        F.sum(_x() * 4.0).backward()
    # the forward of ``x * 3.0`` and Sum, then the grad nodes their
    # backwards apply (Sum's broadcast, then ``gy * 3.0``)
    assert seen == ['_ * 3.0', 'Sum', 'BroadcastTo', '_ * 3.0']
    assert hook.log == ['Sum', '_ * 2.0', 'Sum', '_ * 3.0', 'Sum', '_ * 4.0']


def test_hidden_hook_stays_registered_but_is_not_called():
    log = []
    first, second = Recorder('first', log), Recorder('second', log)
    with first, second:
        registry = chainerlite.get_function_hooks()
        token = registry.hide([first])
        assert list(registry) == ['first', 'second']  # registered, in place
        _x() * 2.0
        registry.unhide(token)
        del log[:]
        _x() * 3.0
    called = [(name, what) for name, what, *_ in log if what == 'fpre']
    # dispatch comes back in the registry's order
    assert called == [('first', 'fpre'), ('second', 'fpre')]


def test_hidden_hook_is_not_called_while_hidden():
    log = []
    with Recorder('first', log) as first:
        registry = chainerlite.get_function_hooks()
        token = registry.hide([first])
        del log[:]
        _x() * 2.0
        assert log == []
        registry.unhide(token)


def test_hides_nest_and_survive_registry_changes():
    log = []
    a, b = Recorder('a', log), Recorder('b', log)
    with a, b:
        registry = chainerlite.get_function_hooks()
        outer = registry.hide([a])
        inner = registry.hide([b])
        with Recorder('c', log):  # registered while both are hidden
            del log[:]
            _x() * 2.0
            assert {name for name, *_ in log} == {'c'}
        registry.unhide(inner)
        del log[:]
        _x() * 2.0
        assert {name for name, *_ in log} == {'b'}
        registry.unhide(outer)
        del log[:]
        _x() * 2.0
        assert [name for name, what, *_ in log if what == 'fpre'] == ['a', 'b']
