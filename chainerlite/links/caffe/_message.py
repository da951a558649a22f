"""Schema-driven protobuf (proto2) messages, without the protobuf package.

A message class lists its fields; instances behave like the generated
classes of the protobuf package for the part of their API that Caffe model
code uses: attribute access with defaults, ``HasField``, repeated fields
with ``append``/``extend``/``add``, ``SerializeToString``,
``ParseFromString``/``FromString``, and enum values as class attributes.
Numeric repeated fields hold NumPy arrays, so the tens of millions of
weights of a real model decode in one ``numpy.frombuffer`` call.
"""

import sys

import numpy

from chainerlite.links.caffe import _wire

_MAX_DEPTH = 64

# kind -> (wire type, NumPy dtype of a repeated field, or None)
_KINDS = {
    'int32': (_wire.VARINT, numpy.int64),
    'int64': (_wire.VARINT, numpy.int64),
    'uint32': (_wire.VARINT, numpy.uint64),
    'uint64': (_wire.VARINT, numpy.uint64),
    'enum': (_wire.VARINT, numpy.int64),
    'bool': (_wire.VARINT, numpy.bool_),
    'float': (_wire.FIXED32, numpy.float32),
    'double': (_wire.FIXED64, numpy.float64),
    'string': (_wire.LENGTH, None),
    'bytes': (_wire.LENGTH, None),
    'message': (_wire.LENGTH, None),
}

_INT_RANGES = {
    'int32': (-(1 << 31), (1 << 31) - 1),
    'int64': (-(1 << 63), (1 << 63) - 1),
    'uint32': (0, (1 << 32) - 1),
    'uint64': (0, (1 << 64) - 1),
    'enum': (-(1 << 31), (1 << 31) - 1),
}


class Field:
    """One field of a message.

    Args:
        name (str): Attribute name.
        number (int): Field number on the wire.
        kind (str): One of ``int32``, ``int64``, ``uint32``, ``uint64``,
            ``enum``, ``bool``, ``float``, ``double``, ``string``, ``bytes``,
            ``message``.
        default: Value of an unset optional field.
        repeated (bool): Whether the field is repeated.
        packed (bool): Whether a repeated number is written packed.
        message (str): Class name of a sub-message, in the schema's module.
        enum (dict): Names of the values of an enum field (for text output).

    """

    def __init__(
        self,
        name,
        number,
        kind,
        default=None,
        repeated=False,
        packed=False,
        message=None,
        enum=None,
    ):
        if kind not in _KINDS:
            raise ValueError('unknown field kind {!r}'.format(kind))
        self.name = name
        self.number = number
        self.kind = kind
        self.wire_type, self.dtype = _KINDS[kind]
        if default is None and not repeated and kind != 'message':
            default = {'string': '', 'bytes': b'', 'bool': False}.get(kind, 0)
            if kind in ('float', 'double'):
                default = 0.0
        self.default = default
        self.repeated = repeated
        self.packed = packed
        self.message = message
        self.enum = enum or {}

    def coerce(self, value):
        """Checks and converts a value assigned to this field."""
        kind = self.kind
        if kind in _INT_RANGES:
            if isinstance(value, float) or not hasattr(value, '__index__'):
                raise TypeError(
                    '{!r} has type {}, but expected one of: int'.format(
                        value, type(value).__name__
                    )
                )
            value = int(value)
            low, high = _INT_RANGES[kind]
            if not low <= value <= high:
                raise ValueError(
                    'value {} out of range for {} field {}'.format(
                        value, kind, self.name
                    )
                )
            return value
        if kind == 'bool':
            return bool(value)
        if kind in ('float', 'double'):
            return float(value)
        if kind == 'string':
            if isinstance(value, bytes):
                value = value.decode('utf-8')
            if not isinstance(value, str):
                raise TypeError(
                    '{!r} is not a str for field {}'.format(value, self.name)
                )
            return value
        if kind == 'bytes':
            return bytes(value)
        raise AttributeError('cannot assign to the message field {}'.format(self.name))

    def message_class(self, owner):
        return getattr(sys.modules[owner.__module__], self.message)

    def decode_scalar(self, wire_type, value):
        if wire_type != self.wire_type:
            raise _wire.DecodeError(
                'field {} ({}) has wire type {}'.format(self.name, self.kind, wire_type)
            )
        kind = self.kind
        if kind in ('int32', 'enum'):
            return _wire.to_signed(value, 32)
        if kind == 'int64':
            return _wire.to_signed(value, 64)
        if kind == 'uint32':
            return value & 0xFFFFFFFF
        if kind == 'uint64':
            return value
        if kind == 'bool':
            return value != 0
        if kind == 'float':
            return _wire.FLOAT.unpack(value)[0]
        return _wire.DOUBLE.unpack(value)[0]

    def encode_scalar(self, value):
        kind = self.kind
        if self.wire_type == _wire.VARINT:
            return _wire.encode_varint(int(value))
        if kind == 'float':
            return _wire.FLOAT.pack(value)
        return _wire.DOUBLE.pack(value)


class RepeatedScalarContainer:
    """A repeated number or string field (``append``, ``extend``, indexing)."""

    def __init__(self, field):
        self._field = field
        self._chunks = []  # NumPy arrays (numbers only)
        self._tail = []  # values appended one by one

    def append(self, value):
        self._tail.append(self._field.coerce(value))

    def extend(self, values):
        for value in values:
            self.append(value)

    def _add_array(self, array):
        self._flush()
        self._chunks.append(array)

    def _flush(self):
        if self._tail and self._field.dtype is not None:
            self._chunks.append(numpy.array(self._tail, dtype=self._field.dtype))
            self._tail = []

    def array(self):
        """Returns the values as one NumPy array (numeric fields)."""
        self._flush()
        if len(self._chunks) != 1:
            if self._chunks:
                self._chunks = [numpy.concatenate(self._chunks)]
            else:
                return numpy.empty(0, dtype=self._field.dtype)
        return self._chunks[0]

    def _values(self):
        if self._field.dtype is None:
            return self._tail
        return self.array().tolist()

    def __len__(self):
        return sum(len(c) for c in self._chunks) + len(self._tail)

    def __iter__(self):
        return iter(self._values())

    def __getitem__(self, index):
        return self._values()[index]

    def __setitem__(self, index, value):
        values = list(self._values())
        values[index] = self._field.coerce(value)
        self._chunks = []
        self._tail = []
        self.extend(values)

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return repr(list(self))


class RepeatedCompositeContainer:
    """A repeated message field (``add``, indexing, ``len``)."""

    def __init__(self, message_class):
        self._message_class = message_class
        self._items = []

    def add(self, **kwargs):
        item = self._message_class(**kwargs)
        self._items.append(item)
        return item

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __getitem__(self, index):
        return self._items[index]

    def __delitem__(self, index):
        del self._items[index]

    def __repr__(self):
        return repr(self._items)


class Message:
    """Base of the message classes; subclasses set ``FIELDS`` and ``ENUMS``.

    ``ENUMS`` maps names to values; each becomes a class attribute, as the
    protobuf package exposes enum values on the message class.
    """

    FIELDS: tuple = ()
    ENUMS: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._by_name = {f.name: f for f in cls.FIELDS}
        cls._by_number = {f.number: f for f in cls.FIELDS}
        cls._ordered = sorted(cls.FIELDS, key=lambda f: f.number)
        for name, value in cls.ENUMS.items():
            setattr(cls, name, value)

    def __init__(self, **kwargs):
        object.__setattr__(self, '_fields', {})
        object.__setattr__(self, '_present', set())
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        field = self._field(name)
        values = self._fields
        if name in values:
            return values[name]
        if field.repeated:
            if field.kind == 'message':
                value = RepeatedCompositeContainer(field.message_class(type(self)))
            else:
                value = RepeatedScalarContainer(field)
        elif field.kind == 'message':
            value = field.message_class(type(self))()
        else:
            return field.default
        values[name] = value
        return value

    def __setattr__(self, name, value):
        field = self._field(name)
        if field.repeated or field.kind == 'message':
            raise AttributeError(
                'assignment not allowed to field "{}" of message {}'.format(
                    name, type(self).__name__
                )
            )
        self._fields[name] = field.coerce(value)
        self._present.add(name)

    def _field(self, name):
        field = self._by_name.get(name)
        if field is None:
            raise AttributeError(
                '{} message has no field "{}"'.format(type(self).__name__, name)
            )
        return field

    def HasField(self, name):
        """Whether an optional field was set (or read from the wire)."""
        field = self._field(name)
        if field.repeated:
            raise ValueError('HasField on the repeated field "{}"'.format(name))
        if name in self._present:
            return True
        return (
            field.kind == 'message'
            and name in self._fields
            and self._fields[name]._has_content()
        )

    def _has_content(self):
        if self._present:
            return True
        for name, value in self._fields.items():
            field = self._by_name[name]
            if field.repeated:
                if len(value):
                    return True
            elif field.kind == 'message' and value._has_content():
                return True
        return False

    def ListFields(self):
        """Returns ``(field, value)`` for each field set, by field number."""
        out = []
        for field in self._ordered:
            name = field.name
            if field.repeated:
                if name in self._fields and len(self._fields[name]):
                    out.append((field, self._fields[name]))
            elif self.HasField(name):
                out.append((field, getattr(self, name)))
        return out

    # -- binary encoding ----------------------------------------------------

    def SerializeToString(self):
        """Returns the wire encoding, fields in number order."""
        out = bytearray()
        for field, value in self.ListFields():
            number = field.number
            if field.kind == 'message':
                items = value if field.repeated else (value,)
                for item in items:
                    out += _wire.encode_length_delimited(
                        number, item.SerializeToString()
                    )
            elif field.kind in ('string', 'bytes'):
                items = value if field.repeated else (value,)
                for item in items:
                    if isinstance(item, str):
                        item = item.encode('utf-8')
                    out += _wire.encode_length_delimited(number, item)
            elif field.repeated and field.packed:
                if field.kind == 'float':
                    payload = value.array().astype('<f4').tobytes()
                elif field.kind == 'double':
                    payload = value.array().astype('<f8').tobytes()
                else:
                    payload = b''.join(field.encode_scalar(v) for v in value)
                out += _wire.encode_length_delimited(number, payload)
            else:
                key = _wire.encode_key(number, field.wire_type)
                for item in value if field.repeated else (value,):
                    out += key + field.encode_scalar(item)
        return bytes(out)

    def ParseFromString(self, data):
        """Replaces the contents with those decoded from ``data``.

        Raises:
            chainerlite.links.caffe._wire.DecodeError: (a ``ValueError``)
                if ``data`` is truncated or is not such a message.

        """
        object.__setattr__(self, '_fields', {})
        object.__setattr__(self, '_present', set())
        buf = bytes(data)
        self._merge(buf, 0, len(buf), 0)
        return len(buf)

    @classmethod
    def FromString(cls, data):
        message = cls()
        message.ParseFromString(data)
        return message

    def _merge(self, buf, start, end, depth):
        if depth > _MAX_DEPTH:
            raise _wire.DecodeError('messages nested too deeply')
        for number, wire_type, value in _wire.iter_fields(buf, start, end):
            field = self._by_number.get(number)
            if field is None:
                continue  # unknown fields are skipped, as protobuf does
            name = field.name
            if field.kind == 'message':
                if wire_type != _wire.LENGTH:
                    raise _wire.DecodeError(
                        'message field {} has wire type {}'.format(name, wire_type)
                    )
                if field.repeated:
                    sub = getattr(self, name).add()
                else:
                    sub = getattr(self, name)
                    self._present.add(name)
                sub._merge(buf, value[0], value[1], depth + 1)
            elif field.kind in ('string', 'bytes'):
                if wire_type != _wire.LENGTH:
                    raise _wire.DecodeError(
                        '{} field {} has wire type {}'.format(
                            field.kind, name, wire_type
                        )
                    )
                item = buf[value[0] : value[1]]
                if field.kind == 'string':
                    try:
                        item = item.decode('utf-8')
                    except UnicodeDecodeError:
                        raise _wire.DecodeError(
                            'string field {} is not valid UTF-8'.format(name)
                        ) from None
                self._store(field, item)
            elif field.repeated and wire_type == _wire.LENGTH:
                getattr(self, name)._add_array(_decode_packed(field, buf, *value))
            else:
                self._store(field, field.decode_scalar(wire_type, value))

    def _store(self, field, value):
        if field.repeated:
            getattr(self, field.name)._tail.append(value)
        else:
            self._fields[field.name] = value
            self._present.add(field.name)

    # -- text format ----------------------------------------------------------

    def to_text(self, exclude=(), indent=0):
        """Returns the protobuf text format (as in a ``.prototxt`` file).

        Args:
            exclude (tuple of str): Names of fields left out, at any depth.
            indent (int): Spaces before each line.

        """
        pad = ' ' * indent
        lines = []
        for field, value in self.ListFields():
            if field.name in exclude:
                continue
            for item in value if field.repeated else (value,):
                if field.kind == 'message':
                    lines.append('{}{} {{\n'.format(pad, field.name))
                    lines.append(item.to_text(exclude, indent + 2))
                    lines.append('{}}}\n'.format(pad))
                else:
                    lines.append(
                        '{}{}: {}\n'.format(pad, field.name, _text_value(field, item))
                    )
        return ''.join(lines)

    def __repr__(self):
        return '{}(\n{})'.format(type(self).__name__, self.to_text(indent=2))


def _decode_packed(field, buf, start, stop):
    if field.dtype is None:
        raise _wire.DecodeError('field {} cannot be packed'.format(field.name))
    size = stop - start
    if field.kind in ('float', 'double'):
        width = 4 if field.kind == 'float' else 8
        if size % width:
            raise _wire.DecodeError(
                'packed {} field {} has {} bytes, not a multiple of {}'.format(
                    field.kind, field.name, size, width
                )
            )
        return numpy.frombuffer(
            buf, dtype='<f{}'.format(width), count=size // width, offset=start
        ).astype(field.dtype)
    values = []
    pos = start
    while pos < stop:
        raw, pos = _wire.read_varint(buf, pos, stop)
        values.append(field.decode_scalar(_wire.VARINT, raw))
    return numpy.array(values, dtype=field.dtype)


def _text_value(field, value):
    kind = field.kind
    if kind == 'enum':
        for name, number in field.enum.items():
            if number == value:
                return name
        return str(value)
    if kind == 'bool':
        return 'true' if value else 'false'
    if kind in ('float', 'double'):
        return repr(float(value))
    if kind == 'string':
        value = value.encode('utf-8')
    if kind in ('string', 'bytes'):
        return '"{}"'.format(''.join(_escape_byte(b) for b in value))
    return str(value)


def _escape_byte(byte):
    if byte in (0x22, 0x27, 0x5C):
        return '\\' + chr(byte)
    if byte == 0x0A:
        return '\\n'
    if 0x20 <= byte < 0x7F:
        return chr(byte)
    return '\\{:03o}'.format(byte)
