"""Freeing the graphs kept by reported variables."""

from chainerlite.training import extension
from chainerlite import variable


@extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_READER)
def unchain_variables(trainer):
    """Extension that cuts the graph behind each Variable of the
    observation.

    With ``config.keep_graph_on_report``, reported variables keep their
    computational graphs (and memory) alive; this extension, run after the
    extensions that need the graphs, releases them.
    """
    for value in trainer.observation.values():
        if isinstance(value, variable.Variable):
            value.unchain_backward()
