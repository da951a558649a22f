"""Makes ``tools`` importable when pytest runs from outside the repository.

The package is loaded from the checkout by its path; ``sys.path`` is left
alone, since tests that start Python subprocesses pass ``sys.path`` on, and
the source tree must not shadow an installed chainerlite there.
"""

import importlib.util
import pathlib
import sys

_TOOLS = pathlib.Path(__file__).resolve().parents[2] / 'tools'

if 'tools' not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        'tools', _TOOLS / '__init__.py', submodule_search_locations=[str(_TOOLS)]
    )
    _module = importlib.util.module_from_spec(_spec)
    sys.modules['tools'] = _module
    _spec.loader.exec_module(_module)
