"""Static sub-graph annotations (Chainer's ``chainer.graph_optimizations``)."""

from chainerlite.graph_optimizations import static_graph  # NOQA
from chainerlite.graph_optimizations import static_graph_utilities  # NOQA
from chainerlite.graph_optimizations.static_graph_utilities import static_code  # NOQA
