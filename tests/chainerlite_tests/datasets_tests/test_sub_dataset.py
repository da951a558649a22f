import pytest

from chainerlite import datasets


def test_sub_dataset_with_and_without_order():
    sub = datasets.SubDataset([10, 11, 12, 13], 1, 3)
    assert len(sub) == 2 and sub[0] == 11 and sub[-1] == 12
    assert sub[:] == [11, 12]
    with pytest.raises(IndexError):
        sub[2]
    permuted = datasets.SubDataset([10, 11, 12, 13], 1, 3, [3, 2, 1, 0])
    assert permuted[:] == [12, 11]
    with pytest.raises(ValueError, match='order'):
        datasets.SubDataset([10, 11], 0, 1, [0])


def test_split_dataset_checks_its_position():
    head, tail = datasets.split_dataset(list('abcde'), 2)
    assert head[:] == ['a', 'b'] and tail[:] == ['c', 'd', 'e']
    with pytest.raises(TypeError):
        datasets.split_dataset([1, 2], 1.0)
    with pytest.raises(ValueError):
        datasets.split_dataset([1, 2], 3)


def test_random_splits_are_reproducible_partitions():
    data = list(range(9))
    a1, b1 = datasets.split_dataset_random(data, 4, seed=1)
    a2, b2 = datasets.split_dataset_random(data, 4, seed=1)
    assert a1[:] == a2[:] and sorted(a1[:] + b1[:]) == data
    parts = datasets.split_dataset_n_random(data, 4, seed=0)
    assert [len(p) for p in parts] == [2, 2, 2, 2]
    assert len(set(sum((p[:] for p in parts), []))) == 8
    assert [p[:] for p in datasets.split_dataset_n(data, 2)] == [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
    ]


def test_cross_validation_folds():
    folds = datasets.get_cross_validation_datasets(list(range(5)), 2)
    assert [(tr[:], te[:]) for tr, te in folds] == [
        ([0, 1], [2, 3, 4]),
        ([2, 3, 4], [0, 1]),
    ]
    folds = datasets.get_cross_validation_datasets_random(list(range(6)), 3, seed=2)
    assert sorted(sum((te[:] for _, te in folds), [])) == list(range(6))
    for tr, te in folds:
        assert sorted(tr[:] + te[:]) == list(range(6))
    with pytest.raises(TypeError, match='n_folds'):
        datasets.get_cross_validation_datasets([1, 2])


@pytest.mark.parametrize('random', [False, True])
def test_cross_validation_with_more_folds_than_examples(random):
    # ValueError as in Chainer 7.8.1 (found by the differential harness,
    # tools/diff_chainer); as many folds as examples, or an empty dataset, work.
    make = (
        datasets.get_cross_validation_datasets_random
        if random
        else datasets.get_cross_validation_datasets
    )
    with pytest.raises(ValueError, match='n_folds'):
        make(list(range(5)), 6)
    assert [(len(a), len(b)) for a, b in make(list(range(5)), 5)] == [(4, 1)] * 5
    assert [(len(a), len(b)) for a, b in make([], 2)] == [(0, 0)] * 2
