import os

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import optimizers
from chainerlite import testing
from chainerlite import training
from chainerlite.training import extensions
from chainerlite.training.extensions import variable_statistics_plot as vsp


@pytest.fixture
def trained(ListIterator, Regressor, data, tmp_path):
    def make(iterations, *exts):
        model = Regressor()
        optimizer = optimizers.SGD(lr=0.1)
        optimizer.setup(model)
        updater = training.updaters.StandardUpdater(ListIterator(data, 4), optimizer)
        trainer = training.Trainer(
            updater, (iterations, 'iteration'), out=str(tmp_path)
        )
        for ext in exts:
            trainer.extend(ext, trigger=(1, 'iteration'))
        return trainer, model

    return make


def test_fail_on_nonnumber(trained):
    trainer, model = trained(2, extensions.FailOnNonNumber())
    trainer.run()
    trainer, model = trained(2, extensions.FailOnNonNumber())
    model.l.W.array[0, 1] = np.inf
    with (
        pytest.raises(RuntimeError, match='NaN or infinity'),
        np.errstate(invalid='ignore'),
    ):
        trainer.run(show_loop_exception_msg=False)


def test_fail_on_nonnumber_checks_the_values_only(trained):
    # as Chainer 7.8.1's: a gradient that is not finite is not checked, and
    # the extension takes no arguments (found by the surface probes,
    # tools/surface_probes/extensions_extra.py)
    trainer, model = trained(1)
    model.l.W.grad = np.full_like(model.l.W.array, np.nan)
    extensions.FailOnNonNumber()(trainer)
    with pytest.raises(TypeError):
        extensions.FailOnNonNumber(check_grad=True)


def test_observe_value_and_lr(trained):
    seen = []
    trainer, _ = trained(
        2,
        extensions.observe_lr(),
        extensions.observe_value('it', lambda t: t.updater.iteration * 2),
    )
    trainer.extend(lambda t: seen.append((t.observation['lr'], t.observation['it'])))
    trainer.run()
    assert seen == [(0.1, 2), (0.1, 4)]
    ext = extensions.observe_lr()
    assert ext.trigger == (1, 'epoch')
    assert ext.priority == training.PRIORITY_WRITER


def test_micro_average(tmp_path):
    trainer = testing.get_trainer_with_mock_updater((4, 'iteration'))
    counts = iter([(1, 2), (3, 4), (0, 2), (2, 2)])

    def report(t):
        correct, total = next(counts)
        t.observation['correct'] = np.array(correct)
        t.observation['total'] = chainerlite.Variable(np.array(total))

    seen = []
    trainer.extend(report, priority=training.PRIORITY_WRITER)
    trainer.extend(
        extensions.MicroAverage(
            'correct', 'total', 'accuracy', trigger=(2, 'iteration')
        )
    )
    trainer.extend(lambda t: seen.append(t.observation.get('accuracy')), priority=0)
    trainer.out = str(tmp_path)
    trainer.updater.update_core = lambda: None
    trainer.run()
    assert seen[0] is None and seen[2] is None
    assert float(seen[1]) == pytest.approx(4 / 6)
    assert float(seen[3]) == pytest.approx(2 / 4)


def test_unchain_variables_cuts_the_reported_graph():
    x = chainerlite.Variable(np.ones(2, np.float32))
    y = F.sum(x * 2.0)
    trainer = testing.get_trainer_with_mock_updater()
    trainer.observation = {'y': y, 'number': 1.0}
    assert y.creator is not None
    ext = extensions.unchain_variables()
    ext(trainer)
    assert y.creator is None
    assert ext.priority == 0  # after every other extension, as Chainer's


def test_unchain_variables_fires_where_the_flag_was_on():
    # Chainer 7.8.1: the trigger answers the flag as it was at the
    # previous check (at initialization for the first)
    ext = extensions.unchain_variables()
    with chainerlite.using_config('keep_graph_on_report', True):
        ext.initialize(None)
    fired = []
    for flag in (False, True, True, False):
        with chainerlite.using_config('keep_graph_on_report', flag):
            fired.append(bool(ext.trigger(None)))
    assert fired == [True, False, True, True]


def test_parameter_statistics_values_and_keys(trained):
    link = L.Linear(3, 2)
    link.W.grad = np.zeros((2, 3), np.float32)
    stats = extensions.ParameterStatistics(link, prefix='p', trigger=lambda t: True)
    trainer = testing.get_trainer_with_mock_updater()
    reporter = chainerlite.Reporter()
    observation = {}
    with reporter.scope(observation):
        stats(trainer)
    W = link.W.array.ravel()
    assert observation['p/None/W/data/mean'] == pytest.approx(W.mean())
    assert observation['p/None/W/data/std'] == pytest.approx(W.std())
    assert observation['p/None/W/data/zeros'] == np.count_nonzero(W == 0)
    np.testing.assert_allclose(
        [observation['p/None/W/data/percentile/%d' % i] for i in range(7)],
        np.percentile(W, [0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87]),
    )
    assert observation['p/None/W/grad/zeros'] == 6
    link.W.array[0, 0] = np.nan
    only = extensions.ParameterStatistics(
        link,
        statistics=None,
        report_grads=False,
        skip_nan_params=True,
        trigger=lambda t: True,
    )
    only.register_statistics('first', lambda x: x[1])
    observation = {}
    with reporter.scope(observation):
        only(trainer)
    assert np.isnan(observation['None/W/data/first'])
    assert observation['None/b/data/first'] == link.b.array[1]


def test_parameter_statistics_reports_means_at_its_own_trigger():
    # Chainer 7.8.1: called at every iteration (the class's trigger), it
    # collects the statistics and reports their means when the trigger
    # given to it fires (found by the differential harness)
    assert extensions.ParameterStatistics.trigger == (1, 'iteration')
    link = L.Linear(1, 1, initialW=np.ones((1, 1), np.float32))
    fire = iter([False, True, True])
    stats = extensions.ParameterStatistics(
        link,
        statistics={'max': np.max},
        report_grads=False,
        trigger=lambda t: next(fire),
    )
    reported = []
    for value in (1.0, 3.0, 5.0):
        link.W.array[...] = value
        observation = {}
        with chainerlite.Reporter().scope(observation):
            stats(None)
        reported.append(observation.get('None/W/data/max'))
    assert reported == [None, 2.0, 5.0]


def test_dump_graph_writes_the_first_iteration_graph(trained, tmp_path):
    trainer, _ = trained(2)
    trainer.extend(extensions.DumpGraph('main/loss', filename='g.dot'))
    with chainerlite.using_config('keep_graph_on_report', False):
        trainer.run()
        assert chainerlite.config.keep_graph_on_report is False
    with open(str(tmp_path / 'g.dot')) as f:
        dot = f.read()
    assert dot.startswith('digraph') and 'MeanSquaredError' in dot
    trainer, _ = trained(1)
    assert extensions.dump_graph is extensions.DumpGraph  # a class in Chainer
    trainer.extend(extensions.dump_graph('missing/key'))
    with pytest.raises(KeyError, match='missing/key'):
        trainer.run(show_loop_exception_msg=False)


def test_dump_graph_trigger_and_state_as_chainer(tmp_path):
    # Chainer 7.8.1: the trigger fires once; out_name= is the older
    # filename; its state is saved under _original_flag and _flag_called
    ext = extensions.DumpGraph('y', out_name='old.dot')
    with chainerlite.using_config('keep_graph_on_report', False):
        ext.initialize(None)
        assert chainerlite.config.keep_graph_on_report is True
        assert [ext.trigger(None) for _ in range(3)] == [True, False, False]
        trainer = testing.get_trainer_with_mock_updater()
        trainer.out = str(tmp_path)
        trainer.observation = {'y': 1.0}
        with pytest.raises(TypeError, match='not a Variable'):
            ext(trainer)
        assert chainerlite.config.keep_graph_on_report is False
        trainer.observation = {'y': F.sum(chainerlite.Variable(np.ones(2)))}
        ext(trainer)
    assert (tmp_path / 'old.dot').exists()
    state = {}
    ext.serialize(chainerlite.serializers.DictionarySerializer(state))
    assert state == {'_original_flag': False, '_flag_called': True}
    fresh = extensions.DumpGraph('y')
    fresh.serialize(chainerlite.serializers.NpzDeserializer(state))
    assert fresh.trigger(None) is False
    with pytest.raises(TypeError, match='unexpected keyword'):
        extensions.DumpGraph('y', outname='x.dot')


def test_reservoir_and_statistician():
    reservoir = vsp.Reservoir(3, (2,))
    for i in range(10):
        reservoir.add(np.full(2, i, np.float32))
    idxs, data = reservoir.get_data()
    assert len(idxs) == 3 and list(idxs) == sorted(idxs)
    np.testing.assert_array_equal(data[:, 0], idxs)
    x = np.arange(12.0).reshape(3, 4)
    stats = vsp.Statistician(True, True, (0, 50, 100))(x, axis=0)
    np.testing.assert_allclose(stats['mean'], x.mean(axis=0))
    np.testing.assert_allclose(stats['std'], x.std(axis=0))
    np.testing.assert_allclose(
        stats['percentile'], [x.min(0), np.median(x, 0), x.max(0)]
    )


def test_variable_statistics_plot(trained, tmp_path):
    pytest.importorskip('matplotlib')
    trainer, model = trained(2)
    trainer.extend(
        extensions.VariableStatisticsPlot(
            model, trigger=(1, 'iteration'), filename='stats.png'
        )
    )
    trainer.run()
    with open(str(tmp_path / 'stats.png'), 'rb') as f:
        assert f.read(4) == b'\x89PNG'


def test_variable_statistics_plot_samples_at_each_call(trained, tmp_path):
    # as Chainer 7.8.1's: its trigger says when to draw; the extension
    # samples at each call (found reading Chainer's source beside the
    # surface probes)
    pytest.importorskip('matplotlib')
    trainer, model = trained(3)
    ext = extensions.VariableStatisticsPlot(model, trigger=(2, 'iteration'))
    trainer.extend(ext)
    trainer.run()
    assert [r.counter for r in ext._reservoirs.values()] == [3, 3]
    assert os.listdir(str(tmp_path)) == ['statistics.png']


def test_variable_statistics_plot_with_a_given_pyplot(trained, tmp_path):
    # Chainer 7.8.1's available() and save_plot_using_module(file_path, plt)
    pytest.importorskip('matplotlib')
    import matplotlib.pyplot as plt

    assert extensions.VariableStatisticsPlot.available() is True
    trainer, model = trained(1)
    ext = extensions.VariableStatisticsPlot(model, trigger=(1, 'iteration'))
    trainer.extend(ext)
    trainer.run()
    path = str(tmp_path / 'again.pdf')
    ext.save_plot_using_module(path, plt)
    with open(path, 'rb') as f:
        assert f.read(4) == b'%PDF'


def test_micro_average_sums_keep_the_observed_type():
    # Chainer 7.8.1: the running sums start at int 0, so int observations
    # are saved as ints (found by the differential harness)
    average = extensions.MicroAverage('n', 'd', 'r', trigger=lambda t: False)
    trainer = testing.get_trainer_with_mock_updater()
    trainer.observation = {'n': 2, 'd': 3}
    average(trainer)
    target = chainerlite.serializers.DictionarySerializer()
    target.save(average)
    assert target.target['_numerator'].dtype.kind == 'i'
    assert int(target.target['_denominator']) == 3


def _micro_average_run(start, stop, state=None):
    # MicroAverage over (5, 'iteration') called at iterations start+1..stop
    # of a mock trainer; returns the iterations where it reported and its
    # snapshot state
    trainer = testing.get_trainer_with_mock_updater((stop, 'iteration'))
    trainer.updater.iteration = start
    average = extensions.MicroAverage('n', 'd', 'r', trigger=(5, 'iteration'))
    if state is not None:
        chainerlite.serializers.NpzDeserializer(state).load(average)
    reported = []
    for it in range(start + 1, stop + 1):
        trainer.updater.iteration = it
        trainer.updater.epoch_detail = it / 100
        trainer.observation = {'n': 1, 'd': 1}
        with chainerlite.reporter.Reporter().scope(trainer.observation):
            average(trainer)
        if 'r' in trainer.observation:
            reported.append(it)
    target = chainerlite.serializers.DictionarySerializer()
    target.save(average)
    return reported, target.target


def test_micro_average_snapshot_holds_what_chainers_holds_and_resumes():
    # Chainer's snapshot holds the sums only (no trigger position); once
    # loaded, the trigger fires where the uninterrupted run would
    reported, state = _micro_average_run(0, 7)
    assert reported == [5]
    assert sorted(state) == ['_denominator', '_numerator']
    resumed, _ = _micro_average_run(7, 12, state)
    assert resumed == [10]
