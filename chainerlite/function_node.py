"""``FunctionNode``: base class of every differentiable function.

The class is compiled (``chainerlite._core.node``) and meant to be subclassed
from Python: override ``forward`` (or ``forward_cpu``/``forward_gpu``) and
``backward``; call it through ``apply``.
"""

from chainerlite._core import FunctionNode  # NOQA
from chainerlite._core import grad  # NOQA: F401  (chainer.function_node.grad)


class DoubleBackpropError(RuntimeError):
    """Raised by a node's ``backward`` that cannot build its own graph.

    A node whose gradients cannot be differentiated again (``F.forget``)
    raises it when backward runs with ``enable_double_backprop=True``.
    ``gradient_check.check_backward`` then checks the raw-array path only.
    """
