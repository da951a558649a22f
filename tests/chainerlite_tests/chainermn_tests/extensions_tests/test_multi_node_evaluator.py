import numpy

import chainerlite
from chainerlite import datasets
from chainerlite import iterators
from chainerlite import reporter
from chainerlite.training import extensions
import chainerlite.chainermn


class _Reporting(chainerlite.Chain):
    def forward(self, x):
        reporter.report({'value': x.sum() / len(x)}, self)


def test_create_multi_node_evaluator_means_over_ranks(comm):
    data = numpy.full((4, 1), comm.rank, numpy.float32)
    model = _Reporting()
    evaluator = chainerlite.chainermn.create_multi_node_evaluator(
        extensions.Evaluator(
            iterators.SerialIterator(data, 2, repeat=False, shuffle=False), model
        ),
        comm,
    )
    result = evaluator()
    assert numpy.isclose(result['main/value'], (comm.size - 1) / 2)


class _Sum(chainerlite.Chain):
    def forward(self, a, b):
        return a + b


def test_generic_evaluator_gathers_on_root(comm):
    values = list(range(comm.rank, 11, comm.size))
    data = datasets.TupleDataset(values, values)
    it = iterators.SerialIterator(data, 2, repeat=False, shuffle=False)
    evaluator = chainerlite.chainermn.extensions.GenericMultiNodeEvaluator(
        comm, it, _Sum()
    )
    results = evaluator()
    local = [list(2 * numpy.array(values[i : i + 2])) for i in range(0, len(values), 2)]
    everyone = comm.allgather_obj(local)
    if comm.rank == 0:
        expected = [b for row in _interleave(everyone) for b in row]
        got = [list(numpy.asarray(getattr(r, 'array', r))) for r in results]
        assert [list(map(int, g)) for g in got] == expected
    else:
        assert results is None


def _interleave(lists):
    out = []
    for i in range(max(len(l) for l in lists)):
        out.extend([l[i]] for l in lists if i < len(l))
    return out


class _Count(chainerlite.chainermn.extensions.GenericMultiNodeEvaluator):
    def calc_local(self, *args):
        return 1

    def aggregate(self, results):
        return sum(results)


def test_generic_evaluator_custom_aggregate(comm):
    it = iterators.SerialIterator(list(range(5)), 2, repeat=False)
    result = _Count(comm, it, None)()
    if comm.rank == 0:
        assert result == 3 * comm.size
