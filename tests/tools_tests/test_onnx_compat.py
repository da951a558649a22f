"""tools/onnx_compat.py: reading pytest's summary and matching Chainer's ids."""

from tools import onnx_compat

_T = 'tests/onnx_chainer_tests/'
_LOG = [
    _T + 'test_a.py ..F                                 [100%]',
    'PASSED ' + _T + "m.py::TestBin_param_1_{op_name='Sub', ops='a - b'}::test_output",
    'FAILED ' + _T + "m.py::TestBin_param_2_{ops='a * b'}::test_output - Error: x - y",
    'PASSED ' + _T + 'a.py::TestGetItem::test_gather[gathernd-slices7]',
    'ERROR ' + _T + 'io.py::test_io[x] - RuntimeError: bad',
    'SKIPPED [1] ' + _T + 'io.py:3: no mxnet',
    # Chainer's baseline has a stray ']' after ids with a list in their params
    'PASSED ' + _T + "i.py::TestShape_param_2_{s=[('b', 3)]}::test_output]",
]


def test_outcomes_read_ids_holding_dashes_and_brackets(tmp_path):
    log = tmp_path / 'pytest.log'
    log.write_text('\n'.join(_LOG) + '\n')
    assert onnx_compat._outcomes(str(log)) == {
        _T + 'm.py::TestBin_param_1::test_output': 'passed',
        _T + 'm.py::TestBin_param_2::test_output': 'failed',
        _T + 'a.py::TestGetItem::test_gather[gathernd-slices7]': 'passed',
        _T + 'io.py::test_io[x]': 'failed',
        _T + 'i.py::TestShape_param_2::test_output': 'passed',
    }
