"""Sphinx configuration for the chainerlite documentation.

``make docs`` builds the HTML with warnings as errors and runs every code
example of the guides and docstrings as a doctest (``-b doctest``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

project = 'chainerlite'
author = 'chainerlite developers'
extensions = [
    'sphinx.ext.autodoc',
    'sphinx.ext.napoleon',
    'sphinx.ext.doctest',
    'myst_parser',
    'apigen',
]
source_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}
autodoc_member_order = 'bysource'
exclude_patterns = ['_build']
html_theme = 'alabaster'
html_static_path = ['_static']

# The examples run from a scratch folder, and know which hardware exists.
doctest_global_setup = '''
import os as _os
import tempfile as _tempfile
_os.chdir(_tempfile.mkdtemp())
from chainerlite.backends import cuda as _cuda
cuda_available = _cuda.available
multi_gpu = cuda_available and _cuda.cupy.cuda.runtime.getDeviceCount() > 1
'''

# Type annotations name classes unqualified (e.g. ``Device``), which several
# modules export; Sphinx would warn that the reference is ambiguous.
suppress_warnings = ['myst.header', 'ref.python']
