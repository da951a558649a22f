import io
import multiprocessing
import pickle
import sys

import pytest

from chainerlite import datasets


def test_write_then_read_in_any_order(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as writer:
        for example in (1, 'two', {'three': [3]}):
            writer.write(example)
    with datasets.open_pickle_dataset(path) as ds:
        assert len(ds) == 3
        assert ds[2] == {'three': [3]} and ds[0] == 1 and ds[1] == 'two'
        # a DatasetMixin with get_example, as Chainer's: slices and lists
        assert ds.get_example(1) == 'two' and ds[-1] == {'three': [3]}
        assert ds[:2] == [1, 'two'] and ds[[2, 0]] == [{'three': [3]}, 1]
        clone = pickle.loads(pickle.dumps(ds))
        assert clone[1] == 'two'
        clone.close()


def test_in_memory_file():
    buf = io.BytesIO()
    writer = datasets.PickleDatasetWriter(buf)
    writer.write(5)
    writer.flush()
    assert datasets.PickleDataset(buf)[0] == 5


def _read_in_child(ds, queue):
    queue.put([ds[1], ds[0]])


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='fork')
def test_forked_children_read_their_own_file(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as writer:
        writer.write('a')
        writer.write('b')
    ds = datasets.open_pickle_dataset(path)
    ctx = multiprocessing.get_context('fork')
    queue = ctx.Queue()
    child = ctx.Process(target=_read_in_child, args=(ds, queue))
    child.start()
    assert queue.get(timeout=30) == ['b', 'a']
    child.join()
    assert ds[0] == 'a'
    ds.close()
