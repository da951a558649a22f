"""One side of a chainer-chemistry graph network comparison, in its own process.

    DOWNSTREAM_SIDE=chainer|chainerlite python chem_side.py MODEL OUTDIR DTYPE

Builds MODEL (a graph network of chainer_chemistry.models, small), runs it
in training mode with dropout off on a fixed batch of random molecules
(atom ids and an adjacency per edge type), backpropagates a fixed weighted
sum of its output, and saves output and parameter gradients as
zoo_side.py does (Chainer's parameters go to OUTDIR/MODEL.params.npz and
chainerlite's side loads them).
"""

import sys

import downstream_side
import numpy

BATCH, ATOMS, TYPES, EDGES = 3, 7, 10, 4


def _inputs(name, dtype):
    rng = numpy.random.RandomState(1)
    atoms = rng.randint(1, TYPES, (BATCH, ATOMS)).astype(numpy.int32)
    edges = EDGES + (name == 'GNNFiLM')
    typed = (rng.rand(BATCH, edges, ATOMS, ATOMS) < 0.3).astype(dtype)
    typed = numpy.maximum(typed, typed.transpose(0, 1, 3, 2))
    if name in ('GGNN', 'RelGCN', 'RelGAT', 'MPNN', 'GNNFiLM'):
        return atoms, typed
    plain = typed.max(axis=1)
    if name == 'SchNet':
        return atoms, rng.uniform(0.5, 3.0, (BATCH, ATOMS, ATOMS)).astype(dtype)
    return atoms, plain


def _model(name):
    from chainer_chemistry import models

    small = dict(n_update_layers=2, n_atom_types=TYPES)
    if name in ('NFP', 'GGNN', 'GIN', 'RelGAT', 'GNNFiLM', 'MPNN'):
        return getattr(models, name)(out_dim=5, hidden_channels=8, **small)
    if name == 'RSGCN':
        return models.RSGCN(out_dim=5, hidden_channels=8, dropout_ratio=0.0, **small)
    if name == 'RelGCN':
        return models.RelGCN(out_dim=5, hidden_channels=[8, 8], n_atom_types=TYPES)
    if name == 'SchNet':
        return models.SchNet(out_dim=5, hidden_channels=8, num_rbf=20, **small)
    raise ValueError('chem_side: unknown model %r' % name)


def _run(name, outdir, dtype):
    import chainer

    chainer.global_config.dtype = numpy.dtype(dtype)
    numpy.random.seed(0)
    model = _model(name)
    inputs = _inputs(name, dtype)
    downstream_side.compare_run(model, inputs, name, outdir)


if __name__ == '__main__':
    downstream_side.report(_run, sys.argv[1:])
