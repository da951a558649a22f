import numpy

import chainerlite
import chainerlite.functions as F
from chainerlite import testing


@testing.parameterize(
    *testing.product(
        {
            'shape': [(), (3, 2)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64, numpy.int32],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCeil(testing.FunctionTestCase):
    # The result is cut from the graph: there is no gradient to check.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(-5, 5, self.shape)
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.ceil(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.ceil(x).astype(x.dtype),)


def test_cuts_the_graph():
    x = chainerlite.Variable(numpy.array([-1.5, 0.5, 2.0], numpy.float32))
    y = F.ceil(x)
    assert y.creator is None
    assert not y.requires_grad
    (F.sum(y * x)).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.ceil(x.array))
