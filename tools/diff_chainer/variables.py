"""Runner for the top-level names of ``chainer`` that compute: ``Variable``
and ``Parameter`` (properties and methods on generated arrays), ``grad``
and ``backward`` (with their options), the configuration
(``config``, ``global_config``, ``using_config``, ``no_backprop_mode``,
``force_backprop_mode``, ``get_dtype``, ``mixed16``, debug mode),
``as_array``/``as_variable``, and a user-defined ``FunctionNode`` /
``Function``."""

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import generic
from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S

shapes = st.sampled_from([(), (1,), (3,), (2, 3), (2, 1, 2), (0, 2)])


def _variable_methods(lib, x, requires_grad):
    v = lib.Variable(x, requires_grad=requires_grad, name='v')
    out = {
        'props': (v.shape, v.ndim, v.size, str(v.dtype), v.name, v.requires_grad),
        'len': len(v) if v.ndim else None,
        'T': v.T.array,
        'reshape': v.reshape(-1).array,
        'transpose': v.transpose().array,
        'neg_abs': (-v).array if v.size else None,
        'arith': ((v * 2 + 1) / 3 - v**2).array,
        'array': v.array,
        'data': v.data,
        'creator_none': v.creator is None,
        'summary': v.summary(),
    }
    y = lib.functions.sum(v * v)
    if requires_grad:
        y.backward()
        out['grad'] = v.grad
        v.cleargrad()
        out['cleared'] = v.grad
        y2 = lib.functions.sum(v * 3)
        y2.backward()
        out['grad2'] = v.grad
        y2.unchain_backward()
        out['unchained'] = y2.creator is None
    return out


def _parameter(lib, x, seed):
    numpy.random.seed(seed)
    p = lib.Parameter(lib.initializers.Normal(), x.shape)
    q = lib.Parameter(x)
    q.grad = numpy.ones_like(x)
    q.zerograd()
    r = lib.Parameter()
    r.initialize(x.shape)
    return {
        'normal': p.array,
        'from_array': q.array,
        'zerograd': q.grad,
        'lazy_nan': numpy.isnan(r.array).all() if r.size else True,
        'repr': repr(q).replace('chainerlite', 'chainer'),
        'is_param': isinstance(q, lib.Variable),
    }


def _grad(lib, x, double, set_grad, with_gy):
    v = lib.Variable(x)
    y = lib.functions.sum(v * v * v)
    gy = [lib.Variable(numpy.asarray(2.0, x.dtype))] if with_gy else None
    (gx,) = lib.grad(
        [y], [v], grad_outputs=gy, enable_double_backprop=double, set_grad=set_grad
    )
    out = {'gx': gx.array, 'set': v.grad, 'has_creator': gx.creator is not None}
    if double and gx.size:
        (ggx,) = lib.grad([lib.functions.sum(gx)], [v])
        out['ggx'] = ggx.array
    return out


def _backward(lib, x, with_gy):
    a = lib.Variable(x)
    b = lib.Variable(x * 2)
    ya = a * b
    yb = lib.functions.sum(b)
    gy = [numpy.full_like(x, 0.5), numpy.asarray(3.0, x.dtype)] if with_gy else None
    lib.backward([ya if with_gy else lib.functions.sum(ya), yb], gy)
    return {'a': a.grad, 'b': b.grad}


def _config(lib, train, dtype_name, debug):
    out = {}
    with lib.using_config('train', train):
        out['train'] = lib.config.train
        with lib.no_backprop_mode():
            out['no_backprop'] = lib.config.enable_backprop
            with lib.force_backprop_mode():
                out['forced'] = lib.config.enable_backprop
    out['global_train'] = lib.global_config.train
    dtype = {'mixed16': lib.mixed16, 'none': None}.get(dtype_name, dtype_name)
    with lib.using_config('dtype', dtype):
        out['get_dtype'] = str(lib.get_dtype())
        out['get_dtype_mixed'] = str(lib.get_dtype(map_mixed16=numpy.float32))
    before = lib.is_debug()
    lib.set_debug(debug)
    out['debug'] = lib.is_debug()
    lib.set_debug(before)
    with lib.DebugMode(debug):
        out['debug_mode'] = lib.is_debug()
    try:
        getattr(lib.config, 'no_such_key_here')
        out['missing'] = 'no error'
    except AttributeError:
        out['missing'] = 'AttributeError'
    return out


def _conversions(lib, x):
    v = lib.as_variable(x)
    w = lib.as_variable(v)
    return {
        'as_array': lib.as_array(v) is v.array,
        'array_of_array': lib.as_array(x) is x,
        'as_variable': (v.array, v.requires_grad, w is v),
    }


def _function_node(lib, x, old_style):
    if old_style:

        class Cube(lib.Function):
            def forward(self, inputs):
                self.retain_inputs((0,))
                return (inputs[0] ** 3,)

            def backward(self, inputs, grads):
                return (3 * inputs[0] ** 2 * grads[0],)

        f = Cube()
        v = lib.Variable(x)
        y = f(v)
    else:

        class Cube(lib.FunctionNode):
            def forward(self, inputs):
                self.retain_inputs((0,))
                return (inputs[0] ** 3,)

            def backward(self, indexes, grads):
                (x_,) = self.get_retained_inputs()
                return (3 * x_ * x_ * grads[0],)

        v = lib.Variable(x)
        (y,) = Cube().apply((v,))
    lib.functions.sum(y).backward()
    node = y.creator_node if hasattr(y, 'creator_node') else y.creator
    return {
        'y': y.array,
        'gx': v.grad,
        'label': node.label,
        'rank': node.rank,
        'retained': tuple(node._input_indexes_to_retain or ()),
    }


def _x(data, dtypes=S.FLOATS):
    shape = data.draw(shapes)
    return S.make_array(data.draw(S.seeds), shape, data.draw(st.sampled_from(dtypes)))


def _cases(name):
    """``name -> draw_case(data) -> (label, stage)``."""

    def variable(data):
        x, rg = _x(data), data.draw(st.booleans())
        return (
            f'Variable {x.dtype}{x.shape} requires_grad={rg}',
            lambda lib, s: _variable_methods(lib, x, rg),
        )

    def parameter(data):
        x, seed = _x(data), data.draw(S.seeds)
        return f'Parameter {x.dtype}{x.shape}', lambda lib, s: _parameter(lib, x, seed)

    def grad(data):
        x = _x(data)
        flags = [data.draw(st.booleans()) for _ in range(3)]
        return f'grad {x.dtype}{x.shape} {flags}', lambda lib, s: _grad(lib, x, *flags)

    def backward(data):
        x, with_gy = _x(data), data.draw(st.booleans())
        return f'backward {x.dtype}{x.shape} gy={with_gy}', lambda lib, s: _backward(
            lib, x, with_gy
        )

    def config(data):
        train = data.draw(st.booleans())
        dtype = data.draw(st.sampled_from(['float16', 'float32', 'float64', 'mixed16']))
        debug = data.draw(st.booleans())
        return (
            f'config train={train} dtype={dtype} debug={debug}',
            lambda lib, s: _config(lib, train, dtype, debug),
        )

    def conversions(data):
        x = _x(data)
        return f'as_* {x.dtype}{x.shape}', lambda lib, s: _conversions(lib, x)

    def function_node(data):
        x = _x(data, (numpy.float32, numpy.float64))
        old = name in ('Function', 'FunctionAdapter')
        return f'{name} {x.dtype}{x.shape}', lambda lib, s: _function_node(lib, x, old)

    table = {
        'Variable': variable,
        'Parameter': parameter,
        'grad': grad,
        'backward': backward,
        'as_array': conversions,
        'as_variable': conversions,
        'Function': function_node,
        'FunctionAdapter': function_node,
        'FunctionNode': function_node,
    }
    for config_name in (
        'config global_config using_config no_backprop_mode force_backprop_mode '
        'get_dtype mixed16 is_debug set_debug DebugMode'
    ).split():
        table[config_name] = config
    return table.get(name)


NAMES = frozenset(
    'Variable Parameter grad backward as_array as_variable Function FunctionAdapter '
    'FunctionNode config global_config using_config no_backprop_mode '
    'force_backprop_mode get_dtype mixed16 is_debug set_debug DebugMode'.split()
)


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    make = _cases(name)

    def draw_case(data):
        label, stage = make(data)
        pair.run_case(libs, [(name, stage)], tally, label)

    pair.explore(draw_case, examples, seconds)
    generic.run(qualified, libs, tally, examples, seconds)
