"""Computational graphs as DOT text and images, optionally coloured by time.

:func:`build_computational_graph` walks backward from some outputs and
returns a :class:`ComputationalGraph`; its :meth:`~ComputationalGraph.dump`
writes the graph in the DOT language of Graphviz. Beyond Chainer,
:meth:`~ComputationalGraph.render` runs Graphviz's ``dot`` to write an image,
and :meth:`~ComputationalGraph.colorize_by_time` colours function nodes by
the time a :class:`~chainerlite.function_hooks.TimerHook` measured.
"""

import collections.abc
import os
import shutil
import subprocess

from chainerlite import function_node
from chainerlite import variable

_DEFAULT_VARIABLE_STYLE = {
    'shape': 'octagon',
    'fillcolor': '#E0E0E0',
    'style': 'filled',
}
_DEFAULT_FUNCTION_STYLE = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}
_RANKDIRS = ('TB', 'BT', 'LR', 'RL')
_RECORD_CHARS = '{}|<>'
_TIME_UNITS = (('sec', 1.0), ('ms', 1e3), ('us', 1e6), ('ns', 1e9))


def _resolve_style(style, default, argname):
    if isinstance(style, str):
        if style != 'default':
            raise ValueError(
                "%s must be a dict, None or 'default', not %r" % (argname, style)
            )
        return dict(default)
    if style is None:
        return {}
    if not isinstance(style, collections.abc.Mapping):
        raise TypeError(
            "%s must be a dict, None or 'default', not %s"
            % (argname, type(style).__name__)
        )
    return dict(style)


def _quote(text, record):
    # A double-quoted DOT string; record shapes also give {}|<> a meaning.
    text = str(text).replace('\\', '\\\\').replace('"', '\\"')
    if record and any(char in text for char in _RECORD_CHARS):
        for char in _RECORD_CHARS:
            text = text.replace(char, '\\' + char)
    return '"%s"' % text.replace('\n', '\\n')


def _attribute_text(attributes):
    record = attributes.get('shape') == 'record'
    return ','.join(
        '%s=%s' % (key, _quote(value, record and key == 'label'))
        for key, value in attributes.items()
    )


def _label_of(node):
    return node.label


def _format_seconds(seconds):
    for unit, factor in _TIME_UNITS[:-1]:
        if seconds * factor >= 1:
            break
    else:
        unit, factor = _TIME_UNITS[-1]
    return '%.3g%s' % (seconds * factor, unit)


def _white_to_red(fraction):
    level = round(255 * (1.0 - min(max(fraction, 0.0), 1.0)))
    return '#FF%02X%02X' % (level, level)


def _mean_times(timer_hook_or_summary):
    summary = timer_hook_or_summary
    if callable(getattr(summary, 'summary', None)):
        summary = summary.summary()
    if not isinstance(summary, collections.abc.Mapping):
        raise TypeError(
            'expected a TimerHook or the dict of its summary(), '
            'not %s' % type(timer_hook_or_summary).__name__
        )
    return {
        name: record['elapsed_time'] / record['occurrence']
        for name, record in summary.items()
        if record['occurrence']
    }


class DotNode(object):
    """One node of a computational graph as a Graphviz DOT statement.

    Args:
        node (VariableNode or FunctionNode): The node.
        attribute (dict): DOT attributes added to (or replacing) the
            defaults: the label, and the shape (``oval`` for a variable,
            ``box`` for a function).
        show_name (bool): Whether a named variable's label starts with its
            name.

    Attributes:
        node: The node.
        id_ (int): The node's id in the DOT text (``id(node)``).
        attribute (dict): The DOT attributes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> from chainerlite import computational_graph as c
        >>> x = chainer.Variable(np.zeros((2, 3), np.float32), name='x')
        >>> c.DotNode(x.node).label.split(' ', 1)[1]
        '[label="x: (2, 3), float32",shape="oval"];'

    """

    def __init__(self, node, attribute=None, show_name=True):
        if isinstance(node, variable.VariableNode):
            label = node.label
            if show_name and node.name is not None:
                label = '%s: %s' % (node.name, label)
            shape = 'oval'
        elif isinstance(node, function_node.FunctionNode):
            label, shape = node.label, 'box'
        else:
            raise TypeError(
                'DotNode: node must be a VariableNode or a FunctionNode, '
                'not %s' % type(node).__name__
            )
        self.node = node
        self.id_ = id(node)
        self.attribute = {'label': label, 'shape': shape}
        if attribute is not None:
            self.attribute.update(attribute)

    @property
    def label(self):
        """str: The DOT statement of the node, ``ID [ATTRIBUTES];``."""
        return '%d [%s];' % (self.id_, _attribute_text(self.attribute))


class ComputationalGraph(object):
    """Graph of variable nodes and function nodes, as Graphviz DOT.

    The graph is assumed to be directed and acyclic. It holds its nodes
    (so they live as long as the graph does); DOT identifiers are the
    ``id()`` of the nodes.

    Args:
        nodes (list): The nodes, each a :class:`~chainerlite.variable.\
VariableNode` or a :class:`~chainerlite.FunctionNode`.
        edges (list): The edges, each a pair ``(head, tail)`` of nodes: a
            variable node and a function that takes it as input, or a
            function and a variable node it created.
        variable_style (dict, None or 'default'): DOT attributes of variable
            nodes. ``'default'`` is ``{'shape': 'octagon', 'fillcolor':
            '#E0E0E0', 'style': 'filled'}``; None leaves plain ovals.
        function_style (dict, None or 'default'): DOT attributes of function
            nodes. ``'default'`` is ``{'shape': 'record', 'fillcolor':
            '#6495ED', 'style': 'filled'}``; None leaves plain boxes.
        rankdir (str): Direction of the layout: ``'TB'`` (top to bottom),
            ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable (bool): If True, :meth:`dump` leaves out variable
            nodes and links each function to the functions that use its
            outputs.
        show_name (bool): If True, a variable node's label starts with the
            ``name`` of the variable, when it has one.
        time_summary: Passed to :meth:`colorize_by_time` when not None.

    Raises:
        ValueError: If ``rankdir`` is not one of the four directions.
    """

    def __init__(
        self,
        nodes,
        edges,
        variable_style='default',
        function_style='default',
        rankdir='TB',
        remove_variable=False,
        show_name=True,
        time_summary=None,
    ):
        if rankdir not in _RANKDIRS:
            raise ValueError(
                'rankdir must be one of %s, not %r' % (', '.join(_RANKDIRS), rankdir)
            )
        self.nodes = nodes
        self.edges = edges
        self.variable_style = _resolve_style(
            variable_style, _DEFAULT_VARIABLE_STYLE, 'variable_style'
        )
        self.function_style = _resolve_style(
            function_style, _DEFAULT_FUNCTION_STYLE, 'function_style'
        )
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name
        self._times = {}
        if time_summary is not None:
            self.colorize_by_time(time_summary)

    def colorize_by_time(self, timer_hook_or_summary):
        """Colours function nodes by their measured time per call.

        Each function node whose ``_impl_name`` appears in the summary is
        filled on a white-to-red scale: the slowest function of the graph
        in pure red (``#FF0000``), a function that took no time in white.
        The time is the mean elapsed time of one call (forward and
        backward measurements together), and is added to the node's label.
        Functions that were not measured keep ``function_style``.

        Args:
            timer_hook_or_summary: A
                :class:`~chainerlite.function_hooks.TimerHook`, or the dict
                its ``summary()`` returns (function name to a dict with
                ``'elapsed_time'`` and ``'occurrence'``). None removes the
                colours.

        Returns:
            ComputationalGraph: This graph.

        Raises:
            TypeError: If the argument is neither a hook nor a dict.
        """
        if timer_hook_or_summary is None:
            self._times = {}
        else:
            self._times = _mean_times(timer_hook_or_summary)
        return self

    def _variable_label(self, node):
        if self.show_name and node.name is not None:
            return '%s: %s' % (node.name, node.label)
        return node.label

    def _timed_function(self, node, seconds, slowest):
        attributes = {'label': node.label, 'shape': 'box'}
        attributes.update(self.function_style)
        attributes['label'] = '%s\n%s' % (attributes['label'], _format_seconds(seconds))
        attributes['style'] = 'filled'
        attributes['fillcolor'] = _white_to_red(
            seconds / slowest if slowest > 0 else 0.0
        )
        return '%d [%s];' % (id(node), _attribute_text(attributes))

    def _dot_nodes(self, nodes):
        # The style part of a node's attributes is formatted once per kind.
        templates = {}
        for kind, shape, style, label_of in (
            (variable.VariableNode, 'oval', self.variable_style, self._variable_label),
            (function_node.FunctionNode, 'box', self.function_style, _label_of),
        ):
            attributes = {'label': None, 'shape': shape}
            attributes.update(style)
            fixed_label = attributes.pop('label')
            templates[kind] = (
                _attribute_text(attributes),
                attributes.get('shape') == 'record',
                fixed_label,
                label_of,
            )
        times = self._times
        slowest = max(
            (
                times.get(node._impl_name, 0.0)
                for node in nodes
                if isinstance(node, function_node.FunctionNode)
            ),
            default=0.0,
        )
        for node in nodes:
            is_variable = isinstance(node, variable.VariableNode)
            if not is_variable and times:
                seconds = times.get(node._impl_name)
                if seconds is not None:
                    yield self._timed_function(node, seconds, slowest)
                    continue
            rest, record, fixed_label, label_of = templates[
                variable.VariableNode if is_variable else function_node.FunctionNode
            ]
            label = label_of(node) if fixed_label is None else fixed_label
            yield '%d [label=%s,%s];' % (id(node), _quote(label, record), rest)

    def _function_edges(self):
        # Edges between functions: the creator of each input variable.
        in_graph = {id(node) for node in self.nodes}
        edges = []
        for head, tail in self.edges:
            if isinstance(head, variable.VariableNode):
                creator = head.creator_node
                if creator is not None and id(creator) in in_graph:
                    edges.append((creator, tail))
        return edges

    def _to_dot(self):
        nodes = self.nodes
        edges = self.edges
        if self.remove_variable:
            nodes = [
                node for node in nodes if not isinstance(node, variable.VariableNode)
            ]
            edges = self._function_edges()
        # one line, statements back to back, as Chainer writes it
        parts = ['digraph graphname{rankdir=%s;' % self.rankdir]
        parts.extend(self._dot_nodes(nodes))
        drawn = set()
        for head, tail in edges:
            edge = '%d -> %d;' % (id(head), id(tail))
            if edge not in drawn:
                drawn.add(edge)
                parts.append(edge)
        parts.append('}')
        return ''.join(parts)

    def dump(self, format='dot'):
        """Returns the graph as text.

        Args:
            format (str): Language of the text; only ``'dot'`` is supported.

        Returns:
            str: The graph in the DOT language.

        Raises:
            NotImplementedError: If ``format`` is not ``'dot'``.
        """
        if format != 'dot':
            raise NotImplementedError('Currently, only dot format is supported.')
        return self._to_dot()

    def render(self, path, format=None):
        """Draws the graph into an image file with Graphviz's ``dot``.

        Args:
            path (str or os.PathLike): File to write.
            format (str): Output format of ``dot`` (``'svg'``, ``'png'``,
                ``'pdf'``, ...). None takes it from the extension of
                ``path``.

        Returns:
            str: ``path``.

        Raises:
            ValueError: If ``format`` is None and ``path`` has no extension.
            RuntimeError: If the ``dot`` command is not installed, or fails.
        """
        path = os.fspath(path)
        if format is None:
            format = os.path.splitext(path)[1][1:].lower()
            if not format:
                raise ValueError(
                    'cannot tell the image format of %r: give '
                    'format= or a file extension' % path
                )
        dot = shutil.which('dot')
        if dot is None:
            raise RuntimeError(
                "Graphviz's 'dot' command was not found on PATH; install "
                'Graphviz (e.g. apt-get install graphviz) or write dump() '
                'to a .dot file instead'
            )
        result = subprocess.run(
            [dot, '-T' + format, '-o', path],
            input=self.dump().encode(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        if result.returncode != 0:
            raise RuntimeError(
                'dot -T%s failed (exit status %d): %s'
                % (
                    format,
                    result.returncode,
                    result.stderr.decode(errors='replace').strip(),
                )
            )
        return path


def _as_start_nodes(outputs):
    kinds = (variable.Variable, variable.VariableNode, function_node.FunctionNode)
    if isinstance(outputs, kinds):
        outputs = [outputs]
    starts = []
    for output in outputs:
        if not isinstance(output, kinds):
            raise TypeError(
                'outputs must be Variables, VariableNodes or '
                'FunctionNodes, not %s' % type(output).__name__
            )
        starts.append(output.node if isinstance(output, variable.Variable) else output)
    return starts


def _walk_backward(starts):
    # Iterative depth-first walk: deep graphs cannot hit the recursion limit.
    nodes, edges = [], []
    seen_nodes, seen_edges = set(), set()
    stack = []

    def visit(node):
        if id(node) not in seen_nodes:
            seen_nodes.add(id(node))
            nodes.append(node)
            stack.append(node)

    for start in starts:
        visit(start)
    while stack:
        node = stack.pop()
        if isinstance(node, variable.VariableNode):
            creator = node.creator_node
            heads = () if creator is None else (creator,)
        else:
            heads = node.inputs or ()
        for head in heads:
            key = (id(head), id(node))
            if key not in seen_edges:
                seen_edges.add(key)
                edges.append((head, node))
                visit(head)
    return nodes, edges


def build_computational_graph(
    outputs,
    remove_split=True,
    variable_style='default',
    function_style='default',
    rankdir='TB',
    remove_variable=False,
    show_name=True,
    time_summary=None,
):
    """Builds the graph of the nodes backward-reachable from ``outputs``.

    The walk goes from each output to its creator, from a function to its
    input variable nodes, and so on; it stops at leaves and at variables
    whose graph was cut by ``unchain`` or ``unchain_backward``. It uses no
    recursion, so graphs of any depth can be built.

    Args:
        outputs (Variable, VariableNode, FunctionNode or list of them): The
            node(s) the graph is built from.
        remove_split (bool): Must be True; kept for backward compatibility.
        variable_style (dict, None or 'default'): DOT attributes of variable
            nodes (``'shape'``, ``'color'``, ``'fillcolor'``, ``'style'``,
            ...). See :class:`ComputationalGraph` for the default.
        function_style (dict, None or 'default'): DOT attributes of function
            nodes.
        rankdir (str): Layout direction: ``'TB'``, ``'BT'``, ``'LR'`` or
            ``'RL'``.
        remove_variable (bool): If True, only function nodes are drawn.
        show_name (bool): If True, variable names are added to the labels.
        time_summary: A :class:`~chainerlite.function_hooks.TimerHook` or
            its ``summary()``; function nodes are then coloured by time (see
            :meth:`ComputationalGraph.colorize_by_time`).

    Returns:
        ComputationalGraph: The graph; ``nodes`` lists variable and function
        nodes in the order they were found, ``edges`` the pairs
        ``(input variable, function)`` and ``(function, output variable)``.

    Raises:
        ValueError: If ``remove_split`` is False or ``rankdir`` is invalid.
        TypeError: If an output is not a Variable, VariableNode or
            FunctionNode.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> from chainerlite import computational_graph as c
        >>> x = chainer.Variable(np.ones((2, 3), np.float32), name='x')
        >>> y = F.sum(F.exp(x))
        >>> g = c.build_computational_graph(y)
        >>> sorted(node.label for node in g.nodes)
        ['(2, 3), float32', '(2, 3), float32', 'Sum', 'exp', 'float32']
        >>> len(g.edges)
        4
        >>> g.dump()[:29]
        'digraph graphname{rankdir=TB;'
    """
    if not remove_split:
        raise ValueError('remove_split=False is not supported anymore')
    nodes, edges = _walk_backward(_as_start_nodes(outputs))
    return ComputationalGraph(
        nodes,
        edges,
        variable_style,
        function_style,
        rankdir,
        remove_variable,
        show_name,
        time_summary,
    )
