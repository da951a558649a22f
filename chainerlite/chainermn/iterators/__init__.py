"""Iterators over several processes."""

from chainerlite.chainermn.iterators.multi_node_iterator import (
    create_multi_node_iterator,
)  # NOQA
from chainerlite.chainermn.iterators.synchronized_iterator import (
    create_synchronized_iterator,
)  # NOQA
