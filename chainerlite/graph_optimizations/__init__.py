"""Static sub-graph annotations (Chainer's ``chainer.graph_optimizations``)."""

from chainerlite.graph_optimizations import static_graph  # NOQA
