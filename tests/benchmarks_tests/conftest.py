"""Makes ``benchmarks/models`` importable as ``models`` (by its path;
``sys.path`` is left alone, as in tests/tools_tests/conftest.py)."""

import importlib.util
import pathlib
import sys

BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / 'benchmarks'

if 'models' not in sys.modules:
    _folder = BENCHMARKS / 'models'
    _spec = importlib.util.spec_from_file_location(
        'models', _folder / '__init__.py', submodule_search_locations=[str(_folder)]
    )
    _module = importlib.util.module_from_spec(_spec)
    sys.modules['models'] = _module
    _spec.loader.exec_module(_module)
