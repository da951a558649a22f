"""Sphinx configuration for the chainerlite documentation."""
project = 'chainerlite'
author = 'chainerlite developers'
extensions = [
    'sphinx.ext.autodoc',
    'sphinx.ext.napoleon',
    'sphinx.ext.doctest',
]
autodoc_member_order = 'bysource'
exclude_patterns = ['_build']
html_theme = 'alabaster'
