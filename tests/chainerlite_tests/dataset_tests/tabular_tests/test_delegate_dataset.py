from chainerlite.dataset import tabular


class Squares(tabular.DelegateDataset):
    def __init__(self, n):
        super(Squares, self).__init__(
            tabular.from_data((('i', list(range(n))), ('sq', self.square)))
        )

    def square(self, i):
        return i * i


def test_subclass_answers_with_the_dataset():
    data = Squares(4)
    assert len(data) == 4 and data.keys == ('i', 'sq') and data.mode is tuple
    assert data[3] == (3, 9)
    assert data.get_examples([1, 2], (1,)) == ([1, 4],)


def test_convert_is_the_default_one():
    # as Chainer's: the wrapped dataset's converter is not used
    data = tabular.DelegateDataset(
        tabular.from_data([1, 2]).with_converter(lambda x: sum(x))
    )
    assert data.convert(data.fetch()).tolist() == [1, 2]
    assert data.astuple().convert(([3],))[0].tolist() == [3]


def test_a_subclass_converts_as_it_says():
    class Summed(tabular.DelegateDataset):
        def convert(self, data):
            return sum(data)

    data = Summed(tabular.from_data([1, 2]))
    assert data.convert(data.fetch()) == 3
    # views of it use its converter
    assert data.slice[1:].convert(data.slice[1:].fetch()) == 2
