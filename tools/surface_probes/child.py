"""Runs every probe on one library and prints the results as JSON.

``python -m tools.surface_probes.child chainer`` (or ``chainerlite``).
"""

import importlib
import json
import sys
import types
import warnings

import numpy

from tools.surface_probes import _values

#: the probe modules of this package, each with its PROBES
NAMES = (
    'backends',
    'backward',
    'chains',
    'classifier',
    'config',
    'data',
    'dataset_files',
    'dataset_loaders',
    'datasets2',
    'extensions',
    'extensions_extra',
    'function',
    'graph',
    'hooks',
    'initial',
    'initializers2',
    'iterators2',
    'keywords',
    'link_model',
    'links',
    'nodes',
    'norm_links',
    'optimizer_model',
    'optimizers',
    'reporter',
    'rnn_links',
    'serializers',
    'shifts',
    'snapshots',
    'statistics',
    'tabular',
    'testing_api',
    'trainer_api',
    'training',
    'triggers',
    'type_checks',
    'updaters',
    'utils_api',
    'utils_extra',
    'variable',
    'variable_extra',
    'vision',
)
MODULES = tuple(importlib.import_module('tools.surface_probes.' + n) for n in NAMES)


def library(name):
    """The library under its usual short names (chainer, F, L, O, I)."""
    sub = {
        k: importlib.import_module(name + '.' + m)
        for k, m in (
            ('F', 'functions'),
            ('L', 'links'),
            ('O', 'optimizers'),
            ('I', 'initializers'),
        )
    }
    return types.SimpleNamespace(chainer=importlib.import_module(name), **sub)


def run(name):
    lib = library(name)
    warnings.simplefilter('ignore')
    out = {}
    for module in MODULES:
        for probe, fn in module.PROBES.items():
            numpy.random.seed(0)
            key = '%s.%s' % (module.__name__.rsplit('.', 1)[1], probe)
            try:
                out[key] = ['ok', _values.summary(fn(lib))]
            except Exception as e:  # noqa: BLE001 - the exception is the result
                out[key] = ['raise', [c.__name__ for c in type(e).__mro__]]
    return out


def main(name):
    json.dump(run(name), sys.stdout)


if __name__ == '__main__':
    main(sys.argv[1])
