"""Every optimizer refuses a parameter whose array it cannot write: a
ValueError names the optimizer and the parameter, and nothing is written
(no parameter, state, gradient or step count changes)."""

import inspect
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import chainerlite as chainer
from chainerlite import links as L
from chainerlite import optimizer
from chainerlite import optimizer_hooks
from chainerlite import optimizers

OPTIMIZERS = sorted(
    name
    for name, cls in vars(optimizers).items()
    if inspect.isclass(cls) and issubclass(cls, optimizer.GradientMethod)
)


def test_every_optimizer_listed():
    assert len(OPTIMIZERS) == 15 and 'Adam' in OPTIMIZERS and 'AdamW' in OPTIMIZERS


def _read_only(array, how):
    if how == 'flag':
        array = array.copy()
        array.flags.writeable = False
        return array
    # the immutable bytes behind frombuffer
    return numpy.frombuffer(array.tobytes(), array.dtype).reshape(array.shape)


def _model(dtype=numpy.float32):
    model = chainer.Sequential(L.Linear(3, 2))
    for param in model.params():
        param.array = param.array.astype(dtype)
        param.grad = numpy.full(param.shape, 0.5, dtype)
    return model


def _snapshot(model):
    return {
        name: (
            param.array.copy(),
            param.grad.copy(),
            param.update_rule.t,
            {k: v.copy() for k, v in (param.update_rule.state or {}).items()},
        )
        for name, param in model.namedparams()
    }


def _assert_unchanged(model, before):
    after = _snapshot(model)
    for name, (array, grad, t, state) in before.items():
        a_array, a_grad, a_t, a_state = after[name]
        numpy.testing.assert_array_equal(a_array, array, err_msg=name)
        numpy.testing.assert_array_equal(a_grad, grad, err_msg=name)
        assert a_t == t, name
        assert a_state.keys() == state.keys(), name
        for key in state:
            numpy.testing.assert_array_equal(a_state[key], state[key])


@pytest.mark.parametrize('how', ['flag', 'frombuffer'])
@pytest.mark.parametrize('name', OPTIMIZERS)
def test_read_only_parameter(name, how):
    model = _model()
    opt = getattr(optimizers, name)().setup(model)
    calls = []
    opt.add_hook(lambda o: calls.append(o), name='spy')
    w = model[0].W
    w.update_rule.add_hook(lambda rule, p: calls.append(p), name='rule_spy')
    w.array = _read_only(w.array, how)
    before = _snapshot(model)
    pattern = r"^{}: cannot update parameter '/0/W': its array is read-only".format(
        name
    )
    with pytest.raises(ValueError, match=pattern):
        opt.update()
    _assert_unchanged(model, before)
    assert opt.t == 0 and calls == []
    # the parameter's own update and the rule's update_core refuse it too
    with pytest.raises(ValueError, match="Rule: cannot update parameter 'W'"):
        w.update()
    with pytest.raises(ValueError, match="Rule: cannot update parameter 'W'"):
        w.update_rule.update_core(w)
    _assert_unchanged(model, before)
    assert calls == []
    # a writeable array again: the update runs
    w.array = w.array.copy()
    opt.update()
    assert opt.t == 1 and w.update_rule.t == 1


@pytest.mark.parametrize('name', OPTIMIZERS)
def test_read_only_state(name):
    model = _model()
    opt = getattr(optimizers, name)().setup(model)
    opt.update()
    b = model[0].b
    state = b.update_rule.state
    if not state:
        pytest.skip('{} keeps no state'.format(name))
    key = sorted(state)[-1]
    state[key] = _read_only(state[key], 'flag')
    before = _snapshot(model)
    with pytest.raises(ValueError, match=r"'/0/b': its state '{}'".format(key)):
        opt.update()
    _assert_unchanged(model, before)
    assert opt.t == 1


@pytest.mark.parametrize('name', ['Adam', 'SGD'])
def test_read_only_gradient_with_loss_scale(name):
    # the gradient is divided by the loss scale in place
    model = _model()
    opt = getattr(optimizers, name)().setup(model)
    w = model[0].W
    w.grad = _read_only(w.grad, 'flag')
    w._loss_scale = 4.0
    before = _snapshot(model)
    with pytest.raises(ValueError, match="'/0/W': its gradient"):
        opt.update()
    _assert_unchanged(model, before)
    # without a loss scale the gradient is only read
    w._loss_scale = None
    opt.update()
    assert w.update_rule.t == 1


def test_read_only_float16_with_fp32_update():
    model = _model(numpy.float16)
    opt = optimizers.Adam().setup(model)
    opt.use_fp32_update()
    w = model[0].W
    w.array = _read_only(w.array, 'flag')
    before = _snapshot(model)
    with pytest.raises(ValueError, match="'/0/W': its array is read-only"):
        opt.update()
    _assert_unchanged(model, before)


def test_read_only_with_weight_decay_hook():
    model = _model()
    opt = optimizers.AdamW(weight_decay_rate=0.1).setup(model)
    opt.add_hook(optimizer_hooks.WeightDecay(0.01))
    model[0].b.array = _read_only(model[0].b.array, 'frombuffer')
    before = _snapshot(model)
    with pytest.raises(ValueError, match="AdamW: cannot update parameter '/0/b'"):
        opt.update()
    _assert_unchanged(model, before)


MMAP_PROGRAM = '''
import sys
import numpy as np
import chainerlite as chainer
from chainerlite import links as L, optimizers

path = sys.argv[1]
np.save(path, np.arange(6, dtype=np.float32).reshape(2, 3))
for name in sys.argv[2:]:
    for view in (lambda a: a, np.asarray):
        model = chainer.Sequential(L.Linear(3, 2))
        opt = getattr(optimizers, name)().setup(model)
        w = model[0].W
        w.array = view(np.load(path, mmap_mode='r'))
        w.grad = np.ones((2, 3), np.float32)
        model[0].b.grad = np.ones(2, np.float32)
        try:
            opt.update()
        except ValueError as e:
            assert "'/0/W': its array is read-only" in str(e), e
        else:
            raise AssertionError(name + ' wrote into a read-only map')
        assert (np.load(path) == np.arange(6).reshape(2, 3)).all()
print('done')
'''


def test_read_only_memory_map(tmp_path):
    # Writing into a read-only map kills the process (SIGSEGV): a child runs it
    result = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(MMAP_PROGRAM)]
        + [str(tmp_path / 'w.npy')]
        + OPTIMIZERS,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, OMP_NUM_THREADS='1'),
    )
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout.strip() == 'done'
