"""The models, optimizers and trainer that ``tools/cross_files.py`` writes
with Chainer and the cross-read tests rebuild with chainerlite.

Every builder takes the framework module (``chainer`` or ``chainerlite``)
and builds the same structure on both; values come from the files, so the
initializers' random draws do not matter.
"""

import numpy

# name -> (optimizer class name, its keyword arguments)
OPTIMIZERS = {
    'mlp': ('Adam', {'alpha': 0.01}),
    'cnn_bn': ('MomentumSGD', {'lr': 0.1}),
    'lstm': ('SGD', {'lr': 0.1}),
    'chainlist': ('RMSprop', {'lr': 0.01}),
    # Chainer keys a Sequential's links in its own order (not the layers'):
    # the two 4x4 layers would load swapped otherwise
    'sequential': ('MomentumSGD', {'lr': 0.05}),
}


def build(ch, name):
    """Returns the model ``name`` built with the module ``ch``."""
    L = ch.links
    if name == 'mlp':
        model = ch.Chain()
        with model.init_scope():
            model.l1 = L.Linear(3, 4)
            model.l2 = L.Linear(4, 2)
    elif name == 'cnn_bn':
        model = ch.Chain()
        with model.init_scope():
            model.conv = L.Convolution2D(1, 2, 3)
            model.bn = L.BatchNormalization(2)
            model.fc = L.Linear(8, 2)
    elif name == 'lstm':
        model = ch.Chain()
        with model.init_scope():
            model.lstm = L.LSTM(3, 4)
            model.nstep = L.NStepLSTM(1, 3, 4, 0.0)
    elif name == 'chainlist':
        model = ch.ChainList(L.Linear(2, 3), ch.ChainList(L.Linear(3, 2)))
    elif name == 'sequential':
        F = ch.functions
        model = ch.Sequential(
            L.Linear(3, 4),
            F.tanh,
            L.Linear(4, 4),
            F.tanh,
            L.Linear(4, 4),
            L.Linear(4, 2),
        )
    else:
        raise ValueError('build: no model %r' % name)
    return model


def inputs(name):
    """Returns the fixed input arrays of the model ``name``."""
    rng = numpy.random.RandomState(1)
    shapes = {
        'mlp': (2, 3),
        'cnn_bn': (3, 1, 4, 4),
        'lstm': (2, 3),
        'chainlist': (2, 2),
        'sequential': (2, 3),
    }
    return rng.uniform(-1, 1, shapes[name]).astype(numpy.float32)


def forward(ch, name, model, x):
    """Runs ``model`` on ``x`` and returns the output Variable."""
    F = ch.functions
    if name == 'cnn_bn':
        h = model.bn(model.conv(x))
        return model.fc(F.relu(h))
    if name == 'lstm':
        model.lstm.reset_state()
        h = model.lstm(x)
        _, _, ys = model.nstep(None, None, [x, x[:1]])
        return h + F.sum(ys[0], axis=0) + ys[1][0]
    if name == 'chainlist':
        return model[1][0](F.tanh(model[0](x)))
    if name == 'sequential':
        return model(x)
    return model.l2(F.tanh(model.l1(x)))


def optimizer(ch, name, model):
    """Returns the optimizer of ``name`` set up on ``model``."""
    cls_name, kwargs = OPTIMIZERS[name]
    opt = getattr(ch.optimizers, cls_name)(**kwargs)
    opt.setup(model)
    return opt


def step(ch, name, model, opt):
    """One update of ``model`` on its fixed input (loss: the output's
    sum of squares), in training mode."""
    with ch.using_config('train', True):
        y = forward(ch, name, model, inputs(name))
        loss = ch.functions.sum(y * y)
    model.cleargrads()
    loss.backward()
    opt.update()


def trainer(ch, out):
    """Returns a small trainer: a classifier MLP, Adam, a shuffling
    SerialIterator, a LogReport and an ExponentialShift of Adam's alpha."""
    L = ch.links
    mlp = ch.Sequential(L.Linear(3, 4), ch.functions.tanh, L.Linear(4, 2))
    model = L.Classifier(mlp)
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-1, 1, (6, 3)).astype(numpy.float32)
    t = rng.randint(0, 2, 6).astype(numpy.int32)
    iterator = ch.iterators.SerialIterator(
        ch.datasets.TupleDataset(x, t), 2, shuffle=True
    )
    opt = ch.optimizers.Adam(alpha=0.01)
    opt.setup(model)
    updater = ch.training.updaters.StandardUpdater(iterator, opt)
    result = ch.training.Trainer(updater, (4, 'iteration'), out=out)
    result.extend(ch.training.extensions.LogReport(trigger=(1, 'iteration')))
    result.extend(
        ch.training.extensions.ExponentialShift('alpha', 0.5), trigger=(1, 'iteration')
    )
    return result
