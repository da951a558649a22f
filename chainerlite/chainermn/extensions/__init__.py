"""Trainer extensions over several processes."""

from chainerlite.chainermn.extensions._multi_node_snapshot import multi_node_snapshot  # NOQA
from chainerlite.chainermn.extensions.allreduce_persistent import AllreducePersistent  # NOQA
from chainerlite.chainermn.extensions.checkpoint import create_multi_node_checkpointer  # NOQA
from chainerlite.chainermn.extensions.multi_node_early_stopping_trigger import (
    MultiNodeEarlyStoppingTrigger,
)  # NOQA
from chainerlite.chainermn.extensions.multi_node_evaluator import (
    create_multi_node_evaluator,
)  # NOQA
from chainerlite.chainermn.extensions.multi_node_evaluator import (
    GenericMultiNodeEvaluator,
)  # NOQA
from chainerlite.chainermn.extensions.observation_aggregator import (
    ObservationAggregator,
)  # NOQA
