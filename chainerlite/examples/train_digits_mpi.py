"""Data-parallel training over MPI with ChainerMN's API.

Each process trains the same MLP on its share of the UCI digits
(:func:`chainermn.scatter_dataset`); the multi-node optimizer averages the
gradients of every step in one allreduce (its first update broadcasts rank
0's initial parameters), and the multi-node evaluator reports the mean over
the processes of the validation loss and accuracy. Rank 0 alone prints.

One machine, two processes (needs ``pip install "chainerlite[mpi]"``, whose
mpich wheel puts ``mpiexec`` next to ``python``)::

    OPENBLAS_NUM_THREADS=1 mpiexec -n 2 python -m chainerlite.examples.train_digits_mpi

Several machines (MPICH's hydra; the same Python environment and path on
each host, reachable by ssh without a password; 2 processes per host)::

    mpiexec -hosts node1:2,node2:2 -n 4 \\
        -genv OPENBLAS_NUM_THREADS 1 python -m chainerlite.examples.train_digits_mpi

With Open MPI: ``mpirun -H node1:2,node2:2 -np 4 -x OPENBLAS_NUM_THREADS=1
python -m ...``.
"""

import argparse

import numpy as np

import chainerlite
from chainerlite import functions as F
from chainerlite import iterators
from chainerlite import links as L
from chainerlite import optimizers
from chainerlite import training
from chainerlite.datasets import get_digits
from chainerlite.datasets import TupleDataset
from chainerlite.training import extensions
import chainerlite.chainermn as chainermn


class MLP(chainerlite.Chain):
    """Two hidden layers of ``n_units`` ReLUs."""

    def __init__(self, n_units, n_out=10):
        super(MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, n_out)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--communicator', default='naive')
    parser.add_argument(
        '--batchsize', type=int, default=32, help='examples per process and step'
    )
    parser.add_argument('--epoch', type=int, default=10)
    parser.add_argument('--unit', type=int, default=64)
    parser.add_argument('--out', default='result_mpi')
    parser.add_argument(
        '--seed',
        type=int,
        help="seeds NumPy's global generator (rank r uses seed + r), which "
        'draws the initial weights and the order of the examples',
    )
    args = parser.parse_args(argv)

    comm = chainermn.create_communicator(args.communicator)
    if args.seed is not None:
        np.random.seed(args.seed + comm.rank)
    if comm.rank == 0:
        print(
            '{} processes, {} examples per step in all'.format(
                comm.size, comm.size * args.batchsize
            )
        )

    model = L.Classifier(MLP(args.unit))
    optimizer = chainermn.create_multi_node_optimizer(optimizers.Adam(), comm)
    optimizer.setup(model)

    train = test = None
    if comm.rank == 0:  # rank 0 reads the data; the others get a share
        (x, t), (x_test, t_test) = get_digits()
        train, test = TupleDataset(x, t), TupleDataset(x_test, t_test)
    train = chainermn.scatter_dataset(train, comm, shuffle=True, seed=0)
    test = chainermn.scatter_dataset(test, comm)
    train_iter = iterators.SerialIterator(train, args.batchsize)
    test_iter = iterators.SerialIterator(
        test, args.batchsize, repeat=False, shuffle=False
    )

    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(
        chainermn.create_multi_node_evaluator(
            extensions.Evaluator(test_iter, model), comm
        )
    )
    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(
            extensions.PrintReport(
                [
                    'epoch',
                    'main/loss',
                    'validation/main/loss',
                    'main/accuracy',
                    'validation/main/accuracy',
                    'elapsed_time',
                ]
            )
        )
    trainer.run()
    return trainer


if __name__ == '__main__':
    main()
