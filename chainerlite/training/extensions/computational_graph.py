"""Dumping the computational graph of a reported variable."""

from __future__ import annotations

import os
import shutil
import subprocess

from chainerlite import computational_graph
from chainerlite import configuration
from chainerlite.training import extension
from chainerlite.training.extensions import _atomic
from chainerlite import variable


def is_graphviz_available():
    """Whether Graphviz's ``dot`` command is on the PATH."""
    return shutil.which('dot') is not None


class DumpGraph(extension.Extension):
    """Writes the computational graph behind an observed variable, once.

    At initialization it turns ``config.keep_graph_on_report`` on, so that
    the variable reported at the first iteration keeps its graph; at its
    first call it writes the graph in DOT to ``trainer.out/filename``
    (and a PNG next to it when Graphviz's ``dot`` is installed), then puts
    the flag back.

    Args:
        root_name (str): Key of the variable in the observation (e.g.
            ``'main/loss'``).
        filename (str): Name of the DOT file.
        variable_style (dict): DOT attributes of the variable nodes.
        function_style (dict): DOT attributes of the function nodes.

    """

    trigger = 1, 'iteration'
    default_name = 'dump_graph'
    priority = extension.PRIORITY_READER

    def __init__(
        self,
        root_name,
        filename: str | None = None,
        variable_style=None,
        function_style=None,
    ) -> None:
        self._root_name = root_name
        self._filename = 'cg.dot' if filename is None else filename
        self._variable_style = 'default' if variable_style is None else variable_style
        self._function_style = 'default' if function_style is None else function_style
        self._original_flag = None
        self._dumped = False

    def initialize(self, trainer):
        """Makes the reporter keep the graphs until the dump."""
        if not self._dumped:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True

    def __call__(self, trainer):
        """Dumps the graph (at the first call only)."""
        if self._dumped:
            return
        self._dumped = True
        self._restore_flag()
        root = trainer.observation.get(self._root_name)
        if not isinstance(root, variable.Variable):
            raise KeyError(
                'DumpGraph: no variable {!r} in the observation (found: {})'.format(
                    self._root_name, ', '.join(sorted(trainer.observation))
                )
            )
        dot = computational_graph.build_computational_graph(
            [root],
            variable_style=self._variable_style,
            function_style=self._function_style,
        ).dump()
        path = os.path.join(trainer.out, self._filename)

        def write(tmp_path):
            with open(tmp_path, 'w') as f:
                f.write(dot)

        _atomic.write_file(path, write)
        if is_graphviz_available():
            png = os.path.splitext(path)[0] + '.png'
            subprocess.run(['dot', '-Tpng', path, '-o', png], check=False)

    def finalize(self):
        """Puts the flag back if the graph was never dumped."""
        self._restore_flag()

    def _restore_flag(self):
        if self._original_flag is not None:
            configuration.config.keep_graph_on_report = self._original_flag
            self._original_flag = None


def dump_graph(root_name, out_name='cg.dot', variable_style=None, function_style=None):
    """Returns a :class:`DumpGraph` extension (Chainer's older name).

    Args:
        root_name (str): Key of the variable in the observation.
        out_name (str): Name of the DOT file.
        variable_style (dict): DOT attributes of the variable nodes.
        function_style (dict): DOT attributes of the function nodes.

    """
    return DumpGraph(root_name, out_name, variable_style, function_style)
