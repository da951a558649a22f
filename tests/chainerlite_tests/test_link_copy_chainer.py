"""Link.copy's modes share, copy or re-initialise what Chainer 7.8.1's do.

``facts`` builds one model (a Linear, a BatchNormalization, an uninitialized
Linear, a nested ChainList, a persistent int), changes its values, copies
it in each mode and reads what the copy shares with the original.
``CHAINER`` is what it gives on Chainer 7.8.1, recorded in the oracle venv
(``facts(chainer)``); chainerlite must give the same, except the entries
of ``DIFFERENT`` (docs/differences.rst).
"""

import numpy
import pytest

import chainerlite


def facts(ch):
    """Facts about Link.copy in each mode, as plain values."""
    L = ch.links
    out = {}
    for mode in ('share', 'copy', 'init'):
        numpy.random.seed(0)
        model = ch.Chain()
        with model.init_scope():
            model.fc = L.Linear(3, 2)
            model.bn = L.BatchNormalization(2)
            model.lazy = L.Linear(None, 2)
            model.seq = ch.ChainList(L.Linear(2, 2))
        model.add_persistent('count', 5)
        model.fc.b.array[...] = 1.0
        model.fc.W.grad = numpy.ones_like(model.fc.W.array)
        model.bn.avg_mean[...] = 3.0
        c = model.copy(mode)
        f = {}
        f['root_name'] = c.name
        f['child_name'] = c.fc.name
        f['child_distinct'] = c.fc is not model.fc and c.seq is not model.seq
        f['grandchild_distinct'] = c.seq[0] is not model.seq[0]
        f['param_distinct'] = c.fc.W is not model.fc.W
        f['array_same'] = c.fc.W.array is model.fc.W.array
        f['W_equal'] = bool(numpy.array_equal(c.fc.W.array, model.fc.W.array))
        f['b_value'] = c.fc.b.array.tolist()
        grad = c.fc.W.grad
        f['grad'] = (
            None
            if grad is None
            else ('nan' if numpy.isnan(grad).all() else grad.tolist())
        )
        f['grad_same'] = c.fc.W.grad is model.fc.W.grad
        f['persistent_same'] = c.bn.avg_mean is model.bn.avg_mean
        f['persistent_value'] = c.bn.avg_mean.tolist()
        f['N'] = int(c.bn.N)
        f['count'] = c.count
        f['lazy_uninit'] = c.lazy.W.array is None
        model.fc.W.array[...] = 7.0
        f['follows_original'] = bool((c.fc.W.array == 7.0).all())
        model.seq[0].b.array[...] = 9.0
        f['grandchild_follows'] = bool((c.seq[0].b.array == 9.0).all())
        x = numpy.ones((1, 4), numpy.float32)
        model.lazy(x)
        f['lazy_after_original_init'] = c.lazy.W.array is None
        fresh = numpy.zeros((2, 2), numpy.float32)
        model.seq[0].W.array = fresh
        f['replaced_array_follows'] = c.seq[0].W.array is fresh
        f['params'] = sorted(p for p, _ in c.namedparams())
        f['links'] = sorted(p for p, _ in c.namedlinks())
        out[mode] = f
    try:
        model.copy('deep')
        out['bad_mode'] = None
    except Exception as e:
        out['bad_mode'] = type(e).__name__
    return out


CHAINER = {
    'bad_mode': 'ValueError',
    'copy': {
        'N': 0,
        'W_equal': True,
        'array_same': False,
        'b_value': [1.0, 1.0],
        'child_distinct': True,
        'child_name': 'fc',
        'count': 5,
        'follows_original': False,
        'grad': [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
        'grad_same': False,
        'grandchild_distinct': True,
        'grandchild_follows': False,
        'lazy_after_original_init': True,
        'lazy_uninit': True,
        'links': ['/', '/bn', '/fc', '/lazy', '/seq', '/seq/0'],
        'param_distinct': True,
        'params': [
            '/bn/beta',
            '/bn/gamma',
            '/fc/W',
            '/fc/b',
            '/lazy/W',
            '/lazy/b',
            '/seq/0/W',
            '/seq/0/b',
        ],
        'persistent_same': False,
        'persistent_value': [3.0, 3.0],
        'replaced_array_follows': False,
        'root_name': None,
    },
    'init': {
        'N': 0,
        'W_equal': False,
        'array_same': False,
        'b_value': [0.0, 0.0],
        'child_distinct': True,
        'child_name': 'fc',
        'count': 5,
        'follows_original': False,
        'grad': 'nan',
        'grad_same': False,
        'grandchild_distinct': True,
        'grandchild_follows': False,
        'lazy_after_original_init': True,
        'lazy_uninit': True,
        'links': ['/', '/bn', '/fc', '/lazy', '/seq', '/seq/0'],
        'param_distinct': True,
        'params': [
            '/bn/beta',
            '/bn/gamma',
            '/fc/W',
            '/fc/b',
            '/lazy/W',
            '/lazy/b',
            '/seq/0/W',
            '/seq/0/b',
        ],
        'persistent_same': False,
        'persistent_value': [3.0, 3.0],
        'replaced_array_follows': False,
        'root_name': None,
    },
    'share': {
        'N': 0,
        'W_equal': True,
        'array_same': True,
        'b_value': [1.0, 1.0],
        'child_distinct': True,
        'child_name': 'fc',
        'count': 5,
        'follows_original': True,
        'grad': None,
        'grad_same': False,
        'grandchild_distinct': True,
        'grandchild_follows': True,
        'lazy_after_original_init': False,
        'lazy_uninit': True,
        'links': ['/', '/bn', '/fc', '/lazy', '/seq', '/seq/0'],
        'param_distinct': True,
        'params': [
            '/bn/beta',
            '/bn/gamma',
            '/fc/W',
            '/fc/b',
            '/lazy/W',
            '/lazy/b',
            '/seq/0/W',
            '/seq/0/b',
        ],
        'persistent_same': True,
        'persistent_value': [3.0, 3.0],
        'replaced_array_follows': True,
        'root_name': None,
    },
}

# Chainer's copies of a Parameter share one array cell (a list), so an
# array set later on either side (lazy initialisation, ``param.array =``,
# ``to_device``) shows on the other; chainerlite's share the array object.
DIFFERENT = {
    ('share', 'lazy_after_original_init'): True,
    ('share', 'replaced_array_follows'): False,
}


@pytest.mark.parametrize('mode', ['share', 'copy', 'init'])
def test_copy_mode_as_chainer(mode):
    ours = facts(chainerlite)[mode]
    expected = dict(CHAINER[mode])
    for (m, key), value in DIFFERENT.items():
        if m == mode:
            assert expected[key] != value
            expected[key] = value
    assert ours == expected


def test_unknown_mode_raises_as_chainer():
    assert facts(chainerlite)['bad_mode'] == CHAINER['bad_mode']
