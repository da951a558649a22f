"""Sphinx extension: writes the API reference pages (docs/api/*.rst).

Each page lists every public class and function of one module (its
``__all__``, or the names without a leading underscore), so that a name added
to the package is documented without editing the docs. The pages are
generated at each build and git ignores them.
"""

import importlib
import inspect
import pathlib

# (page, title, module) in the order of the reference's table of contents.
PAGES = [
    ('core', 'Variables, nodes and configuration', 'chainerlite'),
    ('compiled', 'The compiled core', 'chainerlite._core'),
    ('functions', 'Functions', 'chainerlite.functions'),
    ('links', 'Links', 'chainerlite.links'),
    ('initializers', 'Initializers', 'chainerlite.initializers'),
    ('optimizers', 'Optimizers', 'chainerlite.optimizers'),
    ('optimizer_hooks', 'Optimizer hooks', 'chainerlite.optimizer_hooks'),
    ('function_hooks', 'Function hooks', 'chainerlite.function_hooks'),
    ('link_hooks', 'Link hooks', 'chainerlite.link_hooks'),
    ('computational_graph', 'Computational graph', 'chainerlite.computational_graph'),
    ('serializers', 'Serializers', 'chainerlite.serializers'),
    ('dataset', 'Dataset utilities and converters', 'chainerlite.dataset'),
    ('datasets', 'Datasets', 'chainerlite.datasets'),
    ('iterators', 'Iterators', 'chainerlite.iterators'),
    ('training', 'Training loop', 'chainerlite.training'),
    ('extensions', 'Trainer extensions', 'chainerlite.training.extensions'),
    ('triggers', 'Triggers', 'chainerlite.training.triggers'),
    ('updaters', 'Updaters', 'chainerlite.training.updaters'),
    ('reporter', 'Reporter', 'chainerlite.reporter'),
    ('distributions', 'Distributions', 'chainerlite.distributions'),
    ('backend', 'Backends and devices', 'chainerlite.backend'),
    ('cuda', 'CUDA (CuPy)', 'chainerlite.backends.cuda'),
    ('testing', 'Testing utilities', 'chainerlite.testing'),
    ('gradient_check', 'Gradient check', 'chainerlite.gradient_check'),
    ('exporters', 'Exporting to Caffe', 'chainerlite.exporters.caffe'),
]


def public_names(module):
    """Returns the sorted public class and function names of ``module``."""
    names = getattr(module, '__all__', None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith('_')]
    found = []
    for name in names:
        obj = getattr(module, name)
        owner = getattr(obj, '__module__', None) or ''
        if not owner.startswith('chainerlite'):
            continue  # a name imported from NumPy, typing, ...
        if inspect.isclass(obj) or callable(obj):
            found.append(name)
    return sorted(found, key=str.lower)


def _claim_order(module_name):
    # An object exported by several modules is documented once (Sphinx
    # refuses two descriptions of one object): under the top-level name if
    # it has one, else in the most specific module (updaters before
    # training).
    if module_name == 'chainerlite':
        return (0, 0)
    return (1, -module_name.count('.'))


def _pages():
    # {module name: [(name, object)]} with each object under one module.
    seen = set()
    pages = {}
    for _, _, module_name in sorted(PAGES, key=lambda p: _claim_order(p[2])):
        module = importlib.import_module(module_name)
        pages[module_name] = []
        for name in public_names(module):
            obj = getattr(module, name)
            if id(obj) not in seen:
                seen.add(id(obj))
                pages[module_name].append((name, obj))
    return pages


def _page(title, module_name, entries):
    lines = [title, '=' * len(title), '', '.. currentmodule:: ' + module_name, '']
    for name, obj in entries:
        if inspect.isclass(obj):
            lines += ['.. autoclass:: ' + name, '   :members:', '']
        else:
            lines += ['.. autofunction:: ' + name, '']
    return '\n'.join(lines)


def write_pages(app):
    target = pathlib.Path(app.srcdir) / 'api'
    target.mkdir(exist_ok=True)
    index = [
        'API reference',
        '=============',
        '',
        'Every public class and function, module by module.',
        '',
        '.. toctree::',
        '   :maxdepth: 1',
        '',
    ]
    entries = _pages()
    for page, title, module_name in PAGES:
        text = _page(title, module_name, entries[module_name])
        path = target / (page + '.rst')
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        index.append('   ' + page)
    text = '\n'.join(index) + '\n'
    path = target / 'index.rst'
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def setup(app):
    app.connect('builder-inited', write_pages)
    return {'parallel_read_safe': True}
