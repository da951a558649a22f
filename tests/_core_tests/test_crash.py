"""Nothing reachable from Python crashes the interpreter.

Each case is a small program run in a child process (forked from one runner
subprocess that imported chainerlite once, or in its own subprocess where
there is no fork); it passes when the program exits normally. Exceptions
that a case expects are caught by the case itself, so a traceback means a
wrong error and a signal means a crash. Every case ends by collecting
garbage and allocating many new objects, so that a dangling pointer left by
the case is used (and crashes) while the case is still the one running.
"""

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

PRELUDE = '''
import copy, gc, importlib, pickle, weakref, warnings
import numpy as np
import chainerlite as C
import chainerlite.functions as F
from chainerlite import _core
from chainerlite._core import Variable, VariableNode, FunctionNode
warnings.simplefilter('ignore')

def raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc:
        return
    raise AssertionError('%r did not raise %s' % (fn, exc.__name__))

def arr(*shape):
    return np.ones(shape or (3,), np.float32)

class Twice(FunctionNode):
    def forward(self, xs):
        return xs[0] * 2,
    def backward(self, indexes, gys):
        return gys[0] * 2,
'''

EPILOGUE = '''
gc.collect()
churn = [Variable(arr()) * 2.0 for _ in range(200)]
churn = ([VariableNode(v, 'n') for v in churn]
         + [Variable(arr(2, 2)) for _ in range(200)])
del churn
gc.collect()
'''

# Calls every public attribute and method of an object with plausible
# arguments, then again after setting each attribute to junk values.
FUZZ = '''
ARGSETS = [(), (None,), (0,), (-1,), (100,), ((),), ((0,),), ((100,),),
           (arr(),), (None, None), ((0,), (None,)), ((0,), (arr(),)),
           ((0,), (None,), (None,)), ('x', 100, 1.0, 1.0), (None, None, None)]
JUNK = [None, 0, -1, 100, 2 ** 40, 1.5, (), (0,), (100,), (-5,), 'x', arr(),
        object()]
DUNDERS = {'__repr__', '__str__', '__len__', '__hash__', '__copy__',
           '__deepcopy__', '__reduce__', '__reduce_ex__', '__bool__',
           '__call__', '__enter__', '__exit__', '__getitem__', '__iter__',
           '__init__', '__neg__', '__abs__', '__add__', '__mul__'}

def names_of(obj):
    return [n for n in dir(obj) if (not n.startswith('__') or n in DUNDERS)
            and n not in ('to_gpu', 'to_device')]

def call_all(obj, argsets):
    for name in names_of(obj):
        try:
            attr = getattr(obj, name)
        except Exception:
            continue
        if callable(attr) and not isinstance(attr, type):
            for args in argsets:
                try:
                    attr(*args)
                except Exception:
                    pass

def fuzz(obj):
    call_all(obj, ARGSETS)
    for name in names_of(obj):
        for value in JUNK:
            try:
                setattr(obj, name, value)
            except Exception:
                pass
            call_all(obj, ARGSETS[:6])
    for extra in (pickle.dumps, copy.copy, copy.deepcopy, repr, str,
                  lambda o: weakref.ref(o)()):
        try:
            extra(obj)
        except Exception:
            pass
'''

CASES = {
    # -- uninitialised Variables: like Variable() (data None, a node) -------
    'variable_new_reads': '''
v = Variable.__new__(Variable)
assert repr(v) == 'variable(None)' and str(v) == 'variable(None)'
assert v.name is None and v.creator is None and v.creator_node is None
assert v.node is not None and v.node.get_variable_or_none() is v
assert v.rank == 0 and v.requires_grad and v.grad is None and v.array is None
assert v.label == 'None' and v.summary() == '<variable at 0x%x>' % id(v)
for attr in ('shape', 'ndim', 'size', 'dtype'):
    raises(AttributeError, getattr, v, attr)
''',
    'variable_new_graph_methods': '''
v = Variable.__new__(Variable)
v.unchain()
v.unchain_backward()
v.backward()
v.cleargrad()
v.retain_data()
v.set_creator_node(None)
v.name = 'v'
assert v.name == 'v' and v.node.name == 'v'
''',
    'variable_new_functions': '''
v = Variable.__new__(Variable)
for fn in (F.relu, F.sum, F.tanh, lambda v: v + v, lambda v: v * 2.0,
           lambda v: -v, lambda v: v @ v, lambda v: v[0]):
    try:
        fn(v)
    except (TypeError, AttributeError, ValueError, IndexError):
        pass
''',
    'variable_new_pickle_copy': '''
v = Variable.__new__(Variable)
for w in (pickle.loads(pickle.dumps(v)), copy.copy(v), copy.deepcopy(v)):
    assert w.array is None and w.node.get_variable_or_none() is w
v.array = arr()
w = pickle.loads(pickle.dumps(v))
assert (w.array == v.array).all()
''',
    'variable_subclass_without_super_init': '''
class Lazy(Variable):
    def __init__(self, data):
        self.pending = data       # Variable.__init__ is never called
x = Lazy(arr())
repr(x); x.backward(); x.unchain_backward()
x.array = x.pending
y = F.sum(x * x)
y.backward()
assert (x.grad == 2).all()
''',
    # -- Variable.__init__ run again on a Variable of a graph ----------------
    'variable_reinit_input_then_dies': '''
x = Variable(arr())
y = x * 2.0
Variable.__init__(x, np.zeros(3, np.float32))
del x
gc.collect()
others = [Variable(arr()) for _ in range(100)]
y.grad = arr()
y.backward()
assert all(o.grad is None for o in others)
''',
    'variable_reinit_input_stays': '''
x = Variable(arr())
y = x * 2.0
old = x.node
Variable.__init__(x, np.zeros(5, np.float32))
assert x.node is not old and old.get_variable_or_none() is None
y.grad = arr()
y.backward()                  # reaches the old node, not the new variable
assert x.grad is None and x.shape == (5,)
z = F.sum(x * x)
z.backward()
assert x.grad.shape == (5,)
''',
    'variable_reinit_output': '''
x = Variable(arr())
y = x * 2.0
z = y * 3.0
Variable.__init__(y, arr(2))
assert y.creator is None
z.grad = arr()
z.backward()
assert (x.grad == 6).all() and y.grad is None
''',
    # -- the public VariableNode constructor ----------------------------------
    'variablenode_of_temporary_variable': '''
n = VariableNode(Variable(arr()), 'x')
gc.collect()
others = [Variable(arr()) for _ in range(100)]
assert n.get_variable_or_none() is None and n.grad is None
raises(RuntimeError, n.retain_data)
v = n.get_variable()
assert v.node is n and v.array is None
''',
    'variablenode_watches_live_variable': '''
x = Variable(arr())
n = VariableNode(x, 'x')
assert n.get_variable_or_none() is x and n.get_variable() is x
assert x.node is not n and n.shape == (3,)
x.grad = arr()
assert (n.grad == 1).all()
n.retain_data()
assert n.data is x.array
del x
gc.collect()
assert n.get_variable_or_none() is None
''',
    'variablenode_reinit_by_hand': '''
v, w = Variable(arr()), Variable(arr(2))
node = v.node
node.__init__(w, 'w')
assert node.get_variable_or_none() is w
del v, w
gc.collect()
assert node.get_variable_or_none() is None
raises(TypeError, VariableNode, None, 'x')
raises(ValueError, VariableNode, Variable(), '', grad=None)
raises(TypeError, VariableNode, Variable(), '', size=3)
''',
    'variablenode_new': '''
n = VariableNode.__new__(VariableNode)
assert n.get_variable_or_none() is None and n.shape is None
assert n.label == 'None' and n.creator is None and n.grad is None
v = n.get_variable()
assert v.node is n
n.unchain(); n.data = arr(); assert n.shape == (3,)
raises(AttributeError, setattr, n, 'data', object())
''',
    # -- FunctionNode edge cases ----------------------------------------------
    'retain_negative_indexes': '''
class Scale(FunctionNode):
    def forward(self, xs):
        self.retain_inputs((-1,))
        self.retain_outputs((-1,))
        return xs[0] * xs[1], xs[0] + xs[1]
    def backward(self, indexes, gys):
        b, = self.get_retained_inputs()
        s, = self.get_retained_outputs()
        assert s.array is not None
        return gys[0] * b, None
a, b = Variable(arr()), Variable(arr() * 3)
p, s = Scale().apply((a, b))
f = p.creator
assert f._input_indexes_to_retain == (1,) and f._output_indexes_to_retain == (1,)
del s
gc.collect()
p.grad = arr()
p.backward()
assert (a.grad == 3).all()
''',
    'retain_out_of_range_inputs': '''
class Bad(FunctionNode):
    def forward(self, xs):
        self.retain_inputs((0, 3))
        return xs[0] * 2,
x = Variable(arr())
f = Bad()
try:
    f.apply((x,))
except IndexError as e:
    assert 'Bad' in str(e) and 'input' in str(e), e
else:
    raise AssertionError('no error')
assert f.inputs is None and f.outputs is None
assert x.creator is None
''',
    'retain_out_of_range_outputs': '''
for bad in ((5,), (-2,), (0.5,), ('0',)):
    class Bad(FunctionNode):
        def forward(self, xs):
            self.retain_outputs(bad)
            return xs[0] * 2,
    f = Bad()
    try:
        f.apply((Variable(arr()),))
    except (IndexError, TypeError) as e:
        assert type(e) is TypeError or 'Bad' in str(e), e
    else:
        raise AssertionError('no error for %r' % (bad,))
    assert f.inputs is None and f.outputs is None
''',
    'retained_indexes_set_by_hand': '''
x = Variable(arr())
y = Twice().apply((x,))[0]
f = y.creator
f._output_indexes_to_retain = (100,)
f._retained_output_data = (arr(),)
raises(IndexError, f.get_retained_outputs)
f._output_indexes_to_retain = (-1,)
assert f.get_retained_outputs()[0] is y
f._retained_output_data = None
assert f.get_retained_outputs() == ()
f._input_indexes_to_retain = (7,)
raises(IndexError, f.get_retained_inputs)
f._input_indexes_to_retain = ('a',)
raises(TypeError, f.get_retained_inputs)
''',
    'retained_after_unchain': '''
x = Variable(arr())
y = x * x
r = F.relu(x)
for v in (y, r):
    f = v.creator
    f.unchain()
    assert f.get_retained_inputs() == ()
    assert f.get_retained_outputs() == ()
    raises(TypeError, f.unchain)
''',
    'retained_outputs_of_dead_variable': '''
x = Variable(arr())
y = F.relu(x)
f = y.creator
del y
gc.collect()
y2, = f.get_retained_outputs()
assert y2.creator is f and (y2.array == 1).all()
''',
    'backward_after_release': '''
x = Variable(arr(2, 3))
W = Variable(arr(4, 3))
h = F.relu(F.linear(x, W))
f = h.creator
keep = h * h                            # a consumer the pass does not reach
loss = F.sum(F.tanh(h) * h)
del h
loss.backward(retain_graph=False)
raises(RuntimeError, loss.backward)     # through released nodes
raises(RuntimeError, F.sum(keep).backward)
raises(RuntimeError, keep.creator.get_retained_inputs)
raises(RuntimeError, lambda: f.output_data)
assert f.get_retained_outputs() == ()
f.get_retained_inputs()
for v in (loss, keep):
    v.creator.unchain()
''',
    'outputs_setter_junk': '''
x = Variable(arr())
y = Twice().apply((x,))[0]
f = y.creator
for junk in ([1], ['a'], [lambda: 5], [object()], 3):
    raises((TypeError, ValueError), setattr, f, 'outputs', junk)
f.outputs = None
assert f.outputs is None
y.grad = arr()
y.backward()
f.outputs = [weakref.ref(y.node), None]
assert len(f.outputs) == 2 and f.outputs[1]() is None
y.grad = arr()
y.backward()
assert (x.grad == 2).all()
''',
    'inputs_setter_then_apply': '''
x = Variable(arr())
f = Twice()
f.inputs = (x.node,)
# applying re-links the node (as in Chainer), whatever its inputs were
assert (f.apply((x,))[0].array == 2).all()
raises(TypeError, setattr, f, 'inputs', (1,))
f.inputs = None
assert (f.apply((x,))[0].array == 2).all()
''',
    'builtin_nodes_with_inputs_set_by_hand': '''
for make in (lambda x: x * x, lambda x: x + x, lambda x: x - x,
             lambda x: x / x, lambda x: x ** x, lambda x: F.relu(x),
             lambda x: x * 2.0, lambda x: abs(x), lambda x: -x,
             lambda x: F.linear(Variable(arr(2, 3)), Variable(arr(4, 3)))):
    for inputs in ((), None, 'one'):
        x = Variable(arr())
        y = make(x)
        f = y.creator
        if inputs == 'one':
            f.inputs = (x.node,)
        else:
            f.inputs = inputs
        y.grad = np.ones_like(y.array)
        try:
            y.backward()
            y.backward(enable_double_backprop=True)
        except (TypeError, ValueError, RuntimeError, IndexError,
                AttributeError):
            pass
''',
    'relu_retained_output_cleared': '''
x = Variable(arr())
y = F.relu(x)
y.creator._retained_output_data = ()
y.grad = arr()
raises(RuntimeError, y.backward)
y.creator._retained_output_data = None
raises((RuntimeError, ValueError), y.backward)
''',
    'backward_on_node_with_hand_set_graph': '''
x = Variable(arr())
y = Variable(arr())
f = Twice()
f.inputs = (x.node,)
y.node.set_creator_node(f)
y.grad = arr()
y.backward()
assert x.grad is None          # f has no outputs: nothing reaches x
f.outputs = (weakref.ref(y.node),)
y.grad = arr()
y.backward()
assert (x.grad == 2).all()
''',
    'rank_setter_extremes': '''
f = Twice()
for bad in (2 ** 31, 2 ** 100, -1):
    raises((ValueError, OverflowError), setattr, f, 'rank', bad)
raises(TypeError, setattr, f, 'rank', 'x')
f.rank = 2 ** 30 - 1
x = Variable(arr())
f.inputs = (x.node,)
y = Variable(arr())
y.node.set_creator_node(f)
f.outputs = (weakref.ref(y.node),)
assert y.rank == 2 ** 30
z = F.sum(y * 2.0)
z.backward()
assert (x.grad == 4).all()
''',
    'apply_with_bare_variable': '''
x = Variable(arr(2, 3))
try:
    Twice().apply(x)
except TypeError as e:
    assert 'Twice' in str(e), e
else:
    raise AssertionError('no error')
raises(TypeError, Twice().apply, arr(2, 3))
assert Twice().apply([x])[0].shape == (2, 3)
''',
    'functionnode_torn_down': '''
x = Variable(arr())
y = Twice().apply((x,))[0]
f = y.creator
del y
gc.collect()
assert f.outputs[0]() is None
f.get_retained_outputs(); f.get_retained_inputs()
f.unchain()
raises(TypeError, f.unchain)  # as Chainer: the node is in no graph now
assert f.inputs is None and f.outputs is None
assert FunctionNode.backward(f, (0,), (None,)) == (None,)
''',
    # -- hooks ------------------------------------------------------------------
    'hook_registry_rejects_non_hooks': '''
hooks = C.get_function_hooks()
class Rec(C.FunctionHook):
    name = 'rec'
    def __init__(self):
        self.calls = 0
    def forward_preprocess(self, function, in_data):
        self.calls += 1
for insert in (lambda: hooks.__setitem__('x', object()),
               lambda: hooks.update({'x': 5}),
               lambda: hooks.update(y=Rec(), x=None),
               lambda: hooks.setdefault('x', 'junk')):
    raises(TypeError, insert)
    assert list(hooks) == []
x = Variable(arr())
with Rec() as rec:
    assert list(hooks) == ['rec']
    x * 2.0
    F.relu(x)
assert rec.calls == 2 and list(hooks) == []
raises(TypeError, Twice().add_hook, object())
''',
    'hook_entry_and_registry_new': '''
hooks = importlib.import_module('chainerlite._core.hooks')
HookEntry, HookRegistry = hooks.HookEntry, hooks.HookRegistry
r = HookRegistry.__new__(HookRegistry)
r.clear(); r.update(); len(r); r.pop('x', None)
raises(KeyError, r.popitem)
raises(TypeError, r.__setitem__, 'x', object())
e = HookEntry(object())
assert e.mask == -1 and e.hook is not None
''',
    'timer_recorder_bad_calls': '''
timer = importlib.import_module('chainerlite._core.timer')
rec = timer.TimerRecorder()
for phase in (0, 4, 100, -1):
    raises(ValueError, rec.record, 'f', phase, 1.0, 1.0)
raises(AttributeError, setattr, rec, 'stats', {'f': 5})
raises(TypeError, setattr, rec, 'history', None)
raises(TypeError, setattr, rec, 'history', ('f', 1.0))
rec.stats.clear()
rec.record('f', 1, 1.0, 1.0)
rec.history.append('junk')
rec.record('g', 2, 1.0, 1.0)
assert rec.history == [('f', 1.0), 'junk', ('g', 1.0)], rec.history
for cb in (timer.forward_preprocess, timer.forward_postprocess):
    raises(TypeError, cb, None, Twice(), ())
raises(TypeError, timer.backward_postprocess, None, Twice(), (), ())
''',
    'config_objects_new': '''
config = importlib.import_module('chainerlite._core.config')
raises(TypeError, config.LocalConfig, None)
lc = config.LocalConfig.__new__(config.LocalConfig)
raises(AttributeError, getattr, lc, 'anything')
gc_ = config.GlobalConfig.__new__(config.GlobalConfig)
raises(AttributeError, getattr, gc_, 'train')
''',
    'compiled_classes_patched_hostilely': '''
ops_nn = importlib.import_module('chainerlite._core.ops_nn')
ops_math = importlib.import_module('chainerlite._core.ops_math')
x = Variable(arr())
for cls, name in [(FunctionNode, 'apply'), (FunctionNode, 'backward_accumulate'),
                  (FunctionNode, 'check_type_forward'), (FunctionNode, '_impl_name'),
                  (ops_nn.ReLU, 'check_type_forward')]:
    saved = cls.__dict__.get(name)
    if saved is not None:
        delattr(cls, name)
    else:
        setattr(cls, name, None)
    for op in (lambda: F.relu(x), lambda: x * 2.0, lambda: Twice().apply((x,))[0]):
        try:
            F.sum(op()).backward()
        except Exception:
            pass  # e.g. the apply deleted: an AttributeError, no crash
    if saved is not None:
        setattr(cls, name, saved)
    else:
        delattr(cls, name)
Variable.__getattribute__ = lambda self, name: 5
assert x.anything == 5
del Variable.__getattribute__
assert x.shape == (3,)
Variable.__del__ = lambda self: kept.append(self)
kept = []
del x
Variable.__del__ = lambda self: None
del Variable.__del__
# another compiled node class of the same layout (refused for any other)
for y, cls in [(F.relu(Variable(arr())), ops_math.Neg),
               (Variable(arr()) * 3.0, ops_math.AddConstant)]:
    try:
        y.creator.__class__ = cls
    except TypeError:
        continue
    y.grad = arr()
    y.backward()
    F.sum(y.creator.apply((Variable(arr()),))[0]).backward()
kept.clear()
''',
}

# Uninitialised (Cls.__new__) instances of every compiled class, and objects
# torn down in the ways a program can, each poked with every public
# attribute and method.
FUZZ_TARGETS = {
    'variable_after_unchain': 'x = Variable(arr()); obj = x * 2.0; obj.unchain()',
    'variable_of_deleted_graph': '''
x = Variable(arr()); obj = F.sum(F.relu(x * x))
obj.unchain_backward(); del x''',
    'variablenode_of_dead_variable': '''
obj = (Variable(arr()) * 2.0).node''',
    'functionnode_of_dead_outputs': '''
x = Variable(arr()); obj = (x * x).creator''',
    'functionnode_outputs_none': '''
x = Variable(arr()); y = Twice().apply((x,))[0]; obj = y.creator
obj.outputs = None''',
    'relu_after_unchain': '''
x = Variable(arr()); y = F.relu(x); obj = y.creator; obj.unchain()''',
}


def _compiled_classes():
    import importlib

    found = []
    for module_name in (
        'config',
        'hooks',
        'node',
        'backprop',
        'ops_math',
        'ops_nn',
        'timer',
    ):
        module = importlib.import_module('chainerlite._core.' + module_name)
        for name, obj in sorted(vars(module).items()):
            if isinstance(obj, type) and obj.__module__ == module.__name__:
                found.append('%s.%s' % (module_name, name))
    return found


for _name in _compiled_classes():
    _module, _cls = _name.split('.')
    CASES['new_' + _name.replace('.', '_')] = (
        FUZZ
        + '''
cls = importlib.import_module('chainerlite._core.{0}').{1}
try:
    obj = cls.__new__(cls)
except TypeError:
    obj = cls.__new__(cls, object())
fuzz(obj)
'''.format(_module, _cls)
    )
for _name, _setup in FUZZ_TARGETS.items():
    CASES['torn_' + _name] = FUZZ + _setup + '\nfuzz(obj)\n'


RUNNER = '''
import json, os, sys, tempfile
cases = json.load(sys.stdin)
exec(compile(cases.pop('__prelude__'), 'prelude', 'exec'), {})
results = {}
for name, code in cases.items():
    out = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
        try:
            exec(compile(code, name, 'exec'), {'__name__': '__main__'})
        except BaseException:
            import traceback
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
        sys.stdout.flush()
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    out.seek(0)
    results[name] = (os.waitstatus_to_exitcode(status),
                     out.read().decode('utf-8', 'replace')[-4000:])
json.dump(results, sys.stdout)
'''


def _program(name):
    return PRELUDE + textwrap.dedent(CASES[name]) + EPILOGUE


@pytest.fixture(scope='module')
def results():
    """Exit code and output of every case."""
    if not hasattr(os, 'fork'):
        return {name: _run_alone(name) for name in CASES}
    programs = {name: _program(name) for name in CASES}
    programs['__prelude__'] = PRELUDE
    proc = subprocess.run(
        [sys.executable, '-c', RUNNER],
        input=json.dumps(programs),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _run_alone(name):
    proc = subprocess.run(
        [sys.executable, '-c', _program(name)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize('name', sorted(CASES))
def test_no_crash(results, name):
    code, output = results[name]
    if code < 0:
        pytest.fail(
            '%s crashed with %s\n%s' % (name, signal.Signals(-code).name, output)
        )
    assert code == 0, output
