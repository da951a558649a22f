import pickle

import pytest

from chainerlite import datasets


@pytest.fixture
def files(tmp_path):
    a = tmp_path / 'a.txt'
    b = tmp_path / 'b.txt'
    a.write_bytes('h\u00e9\r\nworld\r\n\r\nend'.encode('utf-8'))
    b.write_text('1\n2\n3\n4\n', encoding='utf-8')
    return str(a), str(b)


def test_lines_of_one_file(files):
    ds = datasets.TextDataset(files[0], encoding='utf-8')
    assert ds[:] == ['h\u00e9\n', 'world\n', '\n', 'end']
    raw = datasets.TextDataset([files[0]], encoding='utf-8', newline='')
    assert raw[0] == 'h\u00e9\r\n'
    ascii_ = datasets.TextDataset(files[0], encoding='ascii', errors='ignore')
    assert ascii_[0] == 'h\n'
    for d in (ds, raw, ascii_):
        d.close()
    with pytest.raises(ValueError):
        ds[0]


def test_parallel_files_filter_and_pickle(files):
    ds = datasets.TextDataset(
        list(files), encoding=['utf-8', 'ascii'], filter_func=lambda x, y: y != '2\n'
    )
    assert len(ds) == 3 and ds[1] == ('\n', '3\n')
    assert ds.get_example(idx=1) == ds[1]  # Chainer's parameter name
    clone = pickle.loads(pickle.dumps(ds))
    assert clone[2] == ('end', '4\n')
    ds.close()
    clone.close()


def test_files_of_different_lengths(files, tmp_path):
    short = tmp_path / 'short.txt'
    short.write_text('x\n')
    with pytest.raises(ValueError, match='numbers of lines'):
        datasets.TextDataset([files[1], str(short)])


def test_workers_read_their_own_files(files):
    from chainerlite import iterators

    ds = datasets.TextDataset(files[1])
    it = iterators.MultiprocessIterator(
        ds, 4, n_processes=2, shuffle=False, repeat=False
    )
    assert it.next() == ['1\n', '2\n', '3\n', '4\n']
    it.finalize()
    assert ds[3] == '4\n'
    ds.close()


def test_no_file_is_refused():
    # Chainer's ValueError; chainerlite made an empty dataset
    with pytest.raises(ValueError, match='at least one'):
        datasets.TextDataset([])


def test_threads_read_the_lines_they_ask_for(tmp_path):
    # each read is a seek and a readline on one file object; threads that
    # interleaved them got other lines than they asked for
    from chainerlite import iterators

    lines = ['line {} {}\n'.format(i, 'x' * (i % 50)) for i in range(3000)]
    path = tmp_path / 'many.txt'
    path.write_text(''.join(lines))
    ds = datasets.TextDataset(str(path))
    it = iterators.MultithreadIterator(ds, 64, repeat=False, shuffle=False, n_threads=4)
    assert [line for batch in it for line in batch] == lines
    it.finalize()
    ds.close()


def test_negative_indices_are_refused(files):
    # Chainer's TextDataset counts no index from the end
    ds = datasets.TextDataset(files[1])
    assert ds[3] == '4\n'
    for idx in (-1, -4, 4):
        with pytest.raises(IndexError):
            ds[idx]
    ds.close()
