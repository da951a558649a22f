"""Recurrent links: their constructors' arguments, the parameters and
attributes they set, the state a stateful link keeps across calls (and
what ``set_state``/``reset_state`` accept), the tree LSTMs' argument
forms and the N-step links over batches of sequences of several lengths."""

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def _x(*shape, seed=0, dtype=numpy.float32):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _params(link):
    return {n: p.array for n, p in link.namedparams() if p.array is not None}


def _shapes(link):
    return sorted(
        (n, None if p.array is None else list(p.shape)) for n, p in link.namedparams()
    )


def lstm_constructor_forms(c):
    L, I = c.L, c.I
    numpy.random.seed(3)
    a = L.LSTM(3, 4)
    b = L.LSTM(4)
    d = L.LSTM(
        3,
        2,
        lateral_init=I.Constant(0.25),
        upward_init=0.5,
        bias_init=-1,
        forget_bias_init=3,
    )
    return [
        _shapes(a),
        [a.state_size, a.lateral_init, a.upward_init, a.bias_init, a.forget_bias_init],
        [a.c, a.h],
        a.upward.b.array,
        _shapes(b),
        b.state_size,
        _params(d),
        [d.bias_init, d.forget_bias_init, d.upward_init],
    ]


def lstm_state_over_batches(c):
    numpy.random.seed(4)
    lstm = c.L.LSTM(3, 4)
    out = []
    for batch in (3, 2, 2, 0, 1):
        y = lstm(_x(batch, 3, seed=batch))
        out.append([y.array, lstm.c.array, lstm.h.array])
    out.append(_try(lambda: lstm(_x(5, 3))))
    out.append([lstm.c.shape, lstm.h.shape])
    lstm.reset_state()
    out.append([lstm.c, lstm.h])
    out.append(lstm(_x(2, 3)).array)
    return out


def lstm_lazy_input(c):
    numpy.random.seed(5)
    lstm = c.L.LSTM(None, 3, forget_bias_init=0)
    before = _shapes(lstm)
    y = lstm(_x(2, 2, 3))
    return before, _shapes(lstm), y.array, _params(lstm)


def lstm_float64_input(c):
    numpy.random.seed(6)
    lstm = c.L.LSTM(2, 3)
    return _try(lambda: lstm(_x(2, 2, dtype=numpy.float64)))


def lstm_set_state(c):
    ch = c.chainer
    numpy.random.seed(7)
    lstm = c.L.LSTM(2, 3)
    cv, hv = ch.Variable(_x(2, 3, seed=1)), ch.Variable(_x(2, 3, seed=2))
    out = [_try(lambda: lstm.set_state(_x(2, 3), hv))]
    out.append(_try(lambda: lstm.set_state(cv, _x(2, 3))))
    out.append([lstm.c, lstm.h])
    lstm.set_state(cv, hv)
    out.append([lstm.c is cv, lstm.h is hv])
    out.append(lstm(_x(2, 2)).array)
    out.append(lstm.c.array)
    return out


def lstm_serialize_and_copy(c):
    ch = c.chainer
    numpy.random.seed(8)
    lstm = c.L.LSTM(2, 3)
    lstm(_x(1, 2))
    s = ch.serializers.DictionarySerializer()
    lstm.serialize(s)
    d = lstm.copy('copy')
    lstm.to_cpu()
    return sorted(s.target), d.h is None, d.h is lstm.h, lstm.h.array


def stateless_lstm(c):
    ch = c.chainer
    numpy.random.seed(9)
    lstm = c.L.StatelessLSTM(3, 4)
    x = _x(2, 3)
    c0, h0 = lstm(None, None, x)
    c1, h1 = lstm(c0, h0, x)
    c2, h2 = lstm(None, h0, x)
    c3, h3 = lstm(ch.Variable(_x(2, 4, seed=1)), None, x)
    lazy = c.L.StatelessLSTM(4)
    before = _shapes(lazy)
    y = lazy(None, None, _x(2, 2, 2))
    return [c0, h0, c1, h1, c2, h2, c3, h3, before, _shapes(lazy), y[1]]


def gru_forms(c):
    L, I = c.L, c.I
    numpy.random.seed(10)
    g = L.GRU(3, 4)
    out = [_shapes(g), g.state_size, g.h]
    out.append(_try(lambda: g()))
    out.append(_try(lambda: g(_x(2, 4), _x(2, 3))))
    out.append(_try(lambda: g(_x(2, 3), _x(2, 3), _x(2, 3))))
    y1 = g(_x(2, 3))
    y2 = g(_x(2, 3, seed=1))
    out.append([y1.array, y2.array, g.h is y2])
    k = L.StatefulGRU(3, 2, init=I.Constant(0.5), inner_init=0.25, bias_init=1)
    out.append(_params(k))
    out.append(k(_x(1, 3)).array)
    s = L.StatelessGRU(3, 2, init=0.5, inner_init=I.One(), bias_init=None)
    out.append(_params(s))
    out.append(s(_x(1, 2), _x(1, 3)))
    out.append([hasattr(s, 'state_size'), hasattr(s, 'reset_state')])
    return out


def gru_state(c):
    ch = c.chainer
    numpy.random.seed(11)
    g = c.L.StatefulGRU(2, 3)
    out = [_try(lambda: g.set_state(_x(1, 3)))]
    h = ch.Variable(_x(1, 3))
    g.set_state(h)
    out.append(g.h is h)
    out.append(g(_x(1, 2)).array)
    g.reset_state()
    out.append(g.h)
    lazy = c.L.StatefulGRU(None, 3)
    out.append(_try(lambda: lazy(_x(2, 4)).array))
    out.append(_shapes(lazy))
    return out


def mgu_forms(c):
    ch = c.chainer
    numpy.random.seed(12)
    s = c.L.StatelessMGU(3, 2)
    m = c.L.StatefulMGU(3, 2)
    out = [_shapes(s), _shapes(m), m.h]
    out.append(s(_x(2, 2), _x(2, 3)))
    out.append([m(_x(2, 3)).array, m(_x(2, 3, seed=1)).array])
    out.append(_try(lambda: m.set_state(_x(2, 2))))
    h = ch.Variable(_x(2, 2, seed=3))
    m.set_state(h)
    out.append([m.h is h, m(_x(2, 3)).array])
    m.reset_state()
    out.append(m.h)
    out.append(_try(lambda: m(_x(2, 3, dtype=numpy.float64))))
    return out


def peephole_lstm(c):
    numpy.random.seed(13)
    p = c.L.StatefulPeepholeLSTM(3, 2)
    out = [_shapes(p), p.state_size, [p.c, p.h], hasattr(p, 'set_state')]
    for batch in (2, 2):
        out.append([p(_x(batch, 3, seed=batch)).array, p.c.array])
    out.append(_try(lambda: p(_x(1, 3)).array))
    p.reset_state()
    out.append([p.c, p.h])
    return out


def zoneout_lstm(c):
    ch = c.chainer
    numpy.random.seed(14)
    z = c.L.StatefulZoneoutLSTM(3, 2, c_ratio=0.25, h_ratio=0.75)
    out = [_shapes(z), z.state_size, z.c_ratio, z.h_ratio, [z.c, z.h]]
    out.append(_try(lambda: c.L.StatefulZoneoutLSTM(3, 2, train=True)))
    out.append(_try(lambda: c.L.StatefulZoneoutLSTM(3, 2, foo=1)))
    with ch.using_config('train', False):
        out.append([z(_x(2, 3)).array, z.c.array, z.h.array])
        out.append(z(_x(2, 3, seed=1)).array)
    out.append(_try(lambda: z.set_state(_x(2, 2), z.h)))
    cv, hv = ch.Variable(_x(2, 2, seed=5)), ch.Variable(_x(2, 2, seed=6))
    z.set_state(cv, hv)
    out.append([z.c is cv, z.h is hv])
    y = z(_x(2, 3))
    out.append([y.shape, y.dtype.name])
    z.reset_state()
    out.append([z.c, z.h])
    return out


def child_sum_tree_lstm(c):
    ch = c.chainer
    numpy.random.seed(15)
    t = c.L.ChildSumTreeLSTM(3, 2)
    x = _x(2, 3)
    c1, h1 = _x(2, 2, seed=1), _x(2, 2, seed=2)
    c2, h2 = _x(2, 2, seed=3), _x(2, 2, seed=4)
    out = [_shapes(t), t.in_size, t.state_size]
    out.append(t(x))
    out.append(t(c1, h1, x))
    out.append(t(c1, c2, h1, h2, x))
    out.append(t(None, c2, h1, None, x))
    out.append(t(c1, c2, h1, h2, None))
    out.append(t(None, None, None, h2, None))
    out.append(_try(lambda: t(None, None, None, None, None)))
    out.append(_try(lambda: t(c1, h1)))
    out.append(t(ch.Variable(c1), ch.Variable(h1), ch.Variable(x)))
    return out


def nary_tree_lstm(c):
    numpy.random.seed(16)
    t = c.L.NaryTreeLSTM(3, 2, n_ary=3)
    x = _x(2, 3)
    cs = [_x(2, 2, seed=i) for i in range(3)]
    hs = [_x(2, 2, seed=i + 3) for i in range(3)]
    out = [_shapes(t), t.in_size, t.state_size, t.n_ary]
    out.append(t(*cs, *hs, x))
    out.append(t(None, cs[1], None, hs[0], None, None, x))
    out.append(t(*cs, *hs, None))
    out.append(t(None, None, None, None, hs[2], None, None))
    out.append(_try(lambda: t(None, None, None, None, None, None, None)))
    out.append(_try(lambda: t(cs[0], hs[0], x)))
    out.append(_try(lambda: c.L.NaryTreeLSTM(3, 2, n_ary=0)))
    out.append(_shapes(c.L.NaryTreeLSTM(2, 2)))
    return out


_NSTEP = (
    'NStepLSTM',
    'NStepBiLSTM',
    'NStepGRU',
    'NStepBiGRU',
    'NStepRNNTanh',
    'NStepRNNReLU',
    'NStepBiRNNTanh',
    'NStepBiRNNReLU',
)


def n_step_constructors(c):
    out = {}
    for name in _NSTEP:
        numpy.random.seed(17)
        link = getattr(c.L, name)(2, 3, 4, 0.25)
        out[name] = [
            _shapes(link),
            [link.n_layers, link.dropout, link.out_size, link.direction],
            [link.n_cells, link.n_weights, link.use_bi_direction],
            [len(link.ws), [len(w) for w in link.ws], [len(b) for b in link.bs]],
            link.ws[1][0] is link[1].w0,
            link.bs[-1][-1] is getattr(link[-1], 'b%d' % (link.n_weights - 1)),
        ]
    return out


def n_step_arguments(c):
    L, I = c.L, c.I
    out = []
    for kwargs in (
        {'use_cudnn': True},
        {'use_bi_direction': True},
        {'activation': 'relu'},
        {'no_such': 1},
    ):
        out.append(_try(lambda kwargs=kwargs: L.NStepLSTM(1, 2, 2, 0.0, **kwargs)))
        out.append(_try(lambda kwargs=kwargs: L.NStepRNNTanh(1, 2, 2, 0.0, **kwargs)))
    link = L.NStepGRU(1, 2, 3, 0.0, initialW=I.Constant(0.5), initial_bias=2)
    out.append(_params(link))
    link = L.NStepBiLSTM(1, 2, 3, 0.0, initialW=0.25, initial_bias=I.One())
    out.append(_params(link))
    out.append(_try(lambda: L.NStepLSTM(1, 2, 3, 0.0, 0.5)))
    return out


def _seqs(*lengths, size=3):
    return [_x(n, size, seed=i + 10) for i, n in enumerate(lengths)]


def n_step_forward(c):
    ch = c.chainer
    out = {}
    for name in _NSTEP:
        numpy.random.seed(18)
        link = getattr(c.L, name)(2, 3, 2, 0.0)
        xs = _seqs(2, 4, 3)
        hx = ch.Variable(_x(2 * link.direction, 3, 2, seed=1))
        if link.n_cells == 2:
            hy, cy, ys = link(None, None, xs)
            given = link(hx, hx * 2, xs)
            out[name] = [hy, cy, ys, given]
        else:
            hy, ys = link(None, xs)
            out[name] = [hy, ys, link(hx, xs)]
    return out


def n_step_forward_errors(c):
    L = c.L
    numpy.random.seed(19)
    lstm = L.NStepLSTM(1, 3, 2, 0.0)
    rnn = L.NStepRNNReLU(1, 3, 2, 0.0)
    xs = _seqs(2, 1)
    out = [
        _try(lambda: lstm(None, None, xs, train=False)),
        _try(lambda: lstm(None, None, xs, other=1)),
        _try(lambda: lstm(None, None, numpy.stack([_x(2, 3), _x(2, 3)]))),
        _try(lambda: rnn(None, tuple(xs))),
        _try(lambda: rnn(None, [_x(2, 4)])),
        _try(lambda: lstm(None, None, [_x(2, 3, dtype=numpy.float64)])),
        _try(lambda: lstm.init_hx(xs)),
        _try(lambda: lstm.init_hx([_x(2, 3, dtype=numpy.float64)])),
    ]
    return out


def n_step_dropout_in_test_mode(c):
    ch = c.chainer
    numpy.random.seed(20)
    link = c.L.NStepBiGRU(2, 3, 2, 0.5)
    with ch.using_config('train', False):
        hy, ys = link(None, _seqs(3, 1, 2))
    return hy, ys


def n_step_copy_and_base(c):
    import importlib

    numpy.random.seed(21)
    link = c.L.NStepLSTM(2, 2, 2, 0.0)
    out = []
    for mode in ('share', 'copy', 'init'):
        d = link.copy(mode)
        out.append(
            [
                d.ws[0][0] is d[0].w0,
                d.ws[0][0] is link.ws[0][0],
                d.bs[1][7] is d[1].b7,
                d.n_layers,
            ]
        )
    base = importlib.import_module(c.chainer.__name__ + '.links.rnn.n_step_rnn')
    out.append(base.argsort_list_descent([[1], [1, 2, 3], [1, 2]]))
    out.append(base.permutate_list(['a', 'b', 'c'], [2, 0, 1], False))
    out.append(base.permutate_list(['a', 'b', 'c'], [2, 0, 1], True))
    s = c.chainer.serializers.DictionarySerializer()
    link.serialize(s)
    out.append(sorted(s.target))
    return out


def n_step_subclass_rnn(c):
    import importlib

    F = c.F
    base = importlib.import_module(c.chainer.__name__ + '.links.rnn.n_step_rnn')
    seen = []

    class Custom(base.NStepRNNBase):
        n_weights = 2
        use_bi_direction = False

        def rnn(self, *args):
            seen.append([type(a).__name__ for a in args[:2]] + [len(args)])
            seen.append([len(x) for x in args[-1]])
            return F.n_step_rnn(*args, activation='relu')

    numpy.random.seed(22)
    link = Custom(1, 3, 2, 0.0)
    hy, ys = link(None, _seqs(1, 3, 2))
    numpy.random.seed(22)
    lstm = c.L.NStepLSTM(1, 3, 2, 0.0)
    xs = [_x(2, 3), _x(1, 3, seed=1)]
    hx = numpy.zeros((1, 2, 2), numpy.float32)
    direct = _try(lambda: lstm.rnn(1, 0.0, hx, hx, lstm.ws, lstm.bs, xs))
    return seen, hy, ys, direct


def n_step_edge_inputs(c):
    ch, L = c.chainer, c.L
    out = {}
    for name in ('NStepLSTM', 'NStepBiGRU', 'NStepRNNTanh'):
        numpy.random.seed(23)
        link = getattr(L, name)(1, 3, 2, 0.0)
        states = [None] * link.n_cells
        out[name] = [
            _try(lambda: link(*states, [])),
            _try(lambda: link(*states, [ch.Variable(_x(1, 3))])),
            _try(lambda: link(*states, (_x(1, 3),) * 3)),
        ]
    return out


def n_step_empty_sequence_and_extra_states(c):
    out = {}
    for name in ('NStepLSTM', 'NStepBiGRU', 'NStepRNNTanh'):
        numpy.random.seed(23)
        link = getattr(c.L, name)(1, 3, 2, 0.0)
        states = [None] * link.n_cells
        bad_h = numpy.zeros((3, 2, 2), numpy.float32)
        out[name] = [
            _try(lambda: link(*states, [_x(2, 3), _x(0, 3)])),
            _try(lambda: link(*([bad_h] * link.n_cells), [_x(2, 3), _x(1, 3)])),
        ]
    return out


def n_step_dtypes(c):
    ch, L = c.chainer, c.L
    out = []
    for config in ('float64', 'float16'):
        with ch.using_config('dtype', config):
            numpy.random.seed(24)
            link = L.NStepGRU(1, 3, 2, 0.0)
            out.append(str(link.ws[0][0].dtype))
            dtype = numpy.dtype(config)
            out.append(_try(lambda: link(None, [_x(2, 3, dtype=dtype)])))
    numpy.random.seed(25)
    link = L.NStepLSTM(1, 3, 2, 0.0)
    out.append(_try(lambda: link(None, None, [_x(2, 3, dtype=numpy.float16)])))
    return out


def n_step_training_dropout_shapes(c):
    numpy.random.seed(26)
    link = c.L.NStepBiLSTM(2, 3, 2, 0.5)
    hy, cy, ys = link(None, None, _seqs(3, 1))
    return [hy.shape, cy.shape, [y.shape for y in ys], str(ys[0].dtype)]


def stateful_links_under_config_dtype(c):
    ch, L = c.chainer, c.L
    out = {}
    for config in ('float64', 'float16'):
        with ch.using_config('dtype', config):
            numpy.random.seed(27)
            dtype = numpy.dtype(config)
            for name, make in (
                ('LSTM', lambda: L.LSTM(3, 2)),
                ('StatefulGRU', lambda: L.StatefulGRU(3, 2)),
                ('StatefulMGU', lambda: L.StatefulMGU(3, 2)),
                ('StatefulPeepholeLSTM', lambda: L.StatefulPeepholeLSTM(3, 2)),
            ):
                link = make()

                def run(link=link):
                    y = link(_x(2, 3, dtype=dtype))
                    return [str(y.dtype), y.array]

                out['%s %s' % (name, config)] = [
                    sorted({str(p.dtype) for p in link.params()}),
                    _try(run),
                ]
    return out


def lstm_zero_batch_first(c):
    numpy.random.seed(28)
    lstm = c.L.LSTM(3, 2)
    y = lstm(_x(0, 3))
    out = [y.shape, lstm.c.shape, lstm.h.shape]
    out.append(_try(lambda: lstm(_x(2, 3))))
    return out


def stateless_lstm_variables_and_grads(c):
    ch = c.chainer
    numpy.random.seed(29)
    lstm = c.L.StatelessLSTM(2, 3)
    x = ch.Variable(_x(2, 2))
    h0 = ch.Variable(_x(2, 3, seed=1))
    c0 = ch.Variable(_x(2, 3, seed=2))
    c1, h1 = lstm(c0, h0, x)
    (c1 + h1 * 2).grad = None
    loss = ch.functions.sum(c1 + h1 * 2)
    loss.backward()
    return [x.grad, h0.grad, c0.grad, lstm.upward.W.grad, lstm.lateral.W.grad]


def odd_constructor_arguments(c):
    L = c.L
    numpy.random.seed(30)
    x = _x(2, 3)

    def n_step(make, n_states):
        link = make()
        return link(*([None] * n_states), [x])

    return [
        _try(lambda: _shapes(L.LSTM(3, 0))),
        _try(lambda: L.LSTM(3, 0)(x)),
        _try(lambda: L.GRU(3)),
        _try(lambda: L.StatelessGRU(3)),
        _try(lambda: L.StatefulMGU(3)),
        _try(lambda: _shapes(L.NStepLSTM(0, 3, 2, 0.0))),
        _try(lambda: n_step(lambda: L.NStepLSTM(0, 3, 2, 0.0), 2)),
        _try(lambda: n_step(lambda: L.NStepGRU(1, 3, 2, 1.5), 1)),
        _try(lambda: n_step(lambda: L.NStepRNNTanh(2, 3, 2, -0.5), 1)),
        _try(lambda: L.StatefulZoneoutLSTM(3, 2, c_ratio=2.0)(x)),
        _try(lambda: L.NaryTreeLSTM(3, 2, n_ary=-1)),
        _try(lambda: L.ChildSumTreeLSTM(3, 0)(x)),
    ]


def zoneout_lstm_training_masks(c):
    ch, F = c.chainer, c.F
    numpy.random.seed(31)
    z = c.L.StatefulZoneoutLSTM(3, 2, c_ratio=0.3, h_ratio=0.6)
    x = _x(4, 3)
    z(x)
    c0, h0 = z.c.array.copy(), z.h.array.copy()
    h1 = z(_x(4, 3, seed=1))
    gates = z.upward(_x(4, 3, seed=1)).array + z.lateral(h0).array
    a, i, f, o = (gates.reshape(4, 2, 4)[:, :, k] for k in range(4))
    sig = F.sigmoid
    c_tmp = (F.tanh(a) * sig(i) + sig(f) * c0).array
    h_tmp = (sig(o) * F.tanh(c_tmp)).array
    node = h1.creator
    mixed = h0 * node.flag_h + h_tmp * node.flag_x
    c_node = z.c.creator
    c_mixed = c0 * c_node.flag_h + c_tmp * c_node.flag_x
    return [
        type(node).__name__,
        node.zoneout_ratio,
        c_node.zoneout_ratio,
        bool(numpy.allclose(mixed, h1.array, atol=1e-6)),
        bool(numpy.allclose(c_mixed, z.c.array, atol=1e-6)),
        bool(((node.flag_h + node.flag_x) == 1).all()),
        sorted(_shapes(z)),
        isinstance(h1, ch.Variable),
    ]


def stateful_copies_and_devices(c):
    import copy
    import pickle

    numpy.random.seed(32)
    out = {}
    for name, make in (
        ('LSTM', lambda: c.L.LSTM(3, 2)),
        ('StatefulGRU', lambda: c.L.StatefulGRU(3, 2)),
        ('StatefulMGU', lambda: c.L.StatefulMGU(3, 2)),
        ('StatefulPeepholeLSTM', lambda: c.L.StatefulPeepholeLSTM(3, 2)),
        ('StatefulZoneoutLSTM', lambda: c.L.StatefulZoneoutLSTM(3, 2)),
    ):
        link = make()
        with c.chainer.using_config('train', False):
            link(_x(2, 3))
        deep = copy.deepcopy(link)
        pickled = pickle.loads(pickle.dumps(link))
        shallow = link.copy()
        link.to_device('@numpy')
        out[name] = [
            deep.h is link.h,
            _values.summary(deep.h),
            _values.summary(pickled.h),
            shallow.h is link.h,
            str(link.device),
            type(link.h).__name__,
        ]
    return out


def lstm_initializer_forms(c):
    L, I = c.L, c.I
    out = []
    for kw in (
        {'lateral_init': numpy.ones((2, 2), numpy.float32)},
        {'upward_init': numpy.arange(6.0).reshape(2, 3)},
        {'upward_init': numpy.ones((8, 3), numpy.float32)},
        {'bias_init': numpy.arange(2.0), 'forget_bias_init': numpy.full(2, 5.0)},
        {'bias_init': numpy.ones(8)},
        {'bias_init': numpy.arange(2.0).reshape(2, 1), 'forget_bias_init': 3},
        {'bias_init': I.LeCunNormal(), 'forget_bias_init': I.HeUniform()},
        {'lateral_init': I.Orthogonal(scale=1.0)},
        {'upward_init': 'text'},
        {'forget_bias_init': [1, 2]},
    ):
        numpy.random.seed(35)
        out.append(_try(lambda kw=kw: _params(L.LSTM(3, 2, **kw))))
    numpy.random.seed(35)
    lazy = L.LSTM(None, 2, upward_init=numpy.ones((2, 3), numpy.float32), bias_init=2)
    out.append(_try(lambda: [lazy(_x(1, 3)).array, _params(lazy)]))
    return out


def n_step_gradients(c):
    ch, F = c.chainer, c.F
    out = {}
    for name in ('NStepBiLSTM', 'NStepGRU', 'NStepRNNReLU'):
        numpy.random.seed(37)
        link = getattr(c.L, name)(2, 3, 2, 0.0)
        xs = [ch.Variable(x) for x in _seqs(3, 1, 2)]
        hx = ch.Variable(_x(2 * link.direction, 3, 2, seed=2))
        states = [hx] * link.n_cells
        result = link(*states, xs)
        loss = sum(F.sum(y * y) for y in result[-1]) + F.sum(result[0])
        loss.backward()
        out[name] = [
            [x.grad for x in xs],
            hx.grad,
            link.ws[0][0].grad,
            link.ws[-1][-1].grad,
            link.bs[0][0].grad,
        ]
    return out


_STATEFUL = (
    'StatefulGRU',
    'StatefulMGU',
    'StatefulPeepholeLSTM',
    'StatefulZoneoutLSTM',
    'LSTM',
)


def _second_batch(c, name, batch):
    numpy.random.seed(38)
    link = getattr(c.L, name)(3, 2)
    with c.chainer.using_config('train', False):
        link(_x(2, 3))
        return _try(lambda: [link(_x(batch, 3, seed=1)).array, link.h.array])


def stateful_larger_batch(c):
    return {name: _second_batch(c, name, 3) for name in _STATEFUL}


def stateful_smaller_batch(c):
    return {name: _second_batch(c, name, 1) for name in _STATEFUL}


def n_step_states_of_other_dtypes(c):
    out = {}
    for name in ('NStepLSTM', 'NStepGRU', 'NStepBiRNNTanh'):
        numpy.random.seed(39)
        link = getattr(c.L, name)(1, 3, 2, 0.0)
        hx = _x(link.direction, 2, 2, seed=3, dtype=numpy.float64)
        states = [hx] * link.n_cells

        def run(link=link, states=states):
            result = link(*states, _seqs(2, 1))
            return [[str(h.dtype) for h in result[:-1]], result[-1]]

        out[name] = _try(run)
    return out


def recurrent_gradients(c):
    ch, F, L = c.chainer, c.F, c.L
    out = {}
    for name, make, steps in (
        ('LSTM', lambda: L.LSTM(3, 2), 3),
        ('StatefulGRU', lambda: L.StatefulGRU(3, 2), 3),
        ('StatefulMGU', lambda: L.StatefulMGU(3, 2), 3),
        ('StatefulPeepholeLSTM', lambda: L.StatefulPeepholeLSTM(3, 2), 3),
    ):
        numpy.random.seed(40)
        link = make()
        xs = [ch.Variable(_x(2, 3, seed=s)) for s in range(steps)]
        loss = sum(F.sum(link(x) ** 2) for x in xs)
        loss.backward()
        out[name] = [loss.array, [x.grad for x in xs]] + [
            p.grad for _, p in sorted(link.namedparams())
        ]
    numpy.random.seed(41)
    tree = L.NaryTreeLSTM(3, 2, n_ary=2)
    leaves = [ch.Variable(_x(2, 2, seed=s)) for s in range(4)]
    x = ch.Variable(_x(2, 3, seed=9))
    cell, h = tree(*leaves, x)
    F.sum(cell * h).backward()
    out['NaryTreeLSTM'] = [x.grad] + [v.grad for v in leaves] + [tree.W_x.W.grad]
    numpy.random.seed(42)
    tree = L.ChildSumTreeLSTM(3, 2)
    x = ch.Variable(_x(2, 3, seed=9))
    cell, h = tree(*leaves, x)
    F.sum(cell + h).backward()
    out['ChildSumTreeLSTM'] = [x.grad, leaves[0].grad, tree.W_h_f.W.grad]
    return out


PROBES = _values.probes(globals(), __name__)
