"""Trainer extensions: the :class:`Extension` base and :func:`make_extension`.

An extension is a callable ``extension(trainer)`` that the trainer invokes
when its trigger fires. Its optional attributes tell the trainer how to run
it: ``trigger`` (when), ``priority`` (in which order among the extensions
fired at the same iteration: higher first), ``default_name``, and the
methods ``initialize(trainer)``, ``on_error(trainer, exc, tb)``,
``finalize()`` and ``serialize(serializer)``.
"""

from chainerlite.utils import argument

#: Priority of extensions that write to the observation (run first).
PRIORITY_WRITER = 300
#: Priority of extensions that edit the observation.
PRIORITY_EDITOR = 200
#: Priority of extensions that only read the observation (run last).
PRIORITY_READER = 100


class Extension(object):
    """Base class of trainer extensions.

    Subclasses implement :meth:`__call__`, and may override the class
    attributes ``trigger`` (default ``(1, 'iteration')``) and ``priority``
    (default :data:`PRIORITY_READER`).

    Attributes:
        trigger: Default trigger of the extension.
        priority (int): Default priority of the extension.
        name (str): The name the trainer registered the extension under
            (``None`` until it is registered).

    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        """Name used when none is given to ``Trainer.extend``: the class
        name."""
        return type(self).__name__

    def __call__(self, trainer):
        """Runs the extension.

        Args:
            trainer (~chainerlite.training.Trainer): The trainer.

        """
        raise NotImplementedError(
            '{} must implement __call__'.format(type(self).__name__)
        )

    def initialize(self, trainer):
        """Called once before the training loop starts (also on resume)."""

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raised ``exc`` (traceback ``tb``)."""

    def finalize(self):
        """Called once after the training loop, even when it failed."""

    def serialize(self, serializer):
        """Saves or loads the state of the extension."""


def make_extension(
    trigger=None,
    default_name=None,
    priority=None,
    finalizer=None,
    initializer=None,
    on_error=None,
    **kwargs,
):
    """Returns a decorator that turns a function into an extension.

    The decorated function gets the attributes the trainer reads:
    ``trigger``, ``default_name`` (the function's name by default),
    ``priority``, ``finalize``, ``initialize`` and ``on_error``.

    Args:
        trigger: Default trigger (``(1, 'iteration')`` when ``None``).
        default_name (str): Default name of the extension.
        priority (int): Default priority (:data:`PRIORITY_READER` when
            ``None``).
        finalizer (callable): Called with no argument after training.
        initializer (callable): Called with the trainer before training.
        on_error (callable): Called with ``(trainer, exc, tb)`` when the
            training loop raises.

    Raises:
        ValueError: If the removed argument ``invoke_before_training`` is
            given.
        TypeError: If another unknown keyword argument is given.

    """
    argument.parse_kwargs(
        kwargs,
        invoke_before_training='make_extension: '
        'invoke_before_training was removed; give an initializer instead',
    )
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.initialize = initializer
        ext.on_error = on_error
        return ext

    return decorator
