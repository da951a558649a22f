"""Runner for ``chainer.serializers``: the same model (a Linear and a
BatchNormalization with parameters and persistent values from one seed)
and its Adam optimizer after one step, saved through the name's API;
compared: the keys and values written, and the model and optimizer
loaded back from them into fresh ones."""

import os
import tempfile

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S


def _model(lib, seed):
    rng = numpy.random.RandomState(seed)

    class Net(lib.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.fc = lib.links.Linear(3, 2)
                self.bn = lib.links.BatchNormalization(3)

        def forward(self, x):  # fc after bn: no parameter's gradient is 0
            return self.fc(self.bn(x))

    net = Net()
    for _, param in sorted(net.namedparams()):
        param.array[...] = rng.uniform(-1, 1, param.shape)
    net.bn.avg_mean[...] = rng.uniform(-1, 1, 3)
    return net


def _trained(lib, seed):
    net = _model(lib, seed)
    optimizer = lib.optimizers.Adam()
    optimizer.setup(net)
    x = S.make_array(seed, (4, 3), numpy.float32)
    w = S.make_array(seed + 1, (4, 2), numpy.float32)  # no gradient near 0
    optimizer.update(lambda: lib.functions.sum(net(x) * w))
    return net, optimizer


def _read_file(path):
    """Keys and values of a saved npz or HDF5 file."""
    if path.endswith('.npz'):
        with numpy.load(path) as npz:
            return {k: npz[k] for k in sorted(npz.files)}
    import h5py

    found = {}
    with h5py.File(path, 'r') as f:
        f.visititems(
            lambda k, v: found.__setitem__(k, v[()]) if hasattr(v, 'shape') else None
        )
    return found


def _state(net, optimizer):
    return {
        'params': {k: v.array for k, v in sorted(net.namedparams())},
        'bn_mean': net.bn.avg_mean,
        'optimizer_t': optimizer.t,
    }


def round_trip(lib, name, seed, path_prefix, strict):
    """What ``name`` writes and what loading it back gives."""
    net, optimizer = _trained(lib, seed)
    fresh_net, fresh_opt = _model(lib, seed + 1), lib.optimizers.Adam()
    fresh_opt.setup(fresh_net)
    S_ = lib.serializers
    with tempfile.TemporaryDirectory() as tmp:
        if name in ('DictionarySerializer', 'NpzDeserializer'):
            target = S_.DictionarySerializer()
            target.save(net)
            written = dict(target.target)
            S_.NpzDeserializer(written, path=path_prefix, strict=strict).load(fresh_net)
            return {'written': written, 'loaded': _state(fresh_net, fresh_opt)}
        ext = 'npz' if 'npz' in name or 'Npz' in name else 'h5'
        path = os.path.join(tmp, 'model.' + ext)
        if ext == 'npz':
            S_.save_npz(path, net)
            S_.load_npz(path, fresh_net, path=path_prefix, strict=strict)
        else:
            S_.save_hdf5(path, net)
            S_.load_hdf5(path, fresh_net)
        opt_path = os.path.join(tmp, 'opt.' + ext)
        (S_.save_npz if ext == 'npz' else S_.save_hdf5)(opt_path, optimizer)
        (S_.load_npz if ext == 'npz' else S_.load_hdf5)(opt_path, fresh_opt)
        return {
            'written': _read_file(path),
            'optimizer_written': _read_file(opt_path),
            'loaded': _state(fresh_net, fresh_opt),
        }


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    examples = min(examples, 20)

    def draw_case(data):
        seed = data.draw(S.seeds)
        path_prefix = data.draw(st.sampled_from(['', 'fc/']))
        strict = data.draw(st.booleans())

        def stage(lib, s):
            return round_trip(lib, name, seed, path_prefix, strict)

        label = f'{name} seed={seed} path={path_prefix!r} strict={strict}'
        pair.run_case(libs, [('round-trip', stage)], tally, label)

    pair.explore(draw_case, examples, seconds)
