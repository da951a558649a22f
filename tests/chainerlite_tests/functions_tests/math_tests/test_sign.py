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
class TestSign(testing.FunctionTestCase):
    # The result is cut from the graph: there is no gradient to check.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        # Zeros included: sign(0) is 0.
        x = numpy.asarray(numpy.random.randint(-2, 3, self.shape))
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.sign(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.sign(x),)


def test_cuts_the_graph():
    x = chainerlite.Variable(numpy.array([-2.0, 0.0, 3.0], numpy.float32))
    y = F.sign(x)
    assert y.creator is None
    assert not y.requires_grad
    (F.sum(y * x)).backward()
    numpy.testing.assert_array_equal(x.grad, [-1.0, 0.0, 1.0])
