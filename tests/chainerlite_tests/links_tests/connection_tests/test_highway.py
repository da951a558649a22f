import numpy

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import links


def test_forward_and_backward():
    link = links.Highway(3, activate=F.tanh)
    assert (link.transform.b.array == -1).all()
    for p in link.params():
        p.array = numpy.random.uniform(-1, 1, p.shape)
    x = numpy.random.uniform(-1, 1, (4, 3))
    Wh, bh = link.plain.W.array, link.plain.b.array
    Wt, bt = link.transform.W.array, link.transform.b.array
    t = 1 / (1 + numpy.exp(-(x.dot(Wt.T) + bt)))
    expected = numpy.tanh(x.dot(Wh.T) + bh) * t + x * (1 - t)
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-10)
    gradient_check.check_backward(
        link,
        (x,),
        numpy.random.uniform(-1, 1, (4, 3)),
        params=tuple(link.params()),
        atol=1e-5,
        rtol=1e-5,
    )
