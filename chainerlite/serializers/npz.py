"""Saving and loading object states in NumPy ``.npz`` files."""

import numpy

from chainerlite import serializer as serializer_module
from chainerlite.backends import cuda


class DictionarySerializer(serializer_module.Serializer):
    """Serializer that stores values in a flat dictionary of arrays.

    A value saved under ``key`` by the serializer at ``path`` is stored as
    ``target[path + key]`` (a NumPy array; ``None`` becomes a 0-dimensional
    object array). ``serializer['child']`` is at ``path + 'child/'``.

    Args:
        target (dict): The dictionary to fill; a new one when ``None``.
        path (str): Prefix of the keys, ending with ``'/'`` unless empty.

    Attributes:
        target (dict): The dictionary of saved arrays.
        path (str): The key prefix of this serializer.

    .. admonition:: Example

        >>> import chainerlite.links as L
        >>> from chainerlite import serializers
        >>> s = serializers.DictionarySerializer()
        >>> s.save(L.Linear(3, 2))
        >>> sorted(s.target)
        ['W', 'b']

    """

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        key = key.strip('/')
        return DictionarySerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        key = key.lstrip('/')
        self.target[self.path + key] = numpy.asarray(cuda.to_cpu(value))
        return value


def _check_ignore_names(ignore_names):
    if ignore_names is None:
        return []
    if isinstance(ignore_names, str) or callable(ignore_names):
        ignore_names = [ignore_names]
    for name in ignore_names:
        if not (isinstance(name, str) or callable(name)):
            raise ValueError(
                'ignore_names needs to be a callable, string or list of '
                'them, got {!r}'.format(name))
    return list(ignore_names)


class NpzDeserializer(serializer_module.Deserializer):
    """Deserializer that loads values from an npz file (or a dictionary).

    Keys are built as in :class:`DictionarySerializer`. Arrays are loaded
    in place; other values (Python or NumPy scalars) are converted to the
    type of the current value; a stored ``None`` loads as ``None``.

    Args:
        npz: An object returned by :func:`numpy.load` on an npz file, or a
            dictionary of arrays.
        path (str): Prefix of the keys.
        strict (bool): If ``True``, a key missing from ``npz`` raises
            ``KeyError``; otherwise the current value is kept.
        ignore_names (str, callable or list of them): Keys (with the
            prefix) to skip: a string is compared with the key, a callable
            is given the key and returns ``True`` to skip it.

    Raises:
        ValueError: If ``ignore_names`` holds something else than strings
            and callables.

    """

    def __init__(self, npz, path='', strict=True, ignore_names=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = _check_ignore_names(ignore_names)

    def __getitem__(self, key):
        key = key.strip('/')
        return NpzDeserializer(self.npz, self.path + key + '/',
                               strict=self.strict,
                               ignore_names=self.ignore_names)

    def __call__(self, key, value):
        """Loads the value stored under ``key``.

        Args:
            key (str): Name of the value.
            value: The current value: an array (filled in place), a
                scalar (its type is kept), or ``None`` (the loaded array is
                returned).

        Returns:
            The loaded value (``value`` itself for arrays).

        Raises:
            KeyError: If ``strict`` and the key is not in the file.
            ValueError: If the stored array and ``value`` differ in shape.
            TypeError: If a stored number cannot be cast to the type of a
                scalar ``value``.

        """
        key = self.path + key.lstrip('/')
        if self._ignored(key):
            return value
        if key not in self.npz:
            if self.strict:
                raise KeyError(
                    'NpzDeserializer: key {!r} is not in the file'.format(
                        key))
            return value
        dataset = numpy.asarray(self.npz[key])
        if dataset.dtype == object and dataset[()] is None:
            return None
        if value is None:
            return dataset
        if isinstance(value, (numpy.ndarray, cuda.ndarray)):
            if value.shape != dataset.shape:
                raise ValueError(
                    'NpzDeserializer: shape mismatch for key {!r}: the '
                    'file has {} but the target has {}'.format(
                        key, dataset.shape, value.shape))
            if isinstance(value, numpy.ndarray):
                numpy.copyto(value, dataset)
            else:
                value.set(numpy.asarray(dataset, dtype=value.dtype))
            return value
        return _cast_scalar(key, dataset, value)

    def _ignored(self, key):
        for name in self.ignore_names:
            if name == key if isinstance(name, str) else name(key):
                return True
        return False


def _cast_scalar(key, dataset, value):
    value_type = type(value)
    kind = dataset.dtype.type
    if (issubclass(kind, numpy.number)
            and not (issubclass(kind, numpy.integer)
                     and issubclass(value_type, int))
            and not numpy.can_cast(dataset.dtype, value_type)):
        raise TypeError(
            'NpzDeserializer: cannot load {} data of key {!r} into a value '
            'of type {}'.format(dataset.dtype, key, value_type.__name__))
    return value_type(dataset)


def save_npz(file, obj, compression=True):
    """Saves the state of an object (a link, an optimizer) to an npz file.

    Args:
        file (str or file-like): Path or binary file to write.
        obj: The object to save (see
            :meth:`~chainerlite.serializer.Serializer.save`).
        compression (bool): Whether to compress the file
            (:func:`numpy.savez_compressed`) or not (:func:`numpy.savez`).

    .. admonition:: Example

        >>> import io
        >>> import chainerlite.links as L
        >>> from chainerlite import serializers
        >>> src, dst, buf = L.Linear(3, 2), L.Linear(3, 2), io.BytesIO()
        >>> serializers.save_npz(buf, src)
        >>> _ = buf.seek(0)
        >>> serializers.load_npz(buf, dst)
        >>> bool((src.W.array == dst.W.array).all())
        True

    """
    if isinstance(file, str):
        with open(file, 'wb') as f:
            save_npz(f, obj, compression)
        return
    s = DictionarySerializer()
    s.save(obj)
    if compression:
        numpy.savez_compressed(file, **s.target)
    else:
        numpy.savez(file, **s.target)


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Loads the state of an object from an npz file.

    Args:
        file (str or file-like): Path or binary file to read.
        obj: The object to load into (see
            :meth:`~chainerlite.serializer.Deserializer.load`).
        path (str): Prefix of the keys of ``obj`` in the file, e.g.
            ``'updater/model:main/'`` inside a trainer snapshot.
        strict (bool): Whether a key missing from the file is an error.
        ignore_names (str, callable or list of them): Keys to skip (see
            :class:`NpzDeserializer`).

    """
    with numpy.load(file, allow_pickle=True) as f:
        d = NpzDeserializer(f, path=path, strict=strict,
                            ignore_names=ignore_names)
        d.load(obj)
