import pytest


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_astuple_and_asdict(table, mode):
    data = table(keys=('a',) if mode is None else ('a', 'b'), mode=mode)
    as_tuple, as_dict = data.astuple(), data.asdict()
    assert as_tuple.mode is tuple and as_dict.mode is dict
    assert as_tuple.keys == as_dict.keys == data.keys
    assert as_tuple[2] == tuple(data.data[:, 2])
    assert as_dict[2] == dict(zip(data.keys, data.data[:, 2]))
    assert len(as_dict) == len(data)
