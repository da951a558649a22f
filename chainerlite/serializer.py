"""Base classes of the serializers, which save and load object states.

An object takes part in serialization through a ``serialize(serializer)``
method that calls ``serializer(key, value)`` for each value it saves or
loads (getting back the loaded value) and hands its children
``serializer[name]``, a serializer one level down the key hierarchy. Links
are walked by :func:`serialize_link` when they have no such method.
"""

from chainerlite import link as link_module
from chainerlite.utils import _chainer_errors


class AbstractSerializer:
    """Base class of serializers and deserializers."""

    def __getitem__(self, key):
        """Returns a child serializer whose keys are prefixed by ``key``.

        Args:
            key (str): Name of the child.

        """
        raise NotImplementedError()

    def __call__(self, key, value):
        """Saves or loads the value stored under ``key``.

        Args:
            key (str): Name of the value.
            value: The value to save; when loading, the current value
                (arrays are filled in place).

        Returns:
            The value given (saving) or the loaded value (loading).

        """
        raise NotImplementedError()


class Serializer(AbstractSerializer):
    """Base class of the serializers, which save values."""

    def save(self, obj):
        """Saves the state of ``obj`` (a link, an optimizer, ...).

        Args:
            obj: An object with a ``serialize`` method, or a Link.

        """
        serialize_object(obj, self)


class Deserializer(AbstractSerializer):
    """Base class of the deserializers, which load values."""

    def load(self, obj):
        """Loads the state of ``obj`` (a link, an optimizer, ...).

        Args:
            obj: An object with a ``serialize`` method, or a Link.

        """
        serialize_object(obj, self)


def serialize_object(obj, serializer):
    """Calls ``obj.serialize(serializer)``, or walks a Link without one.

    Args:
        obj: The object to save or load.
        serializer (AbstractSerializer): The (de)serializer.

    Raises:
        TypeError: If ``obj`` has no ``serialize`` method and is not a
            Link (an ``AttributeError`` too, as Chainer 7.8.1's call of it).

    """
    method = getattr(obj, 'serialize', None)
    if method is not None:
        method(serializer)
    elif isinstance(obj, link_module.Link):
        serialize_link(obj, serializer)
    else:
        raise _chainer_errors.AttributeTypeError(
            'cannot serialize an object of type {}: it has no serialize method'.format(
                type(obj).__name__
            )
        )


def serialize_link(link, serializer):
    """Saves or loads a link's parameters, persistent values and children.

    Each parameter and persistent value is stored under its attribute name,
    and each child link under ``serializer[child_name]``, so that the key
    of the parameter ``W`` of the child ``l1`` is ``'l1/W'`` (and ``'0/W'``
    for the first child of a ChainList). An uninitialized parameter is
    initialized with the shape of the loaded array.

    Args:
        link (~chainerlite.Link): The link.
        serializer (AbstractSerializer): The (de)serializer.

    """
    d = link.__dict__
    for name in sorted(link._params):
        param = d[name]
        data = serializer(name, param.array)
        if param.array is None and data is not None:
            param.initialize(data.shape)
            param.xp.copyto(param.array, data)
    for name in sorted(link._persistent):
        d[name] = serializer(name, d[name])
    for name, child in link._named_children():
        serialize_object(child, serializer[name])
