"""Data-parallel scaling of chainerlite.chainermn: 1 process against 2.

A compute-bound MLP (784-1000-1000-10, float32) trains with MomentumSGD on
random data, batch 100 per process, one BLAS thread per process. The
driver runs the worker under ``mpiexec -n 1`` and ``-n 2`` and prints the
throughput of each, the scaling efficiency (throughput with 2 processes
over twice that with 1) and the time per step spent in communication
(``multi_node_mean_grad``: packing, the allreduce, unpacking)::

    python benchmarks/chainermn_scaling.py [--steps 30] [--mpiexec PATH]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy


def worker(steps, warmup):
    import chainerlite
    from chainerlite import functions as F
    from chainerlite import links as L
    from chainerlite import optimizers
    import chainerlite.chainermn as chainermn

    comm = chainermn.create_communicator('naive')
    model = chainerlite.Sequential(
        L.Linear(784, 1000), F.relu, L.Linear(1000, 1000), F.relu, L.Linear(1000, 10)
    )
    optimizer = chainermn.create_multi_node_optimizer(
        optimizers.MomentumSGD(lr=0.01), comm
    )
    optimizer.setup(model)
    optimizer.update()  # the initial broadcast
    rng = numpy.random.RandomState(comm.rank)
    x = rng.rand(100, 784).astype(numpy.float32)
    t = rng.randint(0, 10, 100).astype(numpy.int32)

    def loss(x, t):
        return F.softmax_cross_entropy(model(x), t)

    comm_time = [0.0]
    mean_grad = comm.multi_node_mean_grad

    def timed_mean_grad(*args, **kwargs):
        start = time.perf_counter()
        mean_grad(*args, **kwargs)
        comm_time[0] += time.perf_counter() - start

    comm.multi_node_mean_grad = timed_mean_grad
    for _ in range(warmup):
        optimizer.update(loss, x, t)
    comm.mpi_comm.barrier()
    comm_time[0] = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        optimizer.update(loss, x, t)
    comm.mpi_comm.barrier()
    elapsed = time.perf_counter() - start
    if comm.rank == 0:
        print(
            json.dumps(
                {
                    'processes': comm.size,
                    'examples_per_s': comm.size * 100 * steps / elapsed,
                    'step_s': elapsed / steps,
                    'comm_step_s': comm_time[0] / steps,
                }
            )
        )


def run(mpiexec, processes, steps, warmup):
    env = dict(
        os.environ, OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1', MKL_NUM_THREADS='1'
    )
    out = subprocess.run(
        [
            mpiexec,
            '-n',
            str(processes),
            sys.executable,
            __file__,
            '--worker',
            '--steps',
            str(steps),
            '--warmup',
            str(warmup),
        ],
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=30)
    parser.add_argument('--warmup', type=int, default=3)
    parser.add_argument('--worker', action='store_true')
    from chainerlite.chainermn.testing import find_mpiexec

    parser.add_argument('--mpiexec', default=find_mpiexec())
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.steps, args.warmup)
        return 0
    results = [run(args.mpiexec, n, args.steps, args.warmup) for n in (1, 2)]
    print(
        '{:>9} {:>12} {:>10} {:>16}'.format(
            'processes', 'examples/s', 'ms/step', 'comm ms/step'
        )
    )
    for r in results:
        print(
            '{:>9} {:>12.0f} {:>10.2f} {:>16.2f}'.format(
                r['processes'],
                r['examples_per_s'],
                1e3 * r['step_s'],
                1e3 * r['comm_step_s'],
            )
        )
    efficiency = results[1]['examples_per_s'] / (2 * results[0]['examples_per_s'])
    print('scaling efficiency with 2 processes: {:.2f}'.format(efficiency))
    return 0


if __name__ == '__main__':
    sys.exit(main())
