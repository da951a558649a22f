"""Protocol buffers wire format: the four wire types, read and written.

Only what a schema-driven message needs: varints, 64-bit and 32-bit fixed
values, and length-delimited records (strings, bytes, sub-messages and
packed repeated numbers). The reader treats its input as untrusted: every
length is checked against the bytes that remain, so a truncated or garbled
buffer raises :class:`DecodeError` instead of reading past its end or
allocating more than the buffer holds.
"""

import struct

VARINT = 0
FIXED64 = 1
LENGTH = 2
FIXED32 = 5

_MAX_VARINT_BYTES = 10
_MAX_FIELD_NUMBER = (1 << 29) - 1


class DecodeError(ValueError):
    """The bytes are not a valid encoding of the expected message."""


def read_varint(buf, pos, end):
    """Reads a varint of ``buf[pos:end]``; returns ``(value, new_pos)``."""
    value = 0
    shift = 0
    for i in range(_MAX_VARINT_BYTES):
        if pos >= end:
            raise DecodeError('truncated varint')
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            if i == _MAX_VARINT_BYTES - 1 and byte > 1:
                raise DecodeError('varint longer than 64 bits')
            return value, pos
        shift += 7
    raise DecodeError('varint longer than 10 bytes')


def iter_fields(buf, start, end):
    """Yields ``(number, wire_type, value)`` for each field of a record.

    ``value`` is an int for varints, the raw 8 or 4 bytes for fixed values,
    and a ``(start, stop)`` pair of offsets into ``buf`` for
    length-delimited fields.
    """
    pos = start
    while pos < end:
        key, pos = read_varint(buf, pos, end)
        number = key >> 3
        wire_type = key & 7
        if number == 0 or number > _MAX_FIELD_NUMBER:
            raise DecodeError('invalid field number {}'.format(number))
        if wire_type == VARINT:
            value, pos = read_varint(buf, pos, end)
        elif wire_type == FIXED64 or wire_type == FIXED32:
            size = 8 if wire_type == FIXED64 else 4
            if end - pos < size:
                raise DecodeError('truncated fixed-size field {}'.format(number))
            value = bytes(buf[pos : pos + size])
            pos += size
        elif wire_type == LENGTH:
            length, pos = read_varint(buf, pos, end)
            if length > end - pos:
                raise DecodeError(
                    'field {} claims {} bytes but {} remain'.format(
                        number, length, end - pos
                    )
                )
            value = (pos, pos + length)
            pos += length
        else:
            raise DecodeError(
                'unsupported wire type {} in field {}'.format(wire_type, number)
            )
        yield number, wire_type, value


def encode_varint(value):
    """Encodes an int; negative values take ten bytes (two's complement)."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def encode_key(number, wire_type):
    return encode_varint((number << 3) | wire_type)


def encode_length_delimited(number, payload):
    return encode_key(number, LENGTH) + encode_varint(len(payload)) + payload


def to_signed(value, bits):
    """Reinterprets an unsigned varint as a two's complement integer."""
    value &= (1 << bits) - 1
    if value >> (bits - 1):
        value -= 1 << bits
    return value


FLOAT = struct.Struct('<f')
DOUBLE = struct.Struct('<d')
