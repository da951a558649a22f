"""chainer-chemistry 0.7.1's graph networks compared side by side.

chainer-chemistry ships no tests; side/chem_side.py builds each of its
graph convolution networks small, runs it on a batch of random molecules
and backpropagates a fixed loss, on Chainer and (with Chainer's
parameters loaded) on chainerlite, as the chainercv2 comparison does
(model_zoo.compare_model: float64, tolerance 1e-9). The library imports
joblib, pandas and scikit-learn, which ``make downstream`` installs.
"""

import os

from tools.downstream import fetch, model_zoo, sides

REQUIREMENT = 'chainer-chemistry==0.7.1'
MODELS = (
    'NFP',
    'GGNN',
    'GIN',
    'RSGCN',
    'RelGCN',
    'RelGAT',
    'MPNN',
    'GNNFiLM',
    'SchNet',
)


def run(workdir, models=None, dtype='float64', tree=None, log=print):
    """Compares ``models`` (default: ``MODELS``); returns the records."""
    root = fetch.fetch(REQUIREMENT, workdir, sdist=True)
    outdir = os.path.join(workdir, 'chemistry')
    os.makedirs(outdir, exist_ok=True)
    return sides.each(
        models or MODELS,
        outdir + '.jsonl',
        log,
        lambda name: model_zoo.compare_model(
            [root], name, outdir, dtype, tree, script='chem_side.py'
        ),
    )
