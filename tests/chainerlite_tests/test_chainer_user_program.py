"""A user program written for Chainer 7.8.1, run unchanged on chainerlite.

Everything between the import block and the tests is Chainer code as a
Chainer user writes it; only the imports name chainerlite instead of
chainer. The tests at the end run the program and check what it reports.
"""

import os

import numpy as np

import chainerlite as chainer
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import optimizers, serializers

# ---- the user program (Chainer style, unchanged) ---------------------------


class ConvNet(chainer.Chain):
    def __init__(self, n_out=4):
        super(ConvNet, self).__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(None, 8, ksize=3, pad=1)
            self.bn1 = L.BatchNormalization(8)
            self.conv2 = L.Convolution2D(8, 16, 3, stride=1, pad=1, nobias=True)
            self.bn2 = L.BatchNormalization(16)
            self.fc = L.Linear(None, n_out)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.max_pooling_2d(h, ksize=2, stride=2)
        h = F.relu(self.bn2(self.conv2(h)))
        h = F.max_pooling_2d(h, 2)
        return self.fc(h)


def make_data(n, seed):
    """Images of noise with one bright quadrant; the label is the quadrant."""
    rng = np.random.RandomState(seed)
    x = rng.uniform(0, 0.5, (n, 1, 8, 8)).astype(np.float32)
    t = rng.randint(0, 4, n).astype(np.int32)
    for i, label in enumerate(t):
        row, col = divmod(int(label), 2)
        x[i, 0, row * 4 : row * 4 + 4, col * 4 : col * 4 + 4] += 0.5
    return x, t


def evaluate(model, x, t):
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        y = model.predictor(x)
        loss = F.softmax_cross_entropy(y, t)
        acc = F.accuracy(y, t)
    return float(loss.array), float(acc.array)


def train(model, optimizer, x, t, epochs, batchsize=32, use_lossfun=False):
    n = len(t)
    for epoch in range(epochs):
        perm = np.random.permutation(n)
        for i in range(0, n, batchsize):
            x_batch = x[perm[i : i + batchsize]]
            t_batch = t[perm[i : i + batchsize]]
            if use_lossfun:
                optimizer.update(model, x_batch, t_batch)
            else:
                loss = model(x_batch, t_batch)
                model.cleargrads()
                loss.backward()
                optimizer.update()


def main(out_dir):
    np.random.seed(0)
    x_train, t_train = make_data(512, seed=1)
    x_test, t_test = make_data(128, seed=2)

    model = L.Classifier(ConvNet())
    optimizer = optimizers.Adam(alpha=0.01)
    optimizer.setup(model)

    result = {'before': evaluate(model, x_test, t_test)}
    train(model, optimizer, x_train, t_train, epochs=2)
    result['manual loop'] = evaluate(model, x_test, t_test)
    train(model, optimizer, x_train, t_train, epochs=1, use_lossfun=True)
    result['lossfun loop'] = evaluate(model, x_test, t_test)
    result['updates'] = optimizer.t

    model_path = os.path.join(out_dir, 'model.npz')
    optimizer_path = os.path.join(out_dir, 'optimizer.npz')
    serializers.save_npz(model_path, model)
    serializers.save_npz(optimizer_path, optimizer)

    loaded = L.Classifier(ConvNet())
    serializers.load_npz(model_path, loaded)
    loaded_optimizer = optimizers.Adam(alpha=0.01)
    loaded_optimizer.setup(loaded)
    serializers.load_npz(optimizer_path, loaded_optimizer)

    with chainer.using_config('train', False):
        result['prediction'] = model.predictor(x_test).array
        result['loaded prediction'] = loaded.predictor(x_test).array
    result['loaded updates'] = loaded_optimizer.t
    result['model'] = model
    result['loaded'] = loaded
    return result


# ---- tests -----------------------------------------------------------------


def test_program_learns_saves_and_loads(tmp_path):
    result = main(str(tmp_path))
    loss_before, acc_before = result['before']
    loss_manual, acc_manual = result['manual loop']
    loss_lossfun, acc_lossfun = result['lossfun loop']
    assert acc_before < 0.5  # four classes: chance is 0.25
    assert loss_manual < 0.5 * loss_before and acc_manual >= 0.9
    assert acc_lossfun >= 0.9
    assert result['updates'] == 3 * 16  # 512 samples, batches of 32

    np.testing.assert_array_equal(result['prediction'], result['loaded prediction'])
    assert result['loaded updates'] == result['updates']
    params = dict(result['model'].namedparams())
    loaded_params = dict(result['loaded'].namedparams())
    assert params.keys() == loaded_params.keys()
    assert '/predictor/conv2/b' not in params  # nobias=True
    for name, param in params.items():
        np.testing.assert_array_equal(
            param.array, loaded_params[name].array, err_msg=name
        )
    bn = result['model'].predictor.bn2
    loaded_bn = result['loaded'].predictor.bn2
    np.testing.assert_array_equal(bn.avg_mean, loaded_bn.avg_mean)
    np.testing.assert_array_equal(bn.avg_var, loaded_bn.avg_var)
    assert not np.array_equal(bn.avg_var, np.ones_like(bn.avg_var))
    assert sorted(os.listdir(str(tmp_path))) == ['model.npz', 'optimizer.npz']


def test_test_mode_uses_the_running_averages():
    np.random.seed(0)
    x, _ = make_data(16, seed=3)
    model = ConvNet()
    model(x)  # one step in train mode updates the running averages
    with chainer.using_config('train', False):
        alone = model(x[:1]).array
        batch = model(x).array[:1]
    np.testing.assert_allclose(alone, batch, rtol=1e-5, atol=1e-6)
    changed = model(x[:1]).array  # train mode: batch statistics of 1 sample
    assert not np.allclose(alone, changed, atol=1e-3)
