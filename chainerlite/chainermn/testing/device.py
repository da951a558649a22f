"""The device a ChainerMN test runs on."""

from chainerlite import backend


def get_device(device_id=None, use_chainerx=False):
    """The CPU (``device_id`` None) or GPU ``device_id``, as a Chainer device.

    ``use_chainerx`` selects a ChainerX device, which is only there when
    ChainerX is.
    """
    if use_chainerx:
        spec = 'native:0' if device_id is None else 'cuda:{}'.format(device_id)
    else:
        spec = '@numpy' if device_id is None else '@cupy:{}'.format(device_id)
    return backend.get_device(spec)
