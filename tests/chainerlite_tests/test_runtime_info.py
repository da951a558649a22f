"""print_runtime_info."""
import io

import numpy

import chainerlite
from chainerlite import _runtime_info


def test_runtime_info_names_versions():
    info = str(_runtime_info._get_runtime_info())
    assert 'chainerlite: ' + chainerlite.__version__ in info
    assert 'NumPy: ' + numpy.__version__ in info
    assert 'CuPy: ' in info and 'iDeep: Not Available' in info
    out = io.StringIO()
    chainerlite.print_runtime_info(out)
    assert out.getvalue() == info
