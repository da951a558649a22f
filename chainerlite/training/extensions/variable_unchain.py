"""Freeing the graphs kept by reported variables."""

from chainerlite import configuration
from chainerlite import variable
from chainerlite.training import extension


class unchain_variables(extension.Extension):
    """Extension that cuts the graph behind each Variable of the
    observation.

    With ``config.keep_graph_on_report``, reported variables keep their
    computational graphs (and memory) alive; this extension, run after every
    other extension (its priority is 0), releases them. It fires at the
    iterations where the flag was on at its previous check (the flag as it
    was at initialization for the first), so an extension that turns the
    flag on for one iteration gets its graph before it is cut.
    """

    priority = 0

    def __init__(self):
        self._prev_flag = None

    def initialize(self, _):
        """Records the flag for the first check."""
        self._prev_flag = configuration.config.keep_graph_on_report

    def trigger(self, _):
        """Whether the flag was on at the previous check."""
        flag = self._prev_flag
        self._prev_flag = configuration.config.keep_graph_on_report
        return flag

    def __call__(self, trainer):
        for value in trainer.observation.values():
            if isinstance(value, variable.Variable):
                value.unchain_backward()
