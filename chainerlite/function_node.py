"""``FunctionNode``: base class of every differentiable function.

The class is compiled (``chainerlite._core.node``) and meant to be subclassed
from Python: override ``forward`` (or ``forward_cpu``/``forward_gpu``) and
``backward``; call it through ``apply``.
"""
from chainerlite._core import FunctionNode  # NOQA
