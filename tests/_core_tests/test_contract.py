"""``facts.Contract``: one declaration per node class gives both the full
type check (with type_check's messages) and the core's fast accept.

The property: on generated inputs (counts, dtypes, shapes), the fast accept
never accepts what the full check rejects, for every compiled node class
that declares a contract.
"""

import itertools
import os

import numpy
import pytest

from chainerlite import function_node
from chainerlite._core import facts, ops_array, ops_math, ops_nn
from chainerlite.utils import type_check

FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'


def _declaring_classes():
    found = []
    for module in (ops_math, ops_nn, ops_array):
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, function_node.FunctionNode)
                and type(getattr(obj, 'check_type_forward', None)) is facts.Contract
            ):
                found.append(obj)
    return found


CLASSES = _declaring_classes()
DTYPES = [numpy.float32, numpy.float64, numpy.float16, numpy.int32, numpy.bool_]
SHAPES = [(), (3,), (1,), (2, 3), (3, 3), (4, 3), (3, 1), (1, 3), (2, 3, 1)]


def _inputs(rng, count):
    return tuple(
        numpy.zeros(
            SHAPES[rng.integers(len(SHAPES))], DTYPES[rng.integers(len(DTYPES))]
        )
        for _ in range(count)
    )


# the node parameters that a contract reads (Sum's axis, Reshape's shape,
# BroadcastTo's shape)
PARAMS = {
    ops_array.Sum: [(), (0,), (1,), (-1,), (2,), (-3,), (0, 1), None],
    ops_array.Reshape: [(3,), (3, 1), (-1,), (-1, 3), (2, -1), (0,), (-1, 0), ()],
    ops_array.BroadcastTo: [(3,), (2, 3), (3, 3), (4, 2, 3), (), (1,), (3, 1)],
}


def _node(cls, rng):
    if cls not in PARAMS:
        return cls.__new__(cls)
    options = PARAMS[cls]
    param = options[rng.integers(len(options))]
    if cls is ops_array.Sum:
        return cls(axis=param)
    return cls(param)


def _full_check_passes(node, arrays):
    try:
        node._check_data_type_forward(arrays)
    except (type_check.InvalidType, IndexError):
        # IndexError: ``shape[1]`` of an array of too few axes, which
        # reaches the caller as in Chainer 7.8.1
        return False
    return True


def test_the_arithmetic_linear_and_tanh_nodes_declare_contracts():
    names = {cls.__name__ for cls in CLASSES}
    assert {'Add', 'Mul', 'Div', 'Absolute', 'TanhGrad', 'LinearFunction'} <= names
    assert set(PARAMS) <= set(CLASSES)


@pytest.mark.parametrize('cls', CLASSES, ids=lambda c: c.__name__)
def test_fast_accept_never_accepts_what_the_check_rejects(cls):
    contract = cls.check_type_forward
    rng = numpy.random.default_rng(0)
    accepted = rejected = 0
    for _ in range(3000 if FULL else 300):
        node = _node(cls, rng)
        arrays = _inputs(rng, int(rng.integers(0, 4)))
        passes = _full_check_passes(node, arrays)
        if contract.fast_accepts(node, *arrays):
            assert passes, (cls.__name__, [(a.dtype, a.shape) for a in arrays])
            accepted += 1
        rejected += not passes
    # the generator reaches both sides of every contract
    assert accepted and rejected


def test_fast_accept_takes_the_common_valid_inputs():
    f = numpy.float32
    x, W, b = numpy.zeros((2, 3), f), numpy.zeros((4, 3), f), numpy.zeros(4, f)
    linear = ops_nn.LinearFunction()
    accepts = linear.check_type_forward.__func__.fast_accepts
    assert accepts(linear, x, W) and accepts(linear, x, W, b)
    assert not accepts(linear, x, W, b.astype(numpy.float64))
    add = ops_math.Add.check_type_forward
    assert add.fast_accepts(None, x, numpy.zeros((1, 3), f))
    assert not add.fast_accepts(None, x, W)  # (2, 3) and (4, 3) do not broadcast
    total = ops_array.Sum(axis=1)
    assert total.check_type_forward.__func__.fast_accepts(total, x)
    assert not ops_array.Sum.check_type_forward.fast_accepts(ops_array.Sum(axis=2), x)


@pytest.mark.parametrize(
    'arrays',
    [
        (numpy.zeros((2, 3), numpy.int32), numpy.zeros((4, 3), numpy.float32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros((4, 5), numpy.float32)),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((4, 3), numpy.float32),
            numpy.zeros(5, numpy.float32),
        ),
        (numpy.zeros((2, 3), numpy.float32),),
    ],
)
def test_linear_messages(arrays):
    # the declaration's full check states the contract as Chainer's does
    expected = {
        1: 'Expect: x.dtype.kind == f',
        2: 'Expect: x.shape[1] == W.shape[1]',
        3: 'Expect: b.shape[0] == W.shape[0]',
    }
    with pytest.raises(type_check.InvalidType) as e:
        ops_nn.LinearFunction()._check_data_type_forward(arrays)
    if len(arrays) == 1:
        assert 'Expect: in_types.size >= 2' in str(e.value)
    elif arrays[0].dtype.kind != 'f':
        assert expected[1] in str(e.value)
    else:
        assert expected[len(arrays)] in str(e.value)


def test_a_bad_declaration_is_refused():
    for kwargs in [
        dict(count=4),
        dict(names=('x',), optional=1),
        dict(count=1, broadcast=True),
    ]:
        with pytest.raises(ValueError):
            facts.Contract(**kwargs)


def test_count_only_contract_accepts_any_arrays():
    contract = ops_math.Neg.check_type_forward
    for dtype, shape in itertools.product(DTYPES, SHAPES):
        assert contract.fast_accepts(None, numpy.zeros(shape, dtype))
    assert not contract.fast_accepts(None)
