"""Saving and loading object states in NumPy ``.npz`` files."""

from __future__ import annotations

import copy
import typing

import numpy
from numpy.lib import npyio

from chainerlite import serializer as serializer_module
from chainerlite.backends import cuda
from chainerlite.serializers import _npz_cast
from chainerlite.serializers import _npz_reader
from chainerlite.utils import _chainer_errors

if typing.TYPE_CHECKING:
    import os

    _File = typing.Union[str, os.PathLike[str], typing.IO[bytes]]


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
    if not isinstance(ignore_names, (list, tuple)):
        ignore_names = [ignore_names]
    for name in ignore_names:
        if not (isinstance(name, str) or callable(name)):
            raise ValueError(
                'ignore_names needs to be a callable, string or list of '
                'them, got {!r}'.format(name)
            )
    return list(ignore_names)


class NpzDeserializer(serializer_module.Deserializer):
    """Deserializer that loads values from an npz file (or a dictionary).

    Keys are built as in :class:`DictionarySerializer`. Arrays are loaded
    in place; other values (Python or NumPy scalars) are converted to the
    type of the current value; a stored ``None`` loads as ``None``. The file
    is not trusted: nothing in it is unpickled, an array's header is checked
    against the target before its data is read, and a value that the
    target's dtype cannot hold is an error.

    :meth:`load` checks every value the object asks for before it assigns
    any, so that an error leaves the object as it was (see :func:`load_npz`
    for the one exception).

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
        self._source = _npz_reader.open_source(npz)
        # While load() runs: the checked values by key, as (target, value)
        # pairs, and whether this is the checking walk (which assigns
        # nothing) or the assigning one.
        self._checked = None
        self._dry_run = False

    def __getitem__(self, key):
        child = copy.copy(self)
        child.path = self.path + key.strip('/') + '/'
        return child

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
            ValueError: If the stored array and ``value`` differ in shape,
                if a stored value is out of the range of ``value``'s dtype,
                or if the stored data is invalid (an object array,
                truncated or corrupt data).
            TypeError: If the stored dtype cannot be cast to the dtype or
                type of ``value``.

        """
        key = self.path + key.lstrip('/')
        if not self._stored(key):
            return value
        loaded = self._checked_value(key, value)
        if not self._dry_run:
            return _assign(loaded, value)
        if value is None and loaded is not None:
            self._check_siblings()
        return value

    def _peek(self, key, value):
        # What __call__ would return in the assigning walk, in either walk,
        # assigning nothing (see serializers._checks.peek).
        key = self.path + key.lstrip('/')
        if not self._stored(key):
            return value
        return self._checked_value(key, value)

    def _stored(self, key):
        # Whether the value of the full key is loaded (not ignored, in the
        # file); a missing key is an error when strict.
        if self._ignored(key):
            return False
        if key not in self._source:
            if self.strict:
                raise getattr(self._source, 'missing_error', KeyError)(
                    '{}: key {!r} is not in the file'.format(self._source.label, key)
                )
            return False
        return True

    def load(self, obj):
        """Loads the state of ``obj``, checking every value first.

        An object whose ``serialize`` is chainerlite's own (a link, an
        optimizer, a trainer...) is walked twice: once to read and check
        each value it asks for, assigning nothing, and once to assign the
        checked values. Any other object's ``serialize`` is called once, as
        Chainer does (its side effects are unknown, so it is not walked for
        a check).

        Args:
            obj: An object with a ``serialize`` method, or a Link.

        """
        method = getattr(type(obj), 'serialize', None)
        if not getattr(method, '__module__', '').startswith('chainerlite.'):
            serializer_module.serialize_object(obj, self)
            return
        checker = copy.copy(self)
        checker._checked = {}
        checker._dry_run = True
        serializer_module.serialize_object(obj, checker)
        loader = copy.copy(checker)
        loader._dry_run = False
        serializer_module.serialize_object(obj, loader)

    def _checked_value(self, key, value):
        # A value checked by the checking walk is reused by the assigning
        # walk when the target is the same object.
        entry = None if self._checked is None else self._checked.get(key)
        if entry is not None and entry[0] is value:
            return entry[1]
        loaded = _npz_cast.checked_value(self._source, key, value)
        if self._checked is not None:
            self._checked[key] = value, loaded
        return loaded

    def _check_siblings(self):
        # The checking walk hands back None where the assigning walk will
        # hand back an array, and an object may then ask for more values
        # (an optimizer's new state): check the data at this level now.
        for key in list(self._source.keys()):
            name = key[len(self.path) :]
            if (
                key.startswith(self.path)
                and '/' not in name
                and key not in self._checked
                and not self._ignored(key)
            ):
                self._checked_value(key, None)

    def _ignored(self, key):
        for name in self.ignore_names:
            if name == key if isinstance(name, str) else name(key):
                return True
        return False


def _assign(loaded, value):
    if loaded is None or value is None:
        return loaded
    if isinstance(value, numpy.ndarray):
        numpy.copyto(value, loaded)
    elif isinstance(value, cuda.ndarray):
        value.set(loaded)
    else:
        return loaded
    return value


def serialize(obj):
    """Returns the state of an object (a link, an optimizer) as a dict.

    Args:
        obj: The object (see
            :meth:`~chainerlite.serializer.Serializer.save`).

    Returns:
        dict: Maps each key (``'l1/W'``, ...) to a NumPy array, as
        :func:`save_npz` writes them.

    .. admonition:: Example

        >>> import chainerlite.links as L
        >>> from chainerlite.serializers import npz
        >>> sorted(npz.serialize(L.Linear(3, 2)))
        ['W', 'b']

    """
    s = DictionarySerializer()
    s.save(obj)
    return s.target


def save_npz(file: _File, obj: typing.Any, compression: bool = True) -> None:
    """Saves the state of an object (a link, an optimizer) to an npz file.

    Args:
        file (str or file-like): Path or binary file to write.
        obj: The object to save (see
            :meth:`~chainerlite.serializer.Serializer.save`); a ``dict``
            of arrays is written as it is, its keys naming the arrays.
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
    target = dict(obj) if isinstance(obj, dict) else serialize(obj)
    if compression:
        numpy.savez_compressed(file, **target)
    else:
        numpy.savez(file, **target)


def load_npz(
    file: _File,
    obj: typing.Any,
    path: str = '',
    strict: bool = True,
    ignore_names: typing.Any = None,
) -> None:
    """Loads the state of an object from an npz file.

    The file is not trusted: it is opened with ``allow_pickle=False`` and
    nothing in it is unpickled (a ``None`` saved by :func:`save_npz` is
    recognised without unpickling), a stored array whose header disagrees
    with the target's shape or dtype is rejected before its data is read,
    and a value out of the range of the target's dtype is an error.

    For chainerlite's own objects (links, optimizers, trainers...), every
    value is checked before any is assigned, so that an error leaves
    ``obj`` as it was (an optimizer that has never updated asks for each
    of its state entries by name, so a missing one is found by the check
    too).

    Args:
        file (str or file-like): Path or binary file to read.
        obj: The object to load into (see
            :meth:`~chainerlite.serializer.Deserializer.load`).
        path (str): Prefix of the keys of ``obj`` in the file, e.g.
            ``'updater/model:main/'`` inside a trainer snapshot.
        strict (bool): Whether a key missing from the file is an error.
        ignore_names (str, callable or list of them): Keys to skip (see
            :class:`NpzDeserializer`).

    Raises:
        ValueError: If the file is a single ``.npy`` array instead of an npz
            archive, or neither (also an ``UnpicklingError`` then, as
            Chainer tries it as a pickle), or a stored value is invalid (see
            :class:`NpzDeserializer`).
        KeyError: If ``strict`` and a key is missing.
        TypeError: If a stored dtype cannot be cast to the target's.

    """
    try:
        npz = numpy.load(file, allow_pickle=False)
    except ValueError as e:
        if 'pickle' not in str(e):  # (NumPy's word for a file it would unpickle)
            raise
        raise _chainer_errors.NotAnArchiveError(
            'load_npz: the file is neither an npz archive nor an array, and '
            'is not unpickled ({})'.format(e)
        ) from e
    if not isinstance(npz, npyio.NpzFile):
        # a TypeError too, as Chainer's indexing of the array by a key raises
        raise _chainer_errors.TypedValueError(
            'load_npz: the file holds a single array, not an npz archive'
        )
    with npz:
        d = NpzDeserializer(npz, path=path, strict=strict, ignore_names=ignore_names)
        d.load(obj)
