import io

import numpy as np
import pytest

import chainerlite
from chainerlite import dataset
from chainerlite import optimizers
from chainerlite import training
from chainerlite.training import extensions


def test_evaluator_reports_means_under_its_name(ListIterator, Regressor, data):
    model = Regressor()
    iterator = ListIterator(data, 3, repeat=False)
    evaluator = extensions.Evaluator(iterator, model)
    x = np.stack([x for x, _ in data])
    t = np.stack([t for _, t in data])
    err = (model.l(x).array - t) ** 2
    # Batches of 3, 3 and 2 examples; each batch reports its mean loss.
    expected = np.mean([err[0:3].mean(), err[3:6].mean(), err[6:8].mean()])
    reporter = chainerlite.Reporter()
    with reporter:
        result = evaluator()
    assert list(result) == ['main/loss']
    np.testing.assert_allclose(result['main/loss'], expected, rtol=1e-5)
    assert reporter.observation == result
    # The iterator is reset at each evaluation.
    reporter.add_observer('main', model)
    with reporter:
        again = evaluator.evaluate()
    np.testing.assert_allclose(again['main/loss'], expected, rtol=1e-5)


def test_evaluator_in_a_trainer(ListIterator, Regressor, data, tmp_path):
    model = Regressor()
    optimizer = optimizers.SGD(lr=0.1)
    optimizer.setup(model)
    updater = training.updaters.StandardUpdater(ListIterator(data, 4), optimizer)
    trainer = training.Trainer(updater, (2, 'epoch'), out=str(tmp_path))
    modes = []

    def eval_hook(evaluator):
        modes.append(chainerlite.config.train)

    trainer.extend(
        extensions.Evaluator(
            ListIterator(data, 4, repeat=False), model, eval_hook=eval_hook
        )
    )
    log = extensions.LogReport()
    trainer.extend(log)
    trainer.run()
    assert modes == [False, False]  # once per epoch, in test mode
    assert [sorted(e) for e in log.log][0] == [
        'elapsed_time',
        'epoch',
        'iteration',
        'main/loss',
        'validation/main/loss',
    ]
    assert log.log[1]['validation/main/loss'] < log.log[0]['validation/main/loss']


def test_evaluator_turns_train_mode_and_backprop_off(ListIterator):
    seen = []

    def eval_func(x):
        seen.append(
            (chainerlite.config.train, chainerlite.config.enable_backprop, x.shape)
        )

    evaluator = extensions.Evaluator(
        ListIterator([np.zeros(2, np.float32)] * 3, 2, repeat=False),
        {},
        eval_func=eval_func,
        converter=dataset.concat_examples,
    )
    assert evaluator() == {}
    assert seen == [(False, False, (2, 2)), (False, False, (1, 2))]


def test_repeating_iterator_warns_and_progress_bar_runs(ListIterator, monkeypatch):
    with pytest.warns(UserWarning, match='repeat'):
        extensions.Evaluator(ListIterator([1], 1, repeat=True), {})

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr('sys.stdout', terminal)
    evaluator = extensions.Evaluator(
        ListIterator([np.zeros(1, np.float32)] * 4, 2, repeat=False),
        {},
        eval_func=lambda x: None,
        progress_bar=True,
    )
    evaluator()
    assert '(4/4 examples' in terminal.getvalue()
    with pytest.raises(TypeError):
        extensions.Evaluator(ListIterator([1], 1, repeat=False), {}, progressbar=True)


def test_iterator_without_reset_is_copied_with_a_deprecation_warning(Regressor, data):
    # as Chainer 7.8.1's (found by the surface probes,
    # tools/surface_probes/extensions_extra.py)
    class Batches(dataset.Iterator):
        def __init__(self):
            self.given = 0

        def __next__(self):
            if self.given == 2:
                raise StopIteration
            self.given += 1
            return data[:4]

    iterator = Batches()
    evaluator = extensions.Evaluator(iterator, Regressor())
    with pytest.warns(DeprecationWarning, match='reset'):
        result = evaluator()
    assert list(result) == ['main/loss']
    assert iterator.given == 0  # a copy was used up
