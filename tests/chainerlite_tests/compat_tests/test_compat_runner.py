import json
import os
import subprocess
import sys
import textwrap

import pytest

# A program written the way Chainer's examples are: it imports chainer only.
_PROGRAM = textwrap.dedent('''
    import argparse

    import numpy as np
    import chainer
    import chainer.functions as F
    import chainer.links as L
    from chainer import training
    from chainer.training import extensions
    import chainerx

    parser = argparse.ArgumentParser()
    parser.add_argument('--epoch', type=int, default=2)
    parser.add_argument('--out', default='result')
    args = parser.parse_args()

    assert chainer.__name__ == 'chainerlite', chainer.__name__
    assert not chainerx.is_available()

    rng = np.random.RandomState(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    t = (x[:, 0] > 0).astype(np.int32)
    train = chainer.datasets.TupleDataset(x[:48], t[:48])
    test = chainer.datasets.TupleDataset(x[48:], t[48:])
    model = L.Classifier(L.Linear(4, 2))
    optimizer = chainer.optimizers.SGD(lr=0.5)
    optimizer.setup(model)
    train_iter = chainer.iterators.SerialIterator(train, 16)
    test_iter = chainer.iterators.SerialIterator(test, 16, repeat=False,
                                                 shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/accuracy']))
    trainer.run()
    print('done', len(trainer.get_extension('LogReport').log))
''')


def _run(args, cwd, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, '-m', 'chainerlite.compat'] + args,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_runs_a_chainer_program_unchanged(tmp_path):
    script = tmp_path / 'train.py'
    script.write_text(_PROGRAM)
    out = tmp_path / 'out'
    proc = _run([str(script), '--epoch', '3', '--out', str(out)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert 'done 3' in proc.stdout
    assert 'main/loss' in proc.stdout
    log = json.loads((out / 'log').read_text())
    assert [entry['epoch'] for entry in log] == [1, 2, 3]
    assert log[-1]['main/loss'] < log[0]['main/loss']


def test_a_missing_submodule_stays_missing(tmp_path):
    script = tmp_path / 'missing.py'
    script.write_text('import chainer.no_such_module\n')
    proc = _run([str(script)], tmp_path)
    assert proc.returncode != 0
    assert "No module named 'chainer.no_such_module'" in proc.stderr


def test_says_when_a_real_chainer_is_shadowed(tmp_path):
    fake = tmp_path / 'site' / 'chainer'
    fake.mkdir(parents=True)
    (fake / '__init__.py').write_text('raise RuntimeError("real chainer")\n')
    script = tmp_path / 'probe.py'
    script.write_text('import chainer\nprint(chainer.__name__)\n')
    proc = _run([str(script)], tmp_path, {'PYTHONPATH': str(tmp_path / 'site')})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == 'chainerlite'
    assert 'a real Chainer is installed at' in proc.stderr
    assert str(fake) in proc.stderr


@pytest.mark.parametrize('args', [[], ['no_such_script.py']])
def test_usage_errors(tmp_path, args):
    proc = _run(args, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr


def test_chainermn_is_answered_too(tmp_path):
    script = tmp_path / 'uses_chainermn.py'
    script.write_text(
        textwrap.dedent('''
        import chainermn
        from chainermn.communicators import naive_communicator
        from chainermn.datasets import scatter
        print(chainermn.__name__, naive_communicator.__name__,
              scatter._scatter_index.__module__)
    ''')
    )
    out = subprocess.run(
        [sys.executable, '-m', 'chainerlite.compat', str(script)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        'chainerlite.chainermn',
        'chainerlite.chainermn.communicators.naive_communicator',
        'chainerlite.chainermn.datasets.scatter',
    ]


def test_metadata_answers_for_chainer(tmp_path):
    script = tmp_path / 'probe.py'
    script.write_text(
        'import importlib.metadata as m\n'
        'import chainer\n'
        "print(m.version('chainer'), m.version('Chainer'), chainer.__version__)\n"
        "print(m.distribution('chainer').metadata['Summary'])\n"
    )
    proc = _run([str(script)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == '7.8.1 7.8.1 7.8.1'
    assert lines[1].startswith('chainerlite ') and lines[1].endswith(
        ' answering for Chainer'
    )


def test_importing_an_alias_submodule_keeps_the_package_attribute(tmp_path):
    # onnx_chainer.export is the function; importing the module
    # onnx_chainer.export under its alias name must not rebind it
    pytest.importorskip('onnx', reason='the onnx package is not installed')
    script = tmp_path / 'uses_onnx_chainer.py'
    script.write_text(
        textwrap.dedent('''
        import onnx_chainer
        from onnx_chainer.export import RetainInputHook
        import onnx_chainer.export
        from onnx_chainer import export
        print(type(export).__name__, RetainInputHook.__module__)
    ''')
    )
    proc = _run([str(script)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ['function', 'chainerlite.onnx.retain']
