"""What ``F.forget`` keeps: the ``keep`` argument made a predicate on sites."""

from chainerlite import function_node


class Site(object):
    """A node applied by a forgotten function, as a ``keep`` policy sees it.

    Attributes:
        index (int): Its position among the nodes the function applies
            itself (0 for the first; nodes applied inside another node's
            forward, such as a nested ``F.forget``'s, are not counted). The
            same node has the same index in every call.
        node (FunctionNode): The node, after its forward ran.
        tags (frozenset of str): The :func:`~chainerlite.forget_tag` names in
            effect when it was applied.
        outputs (tuple of ndarray): The arrays its forward returned, which
            are kept when the policy says so.
    """

    __slots__ = ('index', 'node', 'tags', 'outputs')

    def __init__(self, index, node, tags, outputs):
        self.index = index
        self.node = node
        self.tags = tags
        self.outputs = outputs

    def __repr__(self):
        return '<Site {} {}{}>'.format(
            self.index,
            type(self.node).__name__,
            ' tags={}'.format(sorted(self.tags)) if self.tags else '',
        )


def _is_node_class(obj):
    return isinstance(obj, type) and issubclass(obj, function_node.FunctionNode)


def _matcher(items):
    classes = tuple(item for item in items if _is_node_class(item))
    names = frozenset(item for item in items if isinstance(item, str))
    for item in items:
        if not (_is_node_class(item) or isinstance(item, str)):
            hint = ''
            if callable(item):
                hint = ' ({!r} is a function: give the node class it applies)'.format(
                    item
                )
            raise TypeError(
                'forget: keep takes FunctionNode classes and tag names, not '
                '{}{}'.format(type(item).__name__, hint)
            )

    def keep(site):
        return isinstance(site.node, classes) or not names.isdisjoint(site.tags)

    return keep


def as_policy(keep):
    """The ``keep`` argument of ``F.forget`` as a predicate on sites.

    Args:
        keep: None (keep nothing), a FunctionNode subclass, a tag name, a
            tuple, list or set of those, or a callable taking a
            :class:`Site` and returning whether to keep its outputs.

    Returns:
        callable or None: ``(site) -> bool``, or None for ``keep=None``.
    """
    if keep is None:
        return None
    if _is_node_class(keep) or isinstance(keep, str):
        return _matcher((keep,))
    if isinstance(keep, (tuple, list, set, frozenset)):
        return _matcher(tuple(keep))
    if callable(keep) and not isinstance(keep, type):
        return keep
    raise TypeError(
        'forget: keep must be None, a FunctionNode class, a tag name, a '
        'tuple of those or a callable taking a Site, not {}'.format(type(keep).__name__)
    )
