"""Tags that model code puts on the nodes it applies, for F.forget's keep."""

import contextlib
import threading


class _Tags(threading.local):
    def __init__(self):
        self.active = frozenset()


_tags = _Tags()


def current_tags():
    """The tags in effect in this thread.

    Returns:
        frozenset of str: The names of the :func:`forget_tag` blocks this
        thread is in (empty outside all of them).
    """
    return _tags.active


@contextlib.contextmanager
def forget_tag(name):
    """Tags the nodes applied in the block, for the ``keep`` of ``F.forget``.

    ``F.forget(func, *xs, keep='name')`` keeps the outputs of the nodes that
    ``func`` applies inside ``with forget_tag('name'):`` and recomputes the
    others. Blocks nest: a node carries the names of all the blocks it is
    applied in. Outside a ``forget`` that has a ``keep``, a tag has no
    effect, and costs nothing per node.

    Args:
        name (str): The tag.
    """
    if not isinstance(name, str):
        raise TypeError(
            'forget_tag: name must be a str, not {}'.format(type(name).__name__)
        )
    outer = _tags.active
    _tags.active = outer | {name}
    try:
        yield
    finally:
        _tags.active = outer
