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


def is_return_code_zero(args):
    """Whether the command ``args`` (a list of str) runs and exits with
    status 0; its output is discarded, and a command that cannot be run
    gives ``False``."""
    try:
        completed = subprocess.run(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    except OSError:
        return False
    return completed.returncode == 0


class DumpGraph(extension.Extension):
    """Writes the computational graph behind an observed variable, once.

    At initialization it turns ``config.keep_graph_on_report`` on, so that
    the variable reported at the first iteration keeps its graph; its
    trigger fires at the first iteration only, where it writes the graph in
    DOT to ``trainer.out/filename`` (and a PNG next to it when Graphviz's
    ``dot`` is installed), then puts the flag back.

    Args:
        root_name (str): Key of the variable in the observation (e.g.
            ``'main/loss'``).
        filename (str): Name of the DOT file (``out_name=``, its older
            name, is taken too); ``'cg.dot'`` by default.
        variable_style (dict): DOT attributes of the variable nodes.
        function_style (dict): DOT attributes of the function nodes.

    Raises:
        TypeError: If an unknown keyword argument is given.

    """

    default_name = 'dump_graph'
    priority = extension.PRIORITY_READER

    def __init__(
        self,
        root_name,
        filename: str | None = None,
        variable_style=None,
        function_style=None,
        **kwargs,
    ) -> None:
        out_name = kwargs.pop('out_name', 'cg.dot')
        if kwargs:
            raise TypeError(
                'DumpGraph: unexpected keyword arguments {}'.format(sorted(kwargs))
            )
        self._root_name = root_name
        self._filename = out_name if filename is None else filename
        self._variable_style = 'default' if variable_style is None else variable_style
        self._function_style = 'default' if function_style is None else function_style
        self._original_flag = None
        self._flag_called = False

    def initialize(self, trainer):
        """Makes the reporter keep the graphs until the dump."""
        if not self._flag_called:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True

    def trigger(self, trainer):
        """True at the first call only."""
        if self._flag_called:
            return False
        self._flag_called = True
        return True

    def __call__(self, trainer):
        """Dumps the graph and puts the flag back.

        Raises:
            KeyError: If the observation has no ``root_name``.
            TypeError: If its value is not a Variable.

        """
        try:
            self._dump(trainer)
        finally:
            self._restore_flag()

    def _dump(self, trainer):
        if self._root_name not in trainer.observation:
            raise KeyError(
                'DumpGraph: no {!r} in the observation (found: {})'.format(
                    self._root_name, ', '.join(sorted(trainer.observation))
                )
            )
        root = trainer.observation[self._root_name]
        if not isinstance(root, variable.Variable):
            raise TypeError(
                'DumpGraph: {!r} is a {}, not a Variable'.format(
                    self._root_name, type(root).__name__
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
        if not self._flag_called:
            self._restore_flag()

    def serialize(self, serializer):
        """Saves or loads whether it has fired and the flag to put back."""
        self._original_flag = serializer('_original_flag', self._original_flag)
        self._flag_called = serializer('_flag_called', self._flag_called)

    def _restore_flag(self):
        if self._original_flag is not None:
            configuration.config.keep_graph_on_report = self._original_flag


# Chainer's older name of the class
dump_graph = DumpGraph
