import numpy

from chainerlite import functions as F
from chainerlite import links
import chainerlite.chainermn


def _lstm(seed):
    numpy.random.seed(seed)
    return links.NStepLSTM(1, 3, 4, 0.0)


def test_hidden_state_travels_to_the_next_rank(comm2):
    if comm2.rank > 1:
        return
    xs = [numpy.random.randn(n, 3).astype(numpy.float32) for n in (4, 2)]
    first, second = _lstm(0), _lstm(1)
    if comm2.rank == 0:
        rnn = chainerlite.chainermn.links.create_multi_node_n_step_rnn(
            first, comm2, rank_out=1
        )
        hy, cy, ys, delegate = rnn(xs)
        (loss,) = chainerlite.chainermn.functions.pseudo_connect(
            delegate, F.sum(F.concat(ys, axis=0))
        )
        loss.backward()
        # one process: the second LSTM starts from the first's final state
        ref_first, ref_second = _lstm(0), _lstm(1)
        h, c, ys_ref = ref_first(None, None, xs)
        _, _, ys2 = ref_second(h, c, xs)
        (F.sum(F.concat(ys_ref, axis=0)) + F.sum(F.concat(ys2, axis=0))).backward()
        for (name, p), (_, q) in zip(
            sorted(first.namedparams()), sorted(ref_first.namedparams())
        ):
            numpy.testing.assert_allclose(
                p.grad, q.grad, rtol=1e-4, atol=1e-5, err_msg=name
            )
    else:
        rnn = chainerlite.chainermn.links.create_multi_node_n_step_rnn(
            second, comm2, rank_in=0
        )
        hy, cy, ys, delegate = rnn(xs)
        assert delegate is None
        (loss,) = chainerlite.chainermn.functions.pseudo_connect(
            delegate, F.sum(F.concat(ys, axis=0))
        )
        loss.backward()
