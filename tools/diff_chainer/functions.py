"""Runner for ``chainer.functions``: forward, gradients, second-order
gradients and retained indexes of the same generated calls.

Two sources of calls. Templates: the hand-written calls of
``tools/kink_cases.py`` (valid shapes for every function), with each array
input redrawn (another floating dtype, so dtype mixes too, another layout,
other values). Signatures: calls built from ``inspect.signature`` and the
parameter kinds of ``strategies.py`` around a drawn base shape (edge shapes,
broadcasting, axis and window domains, booleans, defaults varied).
"""

import inspect

import numpy
from hypothesis import strategies as st

from tools import kink_cases
from tools.diff_chainer import contracts
from tools.diff_chainer import labels
from tools.diff_chainer import node_attributes
from tools.diff_chainer import pair
from tools.diff_chainer import references as references_module
from tools.diff_chainer import strategies as S
from tools.diff_chainer import zero_d_reference

# Functions whose values come from a random generator in every mode: the
# two libraries draw from different generators.
RANDOM = frozenset('gaussian gumbel_softmax'.split())
# Functions that draw random numbers in training mode only: their
# signature-built calls run in test mode.
TRAIN_RANDOM = frozenset(
    'dropout rrelu simplified_dropconnect zoneout n_step_gru n_step_bigru '
    'n_step_lstm n_step_bilstm n_step_rnn n_step_birnn'.split()
)


def templates():
    """``{function name: [kink_cases.Case, ...]}``."""
    out = {}
    for case in kink_cases.CASES:
        out.setdefault(case.func, []).append(case)
    return out


@st.composite
def redrawn(draw, inputs):
    """The template's inputs with floating arrays redrawn."""
    out = []
    for x in inputs:
        if isinstance(x, numpy.ndarray) and x.dtype.kind == 'f':
            dtype = x.dtype if draw(st.booleans()) else draw(st.sampled_from(S.FLOATS))
            layout = draw(st.sampled_from(S.LAYOUTS))
            if draw(st.booleans()):
                y = S.make_array(draw(S.seeds), x.shape, dtype, layout)
            else:
                y = S.make_array(0, x.shape, dtype, layout)
                y[...] = x
            out.append(y)
        else:
            out.append(x)
    return out


def stages(call, inputs, grad=True, double=True, train=True):
    """The stages of one call: forward (with retained indexes and the
    attributes of the node), gradients
    for upstream gradients drawn from the inputs, second order."""
    seed = sum(int(x.size) for x in inputs if isinstance(x, numpy.ndarray))

    def forward(lib, s):
        s['xs'] = [
            lib.Variable(x.copy())
            if _floating(x)
            else (x.copy() if isinstance(x, numpy.ndarray) else x)
            for x in inputs
        ]
        with lib.using_config('train', train):
            s['ys'] = call(lib, lib.functions, *s['xs'])
        return s['ys']

    attributes = node_attributes.Comparison()

    def retained(lib, s):
        ys = s['ys'] if isinstance(s['ys'], (tuple, list)) else [s['ys']]
        node = getattr(ys[0], 'creator_node', None) if ys else None
        if node is None:
            return None
        return tuple(
            _indexes(getattr(node, attr, None))
            for attr in ('_input_indexes_to_retain', '_output_indexes_to_retain')
        ) + (attributes(lib, node),)

    def gradient(lib, s):
        ys = s['ys'] if isinstance(s['ys'], (tuple, list)) else [s['ys']]
        ys = [y for y in ys if hasattr(y, 'creator') and y.dtype.kind == 'f']
        s['vs'] = [x for x in s['xs'] if isinstance(x, lib.Variable)]
        if not ys or not s['vs']:
            return None
        s['gys'] = [S.make_array(seed + i, y.shape, y.dtype) for i, y in enumerate(ys)]
        gys = [lib.Variable(g) for g in s['gys']]
        s['gxs'] = lib.grad(ys, s['vs'], gys, enable_double_backprop=double)
        return s['gxs']

    def second(lib, s):
        s['ws'] = [
            None if g is None else S.make_array(seed + 7 + i, g.shape, g.dtype)
            for i, g in enumerate(s.get('gxs') or ())
        ]
        terms = [
            lib.functions.sum(g * w)
            for g, w in zip(s['gxs'] or (), s['ws'])
            if g is not None
        ]
        if not terms:
            return None
        widest = numpy.result_type(*[t.dtype for t in terms])
        if any(t.dtype != widest for t in terms):
            # gradients of inputs of mixed dtypes: sums in the widest one
            # (+ refuses a mix in both libraries)
            terms = [lib.functions.cast(t, widest) for t in terms]
        return lib.grad([sum(terms[1:], terms[0])], s['vs'])

    out = [('forward', forward), ('retained', retained)]
    if grad:
        out.append(('grad', gradient))
        if double:
            out.append(('grad2', second))
    return out


def references(call, inputs, grad=True, double=True, train=True, contract=None):
    """The references of a call's stages where Chainer gives no answer:
    Chainer on promoted inputs where its type check refuses the dtypes
    (forward, gradients), finite differences of chainerlite's gradient where
    it refuses the second order or answers None for an input chainerlite
    differentiates, and Chainer's gradients cast to their
    inputs' dtypes where it answers with gradients in other dtypes.
    ``contract`` is a forward reference maker of ``contracts.py`` for the
    call (first asked), or None."""
    arrays = [x for x in inputs if isinstance(x, numpy.ndarray)]

    def restage(count):
        def make(dtype):
            cast = [x.astype(dtype) if _floating(x) else x for x in inputs]
            return stages(call, cast, grad, double, train)[:count]

        return make

    def reshaped(shaped):
        return stages(call, shaped, grad, double, train)[:3]

    def first_order(lib, xs, s):
        vs = [lib.Variable(x) if _floating(x) else x for x in xs]
        with lib.using_config('train', train):
            ys = _as_list(call(lib, lib.functions, *vs))
        ys = [y for y in ys if hasattr(y, 'creator') and y.dtype.kind == 'f']
        gys = [lib.Variable(g.astype(numpy.float64)) for g in s['gys']]
        variables = [v for v in vs if isinstance(v, lib.Variable)]
        gxs = lib.grad(ys, variables, gys)
        terms = [
            (g.array * w.astype(numpy.float64)).ravel()
            for g, w in zip(gxs, s['ws'])
            if g is not None and w is not None
        ]
        return numpy.concatenate(terms) if terms else numpy.zeros(0)

    def weighted_outputs(lib, xs, s):
        vs = [lib.Variable(x) if _floating(x) else x for x in xs]
        with lib.using_config('train', train):
            ys = _as_list(call(lib, lib.functions, *vs))
        ys = [y for y in ys if hasattr(y, 'creator') and y.dtype.kind == 'f']
        terms = [(y.array * g).ravel() for y, g in zip(ys, s['gys'])]
        return numpy.concatenate(terms) if terms else numpy.zeros(0)

    R = references_module
    return {
        'forward': R.either(
            *([contract] if contract else []),
            R.promoted(restage(1), arrays),
            R.past_overflow(restage(1), arrays),
        ),
        'grad': R.either(
            R.promoted(restage(3), arrays),
            R.in_input_dtypes(inputs, restage(3)),
            R.first_order_by_differences(weighted_outputs, inputs),
            R.past_overflow(restage(3), arrays),
            R.refuted_first_order(restage(3), weighted_outputs, inputs),
            zero_d_reference.one_element_for_zero_d(reshaped, inputs),
        ),
        'grad2': R.either(
            R.second_order_by_differences(first_order, inputs),
            R.second_order_where_none(first_order, inputs),
            R.in_input_dtypes(inputs, restage(4)),
            R.past_overflow(restage(4), arrays),
        ),
    }


def _as_list(ys):
    return list(ys) if isinstance(ys, (tuple, list)) else [ys]


def _indexes(value):
    """Retained indexes as a tuple (Chainer keeps a range at times), None
    where the node keeps none of its own."""
    if isinstance(value, (tuple, list, range)):
        return tuple(value)
    return None


def _floating(x):
    return isinstance(x, numpy.ndarray) and x.dtype.kind == 'f'


def signature_plan(fn):
    """``[(name, kind, default, has_default, variadic)]`` for ``fn``, or a
    reason (str) when a required parameter has no kind."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 'no signature'
    plan = []
    for p in params:
        if p.kind is p.VAR_KEYWORD:
            continue
        variadic = p.kind is p.VAR_POSITIONAL
        has_default = p.default is not p.empty
        kind = S.kind_of(('*' if variadic else '') + p.name, p.default, has_default)
        if kind is None and not has_default and not variadic:
            return f'no argument kind for required parameter {p.name!r}'
        if kind is None:
            continue
        plan.append((p.name, kind, p.default, has_default, variadic))
    return plan


@st.composite
def signature_call(draw, plan):
    """Positional and keyword arguments for ``plan`` around a base shape."""
    shape = draw(S.base_shapes)
    args, kwargs = [], {}
    for name, kind, default, has_default, variadic in plan:
        if name == 'train':  # a train argument draws a random mask
            kwargs[name] = False
            continue
        if has_default and draw(st.booleans()):
            continue  # keep the default
        value = draw(_value(kind, shape, default))
        if variadic:
            args.extend(value if kind == 'arrays' else [value])
        elif has_default:
            kwargs[name] = value
        else:
            args.append(value)
    return args, kwargs


def _value(kind, shape, default):
    if kind == 'array':
        return S.broadcast_partner(shape).flatmap(S.arrays)
    if kind == 'arrays':
        return st.lists(S.arrays(shape), min_size=1, max_size=3)
    if kind == 'labels':
        return S.labels(shape)
    if kind == 'axis':
        return S.axes(len(shape))
    if kind == 'window':
        return S.windows
    if kind == 'shape':
        return S.reshape_targets(shape)
    return S.scalar_near(default)


def run(name, libs, tally, examples, seconds):
    """Scores ``chainer.functions.<name>``; returns None, or the reason
    why no case could be made."""
    if name in RANDOM:
        return 'draws random values in every mode; the generators differ'
    cases = templates().get(name, [])
    plan = signature_plan(getattr(libs[0].functions, name))
    if not cases and isinstance(plan, str):
        return f'no template in kink_cases and {plan}'

    def draw_case(data):
        use_template = cases and (isinstance(plan, str) or data.draw(st.booleans()))
        if use_template:
            case = data.draw(st.sampled_from(cases))
            inputs = data.draw(redrawn(case.inputs))
            label = f'template {case.label} ' + _describe(inputs)
            call, flags = case.call, (case.grad, case.double, True)
            contract = None  # templates hold valid calls
        else:
            args, kwargs = data.draw(signature_call(plan))

            def call(lib, F, *xs):
                return getattr(F, name)(*xs, **kwargs)

            label = f'signature {_describe(args)} {kwargs}'
            inputs, flags = args, (True, True, name not in TRAIN_RANDOM)
            contract = contracts.forward(name, args, kwargs)
        pair.run_case(
            libs,
            labels.interleaved(stages(call, inputs, *flags)),
            tally,
            label,
            references(call, inputs, *flags, contract),
        )

    pair.explore(draw_case, examples, seconds)
    return None


def _describe(values):
    return ', '.join(
        f'{v.dtype}{list(v.shape)}{"" if v.flags.c_contiguous else "nc"}'
        if isinstance(v, numpy.ndarray)
        else repr(v)[:40]
        for v in values
    )
