import struct

import numpy
import pytest

from chainerlite.links.caffe import _wire
from chainerlite.links.caffe import caffe_pb


@pytest.mark.parametrize(
    'value, encoded',
    [
        (0, b'\x00'),
        (1, b'\x01'),
        (127, b'\x7f'),
        (128, b'\x80\x01'),
        (300, b'\xac\x02'),
        (-1, b'\xff' * 9 + b'\x01'),
    ],
)
def test_varint(value, encoded):
    assert _wire.encode_varint(value) == encoded
    raw, pos = _wire.read_varint(encoded, 0, len(encoded))
    assert pos == len(encoded)
    assert _wire.to_signed(raw, 64) == value


def test_varint_errors():
    with pytest.raises(_wire.DecodeError, match='truncated'):
        _wire.read_varint(b'\x80\x80', 0, 2)
    with pytest.raises(_wire.DecodeError, match='10 bytes'):
        _wire.read_varint(b'\x80' * 11, 0, 11)
    with pytest.raises(_wire.DecodeError, match='64 bits'):
        _wire.read_varint(b'\xff' * 9 + b'\x02', 0, 10)


def _hand_encoded_net():
    # NetParameter { name: "n" layer { name: "fc" type: "InnerProduct"
    #   bottom: "x" top: "y" blobs { data: [1.5, -2] shape { dim: 1 dim: 2 } }
    #   inner_product_param { num_output: 1 bias_term: false } } }
    blob = (
        b'\x2a\x08'  # field 5 (data), packed: 8 bytes
        + struct.pack('<ff', 1.5, -2.0)
        + b'\x3a\x04'  # field 7 (shape), 4 bytes
        + b'\x0a\x02\x01\x02'  # field 1 (dim), packed: [1, 2]
    )
    param = b'\x08\x01\x10\x00'  # num_output = 1, bias_term = false
    layer = (
        b'\x0a\x02fc'
        + b'\x12\x0cInnerProduct'
        + b'\x1a\x01x'
        + b'\x22\x01y'
        + b'\x3a'
        + bytes([len(blob)])
        + blob
        + b'\xaa\x07'  # field 117 (inner_product_param), wire type 2
        + bytes([len(param)])
        + param
    )
    return b'\x0a\x01n' + b'\xa2\x06' + bytes([len(layer)]) + layer


def test_hand_assembled_encoding():
    net = caffe_pb.NetParameter(name='n')
    layer = net.layer.add(name='fc', type='InnerProduct')
    layer.bottom.append('x')
    layer.top.append('y')
    blob = layer.blobs.add()
    blob.data.extend([1.5, -2])
    blob.shape.dim.extend([1, 2])
    layer.inner_product_param.num_output = 1
    layer.inner_product_param.bias_term = False
    assert net.SerializeToString() == _hand_encoded_net()


def test_hand_assembled_decoding():
    net = caffe_pb.NetParameter.FromString(_hand_encoded_net())
    layer = net.layer[0]
    assert (net.name, layer.name, layer.type) == ('n', 'fc', 'InnerProduct')
    assert list(layer.bottom) == ['x'] and list(layer.top) == ['y']
    numpy.testing.assert_array_equal(layer.blobs[0].data.array(), [1.5, -2])
    assert list(layer.blobs[0].shape.dim) == [1, 2]
    param = layer.inner_product_param
    assert param.num_output == 1 and param.HasField('bias_term')
    assert not param.bias_term
    assert param.axis == 1 and not param.HasField('axis')  # the default


def test_unpacked_numbers_and_unknown_fields_are_read():
    # data as two unpacked floats, then an unknown varint field 15
    # and an unknown length-delimited field 20
    blob = (
        b'\x2d'
        + struct.pack('<f', 0.5)
        + b'\x2d'
        + struct.pack('<f', 3.0)
        + b'\x78\x05'
        + b'\xa2\x01\x03abc'
    )
    parsed = caffe_pb.BlobProto.FromString(blob)
    numpy.testing.assert_array_equal(parsed.data.array(), [0.5, 3.0])


def test_negative_int32_round_trip():
    param = caffe_pb.ReshapeParameter(num_axes=-1, axis=-2)
    encoded = param.SerializeToString()
    assert (
        encoded
        == b'\x10' + b'\xfe' + b'\xff' * 8 + b'\x01' + b'\x18' + b'\xff' * 9 + b'\x01'
    )
    parsed = caffe_pb.ReshapeParameter.FromString(encoded)
    assert (parsed.axis, parsed.num_axes) == (-2, -1)


def test_every_truncation_of_a_field_fails():
    encoded = _hand_encoded_net()
    layer_start = 3  # after the name field
    for cut in range(layer_start + 1, len(encoded)):
        with pytest.raises(ValueError):
            caffe_pb.NetParameter.FromString(encoded[:cut])


@pytest.mark.parametrize(
    'data, message',
    [
        (b'\x0b', 'wire type 3'),  # start-group: not supported
        (b'\x0f', 'wire type 7'),
        (b'\x00\x00', 'field number 0'),
        (b'\xa2\x06\xff\xff\xff\xff\x0f', 'claims'),  # 4 GiB long layer
        (b'\x0a\x02\xff\xfe', 'UTF-8'),  # name
        (b'\xa0\x06\x01', 'wire type 0'),  # layer as a varint
        (b'\x08\x01', 'wire type 0'),  # name as a varint
    ],
)
def test_garbage_is_rejected(data, message):
    with pytest.raises(ValueError, match=message):
        caffe_pb.NetParameter.FromString(data)


def test_packed_floats_of_odd_length():
    with pytest.raises(ValueError, match='multiple of 4'):
        caffe_pb.BlobProto.FromString(b'\x2a\x03abc')


def test_field_assignment_checks():
    param = caffe_pb.ConvolutionParameter()
    with pytest.raises(TypeError):
        param.num_output = 1.5
    with pytest.raises(ValueError, match='out of range'):
        param.num_output = -1
    with pytest.raises(AttributeError, match='assignment not allowed'):
        param.kernel_size = [3]
    with pytest.raises(AttributeError, match='no field'):
        param.kernel = 3
    with pytest.raises(ValueError, match='repeated'):
        param.HasField('kernel_size')


def test_defaults_and_presence():
    param = caffe_pb.PoolingParameter()
    assert (param.pool, param.stride, param.global_pooling) == (0, 1, False)
    assert not param.HasField('stride')
    param.stride = 1
    assert param.HasField('stride')
    layer = caffe_pb.LayerParameter()
    assert not layer.HasField('pooling_param')
    layer.pooling_param.pool = caffe_pb.PoolingParameter.AVE
    assert layer.HasField('pooling_param')
    assert caffe_pb.V1LayerParameter.CONVOLUTION == 4


def test_text_format():
    net = caffe_pb.NetParameter(name='g')
    layer = net.layer.add(name='p', type='Pooling')
    layer.pooling_param.pool = caffe_pb.PoolingParameter.AVE
    layer.pooling_param.global_pooling = True
    layer.blobs.add().data.append(1)
    assert net.to_text(exclude=('blobs',)) == (
        'name: "g"\n'
        'layer {\n'
        '  name: "p"\n'
        '  type: "Pooling"\n'
        '  pooling_param {\n'
        '    pool: AVE\n'
        '    global_pooling: true\n'
        '  }\n'
        '}\n'
    )
