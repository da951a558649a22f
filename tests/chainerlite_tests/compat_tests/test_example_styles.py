"""Programs written the way more of Chainer's examples are, run unchanged
through ``python -m chainerlite.compat``: a custom training loop over
iterators (as ``train_mnist_custom_loop.py``), and a trainer with a custom
updater of two optimizers and a custom iterator (as the GAN and
language-model examples)."""

import os
import subprocess
import sys
import textwrap

import numpy

_CUSTOM_LOOP = textwrap.dedent('''
    import argparse
    import os

    import chainer
    from chainer import configuration
    from chainer.dataset import convert
    import chainer.functions as F
    import chainer.links as L
    from chainer import serializers

    class MLP(chainer.Chain):
        def __init__(self, n_units, n_out):
            super(MLP, self).__init__()
            with self.init_scope():
                self.l1 = L.Linear(None, n_units)
                self.l2 = L.Linear(None, n_out)

        def forward(self, x):
            return self.l2(F.relu(self.l1(x)))

    parser = argparse.ArgumentParser()
    parser.add_argument('--epoch', type=int, default=2)
    parser.add_argument('--device', default='-1')
    parser.add_argument('--out', default='result')
    parser.add_argument('--resume', default='')
    args = parser.parse_args()

    device = chainer.get_device(args.device)
    model = L.Classifier(MLP(16, 10))
    model.to_device(device)
    device.use()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    if args.resume:
        serializers.load_npz(os.path.join(args.resume, 'mlp.model'), model)
        serializers.load_npz(os.path.join(args.resume, 'mlp.state'),
                             optimizer)
        print('resumed at update', optimizer.t)

    train, test = chainer.datasets.get_mnist()
    train_iter = chainer.iterators.SerialIterator(train, 10)
    test_iter = chainer.iterators.SerialIterator(test, 10, repeat=False,
                                                 shuffle=False)
    while train_iter.epoch < args.epoch:
        x, t = convert.concat_examples(train_iter.next(), device)
        optimizer.update(model, x, t)
        if train_iter.is_new_epoch:
            correct = 0
            with configuration.using_config('train', False):
                with chainer.using_config('enable_backprop', False):
                    for batch in test_iter:
                        x, t = convert.concat_examples(batch, device)
                        model(x, t)
                        correct += float(model.accuracy.array) * len(t)
            test_iter.reset()
            print('epoch {} test accuracy {:.3f}'.format(
                train_iter.epoch, correct / len(test)))
    os.makedirs(args.out, exist_ok=True)
    serializers.save_npz(os.path.join(args.out, 'mlp.model'), model)
    serializers.save_npz(os.path.join(args.out, 'mlp.state'), optimizer)
    print('updates', optimizer.t)
''')

_CUSTOM_UPDATER = textwrap.dedent('''
    import argparse

    import numpy as np
    import chainer
    import chainer.functions as F
    import chainer.links as L
    from chainer import training
    from chainer.training import extensions

    class Generator(chainer.Chain):
        def __init__(self):
            super(Generator, self).__init__()
            with self.init_scope():
                self.l = L.Linear(2, 3)

        def make_hidden(self, batchsize):
            return np.random.uniform(-1, 1, (batchsize, 2)).astype(
                np.float32)

        def forward(self, z):
            return F.tanh(self.l(z))

    class Discriminator(chainer.Chain):
        def __init__(self):
            super(Discriminator, self).__init__()
            with self.init_scope():
                self.l = L.Linear(3, 1)

        def forward(self, x):
            return self.l(x)

    class WindowIterator(chainer.dataset.Iterator):
        """Walks the data in order, a window at a time."""

        def __init__(self, data, batch_size):
            self.data = data
            self.batch_size = batch_size
            self.position = 0
            self.epoch = 0
            self.is_new_epoch = False

        def __next__(self):
            batch = [self.data[(self.position + i) % len(self.data)]
                     for i in range(self.batch_size)]
            self.position += self.batch_size
            epoch = self.position // len(self.data)
            self.is_new_epoch = epoch > self.epoch
            self.epoch = epoch
            return batch

        @property
        def epoch_detail(self):
            return self.position / len(self.data)

        def serialize(self, serializer):
            self.position = serializer('position', self.position)
            self.epoch = serializer('epoch', self.epoch)

    class GANUpdater(training.updaters.StandardUpdater):
        def __init__(self, *args, **kwargs):
            self.gen, self.dis = kwargs.pop('models')
            super(GANUpdater, self).__init__(*args, **kwargs)

        def loss_dis(self, dis, y_fake, y_real):
            batchsize = len(y_fake)
            loss = (F.sum(F.softplus(-y_real)) +
                    F.sum(F.softplus(y_fake))) / batchsize
            chainer.report({'loss': loss}, dis)
            return loss

        def loss_gen(self, gen, y_fake):
            loss = F.sum(F.softplus(-y_fake)) / len(y_fake)
            chainer.report({'loss': loss}, gen)
            return loss

        def update_core(self):
            gen_optimizer = self.get_optimizer('gen')
            dis_optimizer = self.get_optimizer('dis')
            batch = self.get_iterator('main').next()
            x_real = chainer.Variable(self.converter(batch, self.device))
            y_real = self.dis(x_real)
            z = chainer.Variable(self.gen.make_hidden(len(batch)))
            x_fake = self.gen(z)
            y_fake = self.dis(x_fake)
            dis_optimizer.update(self.loss_dis, self.dis, y_fake, y_real)
            gen_optimizer.update(self.loss_gen, self.gen, y_fake)

    parser = argparse.ArgumentParser()
    parser.add_argument('--iteration', type=int, default=6)
    parser.add_argument('--out', default='result')
    parser.add_argument('--resume', default='')
    args = parser.parse_args()

    np.random.seed(0)
    gen, dis = Generator(), Discriminator()
    optimizers = {}
    for name, model in (('gen', gen), ('dis', dis)):
        optimizer = chainer.optimizers.Adam(alpha=0.01, beta1=0.5)
        optimizer.setup(model)
        optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))
        optimizers[name] = optimizer
    data = np.random.normal(size=(12, 3)).astype(np.float32)
    updater = GANUpdater(models=(gen, dis),
                         iterator=WindowIterator(data, 4),
                         optimizer=optimizers, device=-1)
    trainer = training.Trainer(updater, (args.iteration, 'iteration'),
                               out=args.out)
    trainer.extend(extensions.snapshot(
        filename='snapshot_iter_{.updater.iteration}.npz'),
        trigger=(3, 'iteration'))
    trainer.extend(extensions.snapshot_object(
        gen, 'gen_iter_{.updater.iteration}.npz'), trigger=(3, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(3, 'iteration')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'gen/loss', 'dis/loss']),
        trigger=(3, 'iteration'))
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)
        print('resumed at', updater.iteration, updater.epoch_detail)
    trainer.run()
    print('done', updater.iteration, optimizers['gen'].t,
          updater.get_iterator('main').position)
''')


def _write_mnist(root, n=40):
    rng = numpy.random.RandomState(0)
    folder = root / 'pfnet' / 'chainer' / 'mnist'
    folder.mkdir(parents=True)
    for part in ('train', 'test'):
        y = rng.randint(0, 10, n).astype(numpy.uint8)
        x = rng.randint(0, 256, (n, 784)).astype(numpy.uint8)
        numpy.savez(str(folder / (part + '.npz')), x=x, y=y)


def _run(program, args, tmp_path):
    script = tmp_path / 'program.py'
    script.write_text(program)
    env = dict(os.environ, CHAINER_DATASET_ROOT=str(tmp_path / 'data'))
    proc = subprocess.run(
        [sys.executable, '-m', 'chainerlite.compat', str(script)] + args,
        cwd=str(tmp_path),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_custom_loop_over_iterators_and_resume(tmp_path):
    _write_mnist(tmp_path / 'data')
    text = _run(_CUSTOM_LOOP, ['--out', 'first'], tmp_path)
    assert 'epoch 1 test accuracy' in text and 'epoch 2 test accuracy' in text
    assert 'updates 8' in text  # 40 samples in batches of 10, 2 epochs
    text = _run(
        _CUSTOM_LOOP, ['--epoch', '1', '--out', 'second', '--resume', 'first'], tmp_path
    )
    assert 'resumed at update 8' in text
    assert 'updates 12' in text


def test_custom_updater_with_two_optimizers_and_a_custom_iterator(tmp_path):
    text = _run(_CUSTOM_UPDATER, ['--out', 'run'], tmp_path)
    assert text.splitlines()[0].split() == [
        'epoch',
        'iteration',
        'gen/loss',
        'dis/loss',
    ]
    assert 'done 6 6 24' in text
    assert sorted(os.listdir(str(tmp_path / 'run'))) == [
        'gen_iter_3.npz',
        'gen_iter_6.npz',
        'log',
        'snapshot_iter_3.npz',
        'snapshot_iter_6.npz',
    ]
    text = _run(
        _CUSTOM_UPDATER,
        [
            '--iteration',
            '9',
            '--out',
            'run',
            '--resume',
            str(tmp_path / 'run' / 'snapshot_iter_6.npz'),
        ],
        tmp_path,
    )
    assert 'resumed at 6 2.0' in text
    assert 'done 9 9 36' in text
