import io
import sys

import numpy as np
import pytest

import chainerlite
from chainerlite import dataset
from chainerlite import optimizers
from chainerlite import serializers
from chainerlite import training
from chainerlite.training.updaters import multiprocess_parallel_updater as mpu


@pytest.fixture
def setup(ListIterator, Regressor, data):
    def make(batch_size=4, **kwargs):
        model = Regressor()
        optimizer = optimizers.SGD(lr=0.1)
        optimizer.setup(model)
        iterator = ListIterator(data, batch_size)
        updater = training.updaters.StandardUpdater(iterator, optimizer, **kwargs)
        return model, optimizer, iterator, updater

    return make


def test_standard_updater_trains_and_counts_epochs(setup):
    model, optimizer, iterator, updater = setup()
    x = np.stack([x for x, _ in iterator.dataset])
    t = np.stack([t for _, t in iterator.dataset])
    # Reference: one SGD step on each half of the data, by hand.
    W, b = model.l.W.array.copy(), model.l.b.array.copy()
    for part in (slice(0, 4), slice(4, 8)):
        err = x[part] @ W.T + b - t[part]
        gW = 2 * err.T @ x[part] / err.size
        gb = 2 * err.sum(axis=0) / err.size
        W, b = W - 0.1 * gW, b - 0.1 * gb
    updater.update()
    assert updater.iteration == 1 and updater.epoch == 0
    assert optimizer.epoch == 0
    updater.update()
    assert updater.epoch == 1 and updater.is_new_epoch
    assert optimizer.epoch == 1 and optimizer.use_auto_new_epoch
    np.testing.assert_allclose(model.l.W.array, W, rtol=1e-5)
    np.testing.assert_allclose(model.l.b.array, b, rtol=1e-5)
    assert updater.epoch_detail == 1.0
    assert updater.previous_epoch_detail == 0.5
    assert updater.get_iterator('main') is iterator
    assert updater.get_all_optimizers() == {'main': optimizer}
    updater.finalize()
    assert iterator.finalized


def test_loss_func_converter_outputs_and_device(setup, Regressor):
    seen = []

    @dataset.converter()
    def to_dict(batch, device):
        seen.append(device)
        x, t = dataset.concat_examples(batch, device)
        return {'x': x, 't': t}

    model, optimizer, _, updater = setup(
        converter=to_dict,
        device='@numpy',
        loss_func=lambda x, t: Regressor.forward(optimizer.target, x, t),
    )
    updater.update()
    assert seen == [chainerlite.backend.CpuDevice()]
    assert updater.device == chainerlite.backend.CpuDevice()
    assert updater.input_device == updater.device

    def old_style(batch, device):
        seen.append(device)
        return dataset.concat_examples(batch)

    _, _, _, updater = setup(converter=old_style, device=-1)
    updater.update()
    assert seen[-1] == -1


def test_converter_with_wrong_arity_is_a_clear_error(setup):
    def three(batch, device):
        x, t = dataset.concat_examples(batch)
        return x, t, t

    _, _, _, updater = setup(converter=three)
    with pytest.raises(TypeError, match='argument'):
        updater.update()


@pytest.mark.skipif(
    sys.version_info < (3, 11), reason='exception notes are new in Python 3.11'
)
@pytest.mark.parametrize(
    'output, given',
    [
        (
            lambda x, t: (x, t, t),
            'a tuple of 3 values (shape (3, 3), shape (3,), '
            'shape (3,)), as positional arguments',
        ),
        (lambda x, t: x, 'one value (shape (3, 3))'),
    ],
)
def test_converter_output_that_does_not_fit_a_classifier_is_explained(output, given):
    model = chainerlite.links.Classifier(chainerlite.links.Linear(3, 2))
    optimizer = optimizers.SGD()
    optimizer.setup(model)
    data = chainerlite.datasets.TupleDataset(
        np.ones((6, 3), np.float32), np.zeros(6, np.int32)
    )

    def converter(batch, device):
        return output(*dataset.concat_examples(batch))

    updater = training.updaters.StandardUpdater(
        chainerlite.iterators.SerialIterator(data, 3), optimizer, converter=converter
    )
    with pytest.raises((TypeError, ValueError)) as error:
        updater.update()
    assert error.value.__notes__ == [
        'StandardUpdater: the loss function Classifier was called with the '
        "converter's output, " + given + '; check that the converter '
        'returns what the loss function takes'
    ]


def test_bad_arguments(setup, Regressor):
    with pytest.raises(TypeError, match='unexpected'):
        setup(devices=1)
    model = Regressor()
    optimizer = optimizers.SGD()
    optimizer.setup(model)
    # as in Chainer, iterators without 'main' are accepted; what needs it
    # (the epoch, a batch) raises KeyError
    updater = training.updaters.StandardUpdater({'train': None}, optimizer)
    for read in (
        lambda: updater.epoch,
        lambda: updater.epoch_detail,
        lambda: updater.previous_epoch_detail,
        lambda: updater.is_new_epoch,
        updater.update,
    ):
        with pytest.raises(KeyError, match=r"no iterator is named 'main'.*\['train'\]"):
            read()
    assert updater.iteration == 0


def test_optimizers_of_other_names_need_an_update_core(setup):
    model, optimizer, iterator, _ = setup()
    updater = training.updaters.StandardUpdater(iterator, {'gen': optimizer})
    assert updater.get_optimizer('gen') is optimizer
    with pytest.raises(KeyError, match=r"named 'main'.*\['gen'\]"):
        updater.update()
    assert updater.iteration == 0 and iterator.current == 0


def test_standard_updater_serialize_resumes_mid_epoch(setup):
    model, optimizer, iterator, updater = setup(batch_size=3)
    updater.update()
    buf = io.BytesIO()
    serializers.save_npz(buf, updater)
    model2, optimizer2, iterator2, updater2 = setup(batch_size=3)
    buf.seek(0)
    serializers.load_npz(buf, updater2)
    assert updater2.iteration == 1 and iterator2.current == 3
    np.testing.assert_array_equal(model2.l.W.array, model.l.W.array)
    updater.update()
    updater2.update()
    np.testing.assert_array_equal(model2.l.W.array, model.l.W.array)


def test_parallel_updater_sums_the_gradients_of_the_parts_on_cpu(setup):
    model, optimizer, iterator, _ = setup()
    x = np.stack([x for x, _ in iterator.dataset[:4]])
    t = np.stack([t for _, t in iterator.dataset[:4]])
    W, b = model.l.W.array.copy(), model.l.b.array.copy()
    gW, gb = 0, 0
    for part in ([0, 2], [1, 3]):  # batch[i::2] goes to the i-th model
        err = x[part] @ W.T + b - t[part]
        gW = gW + 2 * err.T @ x[part] / err.size
        gb = gb + 2 * err.sum(axis=0) / err.size
    parallel = training.updaters.ParallelUpdater(
        iterator, optimizer, devices={'main': '@numpy', 'second': '@numpy'}
    )
    trainer = training.Trainer(parallel, (2, 'iteration'))
    assert 'second' in trainer.reporter._observer_names.values()
    parallel.update()
    assert parallel.iteration == 1
    np.testing.assert_allclose(model.l.W.array, W - 0.1 * gW, rtol=1e-5)
    np.testing.assert_allclose(model.l.b.array, b - 0.1 * gb, rtol=1e-5)
    copy_model = parallel._models['second']
    assert copy_model is not model
    np.testing.assert_array_equal(copy_model.l.W.array, model.l.W.array)
    with pytest.raises(KeyError, match='main'):
        training.updaters.ParallelUpdater(iterator, optimizer, devices={'a': '@numpy'})
    with pytest.raises(ValueError):
        training.updaters.ParallelUpdater(iterator, optimizer)


def _parallel(setup):
    model, optimizer, iterator, _ = setup(batch_size=2)
    devices = {'main': '@numpy', 'second': '@numpy'}
    updater = training.updaters.ParallelUpdater(iterator, optimizer, devices=devices)
    return model, updater


def test_parallel_updater_resumed_steps_as_the_straight_run(setup):
    # only 'main' is in a snapshot: the copy must get the loaded parameters,
    # else the first resumed step uses the copy's parameters of before
    model, straight = _parallel(setup)
    straight.update()
    buf = io.BytesIO()
    serializers.save_npz(buf, straight)
    straight.update()
    model2, resumed = _parallel(setup)
    buf.seek(0)
    serializers.load_npz(buf, resumed)
    resumed.update()
    np.testing.assert_array_equal(model2.l.W.array, model.l.W.array)
    np.testing.assert_array_equal(model2.l.b.array, model.l.b.array)


def test_parallel_updater_trains_under_no_backprop_mode(setup):
    # as Chainer's, it forces backprop mode for the losses it backpropagates
    model, updater = _parallel(setup)
    W = model.l.W.array.copy()
    with chainerlite.no_backprop_mode():
        updater.update()
    assert not np.array_equal(model.l.W.array, W)


def test_multiprocess_parallel_updater_without_nccl(Regressor, ListIterator):
    model = Regressor()
    with pytest.raises(RuntimeError, match='GPU'):
        mpu.gather_grads(model)
    with pytest.raises(RuntimeError, match='GPU'):
        mpu.gather_params(model)
    if not mpu.MultiprocessParallelUpdater.available():
        optimizer = optimizers.SGD()
        optimizer.setup(model)
        with pytest.raises(RuntimeError, match='NCCL'):
            mpu.MultiprocessParallelUpdater(
                [ListIterator([1], 1)], optimizer, devices=[0]
            )


def test_devices_are_read_only_properties(setup):
    # Chainer 7.8.1: StandardUpdater.device and input_device are properties
    # without a setter (found by the differential harness)
    *_, updater = setup()
    assert isinstance(training.updaters.StandardUpdater.device, property)
    assert isinstance(training.updaters.StandardUpdater.input_device, property)
    assert updater.device is None and updater.input_device is None
    with pytest.raises(AttributeError):
        updater.device = chainerlite.get_device('@numpy')


def test_loss_scale_is_kept_as_an_attribute(setup):
    # Chainer 7.8.1's updater keeps the factor it sets on the optimizers
    # (found by the surface probes, tools/surface_probes/updaters.py)
    _, optimizer, _, updater = setup()
    assert updater.loss_scale is None and optimizer._loss_scale is None
    _, optimizer, _, updater = setup(loss_scale=8.0)
    assert updater.loss_scale == 8.0 and optimizer._loss_scale == 8.0


def test_parallel_updater_registers_only_the_copies_themselves(setup):
    # as Chainer's connect_trainer: the copy is an observer under its name,
    # the links inside it are not
    _, updater = _parallel(setup)
    trainer = training.Trainer(updater, (1, 'iteration'))
    names = set(trainer.reporter._observer_names.values())
    assert 'second' in names and 'main/l' in names
    assert not any(name.startswith('second/') for name in names)


def test_parallel_updater_of_given_models(setup, Regressor):
    # as Chainer's: the models need no 'main' entry; the gradients of those
    # that are not the optimizer's target are added to it, and the devices
    # given go to the converter (found by the surface probes,
    # tools/surface_probes/updaters.py)
    model, optimizer, iterator, _ = setup()
    other = Regressor()
    devices = []

    def converter(batch, device):
        devices.append(device)
        return dataset.concat_examples(batch)

    updater = training.updaters.ParallelUpdater(
        iterator,
        optimizer,
        converter=converter,
        models={'other': other},
        devices={'other': -1},
    )
    trainer = training.Trainer(updater, (1, 'iteration'))
    assert 'other' in trainer.reporter._observer_names.values()
    W = model.l.W.array.copy()
    updater.update()
    assert devices == [-1]
    assert not np.array_equal(model.l.W.array, W)
    np.testing.assert_array_equal(other.l.W.array, model.l.W.array)
    # without devices (Chainer 7.8.1 fails at the update): each model's part
    # goes where the model is
    updater = training.updaters.ParallelUpdater(
        iterator, optimizer, models={'main': model, 'other': other}
    )
    updater.update()
    assert updater.iteration == 1
