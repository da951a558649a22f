"""The random state of training, in a trainer's snapshot.

Everything random that chainerlite does on the CPU draws from NumPy's
global generator: shuffled orders (``ShuffleOrderSampler()``), and
``F.dropout`` and the other masks, whose per-thread generator is seeded
from it at every draw (see ``chainerlite.utils.random_state``; that
generator keeps nothing between draws). A trainer's snapshot saves the
global generator's state under ``_random_state/numpy`` and loading it
restores the state, so that a resumed run draws what a straight one would
have drawn.

The state is stored as the UTF-8 bytes (a ``uint8`` array) of a JSON
text, whatever the bit generator is. Loading checks it on a scratch
generator before anything is assigned. A snapshot without the key (one
written by Chainer or an older chainerlite) leaves the generator as it
is. CuPy cannot export its generator's state, so draws on the GPU are not
restored.
"""

import json

import numpy

from chainerlite.serializers import _checks

_KEY = 'numpy'
_OWNER = 'Trainer.serialize'


def _plain(value):
    # JSON-ready: arrays become {"ndarray": [...], "dtype": "uint32"}
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, numpy.ndarray):
        return {'ndarray': value.tolist(), 'dtype': value.dtype.str}
    if isinstance(value, numpy.generic):
        return value.item()
    return value


def _restored(value):
    if isinstance(value, dict):
        if set(value) == {'ndarray', 'dtype'}:
            return numpy.array(value['ndarray'], dtype=numpy.dtype(value['dtype']))
        return {key: _restored(item) for key, item in value.items()}
    return value


def _encode():
    text = json.dumps(_plain(numpy.random.get_state(legacy=False)))
    return numpy.frombuffer(text.encode('utf-8'), numpy.uint8).copy()


def _decode(serializer, data):
    """The state in ``data``, checked on a scratch generator."""
    try:
        state = _restored(json.loads(bytes(numpy.asarray(data, numpy.uint8))))
        name = numpy.random.get_state(legacy=False)['bit_generator']
        scratch = numpy.random.RandomState(getattr(numpy.random, name)())
        scratch.set_state(state)
    except (TypeError, ValueError, KeyError, OverflowError, AttributeError) as e:
        raise _checks.error(
            _OWNER,
            serializer,
            _KEY,
            "the state of NumPy's global generator ({})".format(e),
            '{} bytes'.format(numpy.asarray(data).size),
        ) from e
    return state


def serialize(serializer):
    """Saves or restores NumPy's global random state (see the module).

    Args:
        serializer: The (de)serializer, at the snapshot's
            ``_random_state`` keys.

    Raises:
        ValueError: If the stored state is not one of NumPy's global
            generator (nothing is assigned).

    """
    if not _checks.loading(serializer):
        serializer(_KEY, _encode())
        return
    try:
        data = _checks.peek(serializer, _KEY, None)
    except KeyError:  # a snapshot without it: the state stays
        return
    if data is None:
        return
    _decode(serializer, data)  # checked before anything is assigned
    data = serializer(_KEY, None)  # None in a checking walk
    if data is not None:
        numpy.random.set_state(_decode(serializer, data))
