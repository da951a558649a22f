"""tools/check_core_imports.py: the core imports nothing above it."""

import pathlib
import shutil
import textwrap

import pytest

from tools import check_core_imports

CORE = pathlib.Path(check_core_imports.ROOT) / '_core'


def test_the_tree_passes(capsys):
    assert check_core_imports.main([]) == 0
    assert 'no upward import' in capsys.readouterr().out


# each source is one upward import, in a way the scan must see
UPWARD = {
    'plain': 'import chainerlite\n',
    'dotted': 'import numpy, chainerlite.functions as F\n',
    'from': 'from chainerlite.function_hook import FunctionHook\n',
    'from_package': 'from chainerlite import _core, variable\n',
    'relative': 'from .. import backend\n',
    'relative_module': 'from ..utils import type_check\n',
    'in_function': 'cdef object f():\n    if True: from chainerlite import functions\n',
    'bracketed': 'from chainerlite.functions.connection.linear import (\n'
    '    LinearGradData,\n    LinearGradWeight)\n',
    'continued': 'from chainerlite.functions \\\n    import relu\n',
    'after_semicolon': 'x = 1; import chainerlite.backend\n',
    'cimport': 'from chainerlite.utils cimport type_check\n',
    'dunder': "m = __import__('chainerlite.functions')\n",
    'import_module': "m = importlib.import_module(\n    'chainerlite.variable')\n",
    'sys_modules': "m = sys.modules['chainerlite.backend']\n",
    'sys_modules_get': "m = sys.modules.get('chainerlite')\n",
}

# none of these imports anything above the core
ALLOWED = '''\
"""Docstring: import chainerlite.functions
from chainerlite import backend"""
# from chainerlite import variable
cimport cython
from chainerlite._core.node cimport Variable
from chainerlite._core cimport ops_math
from chainerlite import _core
import chainerlite._core.hooks
from . import config
from .node import Variable
cdef extern from "numpy/arrayobject.h":
    pass
msg = 'import chainerlite.functions, then ' + "from chainerlite import x"
raise ImportError('no') from None
m = importlib.import_module('chainerlite._core.node')
s = c'a'; t = rb"import chainerlite"
'''


def _core_with(tmp_path, name, text):
    core = tmp_path / '_core'
    shutil.copytree(CORE, core, ignore=shutil.ignore_patterns('*.so', '*.c', 'build'))
    (core / name).write_text(text)
    return core


@pytest.mark.parametrize('case', sorted(UPWARD))
def test_an_upward_import_fails_with_its_place(tmp_path, capsys, case):
    source = 'import numpy\n\n' + UPWARD[case]
    core = _core_with(tmp_path, 'synthetic.pyx', source)
    assert check_core_imports.main([str(core)]) == 1
    lines = capsys.readouterr().out.splitlines()
    line = 4 if case == 'in_function' else 3  # where the import statement starts
    assert lines[0].startswith('%s:%d: ' % (core / 'synthetic.pyx', line)), lines
    assert lines[1].startswith('check_core_imports: 1 import(s) of chainerlite')
    assert len(lines) == 2


def test_every_file_kind_of_the_core_is_scanned(tmp_path, capsys):
    for suffix in check_core_imports.SUFFIXES:
        core = _core_with(
            tmp_path / suffix[1:], 'synthetic' + suffix, 'import chainerlite\n'
        )
        assert check_core_imports.main([str(core)]) == 1, suffix
    core = _core_with(tmp_path / 'pyi', 'synthetic.pyi', 'import chainerlite\n')
    assert check_core_imports.main([str(core)]) == 0  # stubs never run


def test_strings_comments_and_core_imports_pass(tmp_path, capsys):
    core = _core_with(tmp_path, 'synthetic.pyx', ALLOWED)
    assert check_core_imports.main([str(core)]) == 0, capsys.readouterr().out


def test_lines_are_counted_through_multiline_strings(tmp_path):
    text = textwrap.dedent('''\
        """one
        two
        """
        x = ("a"
             """b
             c""")
        import chainerlite.variable
        ''')
    path = tmp_path / 'f.pyx'
    path.write_text(text)
    assert check_core_imports.upward_imports(path) == [
        (7, 'import chainerlite.variable')
    ]


def test_an_empty_folder_fails(tmp_path, capsys):
    assert check_core_imports.main([str(tmp_path)]) == 1
    assert 'no core sources' in capsys.readouterr().out


def _kernels_with(tmp_path, text):
    kernels = tmp_path / '_kernels'
    kernels.mkdir()
    (kernels / 'synthetic.pyx').write_text(text)
    return kernels


@pytest.mark.parametrize(
    'text',
    [
        'from chainerlite._core.node cimport Variable\n',
        'from chainerlite._core import ops_nn\n',
        'import chainerlite.functions\n',
        'from .. import _core\n',
    ],
)
def test_a_kernel_importing_the_engine_or_package_fails(tmp_path, capsys, text):
    assert check_core_imports.main([str(_kernels_with(tmp_path, text))]) == 1
    assert 'synthetic.pyx:1: ' in capsys.readouterr().out


def test_kernels_import_kernels_and_the_engine_imports_kernels(tmp_path, capsys):
    text = (
        'from chainerlite._kernels.chunks cimport chunks\n'
        'from chainerlite._kernels import relu\nfrom . import dtypes\n'
    )
    assert check_core_imports.main([str(_kernels_with(tmp_path, text))]) == 0
    core = _core_with(tmp_path, 'synthetic.pyx', text.replace('from . ', 'from .. '))
    assert check_core_imports.main([str(core)]) == 1  # `from .. import dtypes`
    core = _core_with(tmp_path / 'again', 'synthetic.pyx', text.split('from . ')[0])
    assert check_core_imports.main([str(core)]) == 0, capsys.readouterr().out
