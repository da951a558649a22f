"""Data-parallel scaling of chainerlite.chainermn: 1 process against 2.

A compute-bound MLP (784-1000-1000-10, float32) trains with MomentumSGD on
random data, batch 100 per process, one BLAS thread per process (set
before NumPy is imported), each rank bound to its own core when the
``mpiexec`` allows it. The driver runs the worker under ``mpiexec -n 1``
and ``-n 2`` and prints the throughput of each and the scaling efficiency
(throughput with 2 processes over twice that with 1). Both runs do the
same steps after the same warm-up; the timed region starts and ends at a
barrier.

Wall-clock throughput depends on what else the machine runs, so each rank
also reports where its time goes, in wall time and in process CPU time
(mean, median and minimum over the steps): ``compute`` (forward, backward and
the optimizer's bookkeeping), ``update`` (the wrapped optimizer's update),
``comm`` (``multi_node_mean_grad``: packing, the allreduce, handing the
gradients back, and with a sharded update the hand-over of the updated
parameters and states, ``allgather_owned``) and, inside it, ``allreduce``
(when every rank is on this node, the shared-memory exchange instead: its
two barriers and the summing of the rank's slice, which packs that slice on
the way; ``--no-shared-memory`` uses the Allreduce anyway). On one node the
update is sharded (each rank runs the update rule of its share of the
parameters, then the communicator hands the new parameters and states to
the other rank; ``--no-sharded-update`` gives every rank the whole update).
Then the bytes copied per step to pack and unpack the
gradients; and the allreduce alone on a buffer of the gradients' size
with both ranks started together (after a barrier), which is the
communication cost without waiting for a slower rank. From these,
the projected efficiency is ``work / (work + comm)`` with ``work`` the
compute and update CPU time of a step and ``comm`` the packing CPU time
plus that synchronised allreduce (from the means over the steps, and from
the minima, which other load inflates least); the 1-process step time over
``work + comm`` also counts what the second process costs the first in
shared caches and memory bandwidth (none of it overlaps the backward: on
shared memory the exchange is CPU work of the same cores, and MPICH moves
a non-blocking allreduce on only inside MPI calls)::

    python benchmarks/chainermn_scaling.py [--steps 100] [--rounds 5] [--mpiexec PATH]

A shared machine drifts: the same 1-process run took from 11.1 to 12.6 ms
a step in runs a minute apart. So the runs are repeated (``--rounds``;
the order reversed every other round, so that a drift in time weighs on
all alike) and each round's efficiency is printed; the result is their
median, and the breakdown printed is the median round's. Each round
also runs 2 processes that train separate models and only meet at a
barrier once a step (``barrier only``): the 1-process step over that
step is the most any synchronous data-parallel training could reach on
the machine at that moment, since a rank that is held up (by the
hypervisor, say) holds up the other.

On a busy machine, ``--rank-prefix CMD`` runs each rank under ``CMD``:
with Linux's autogroup scheduling, ``nice`` alone does not lift the ranks
above other sessions' processes, but a script that does
``echo -20 > /proc/self/autogroup; exec nice -n -20 "$@"`` (as root) does,
and then wall time comes close to a quiet machine's.
"""

import os

for _name in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
    os.environ.setdefault(_name, '1')  # before NumPy loads its BLAS

import argparse  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy  # noqa: E402

PHASES = ('step', 'compute', 'update', 'comm', 'allreduce')


class _Clock(object):
    """Accumulates the wall and process CPU time spent in wrapped calls."""

    def __init__(self):
        self.wall = self.cpu = 0.0

    def wrap(self, function):
        def timed(*args, **kwargs):
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.wall += time.perf_counter() - wall
                self.cpu += time.process_time() - cpu

        return timed


def _copied_bytes(arrays, buffer):
    """Bytes of ``arrays`` that are not views of ``buffer`` (so were copied)."""
    if buffer is None:
        return 0
    return sum(a.nbytes for a in arrays if not numpy.may_share_memory(a, buffer))


def _summary(samples):
    samples = numpy.asarray(samples)
    return {
        'mean': float(samples.mean()),
        'median': float(numpy.median(samples)),
        'min': float(samples.min()),
    }


def _model_and_batch(rank):
    import chainerlite
    from chainerlite import functions as F
    from chainerlite import links as L

    model = chainerlite.Sequential(
        L.Linear(784, 1000), F.relu, L.Linear(1000, 1000), F.relu, L.Linear(1000, 10)
    )
    rng = numpy.random.RandomState(rank)
    x = rng.rand(100, 784).astype(numpy.float32)
    t = rng.randint(0, 10, 100).astype(numpy.int32)

    def loss(x, t):
        return F.softmax_cross_entropy(model(x), t)

    return model, loss, x, t


def barrier_worker(steps, warmup):
    """Each rank trains its own model (no gradient exchange) and waits
    for the others at one barrier per step: what synchronous training
    costs on this machine before any data moves."""
    from mpi4py import MPI

    from chainerlite import optimizers

    comm = MPI.COMM_WORLD
    model, loss, x, t = _model_and_batch(comm.rank)
    optimizer = optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(model)
    for step in range(warmup + steps):
        if step == warmup:
            comm.Barrier()
            start = time.perf_counter()
        optimizer.update(loss, x, t)
        comm.Barrier()
    elapsed = time.perf_counter() - start
    if comm.rank == 0:
        print(json.dumps({'processes': comm.size, 'step_s': elapsed / steps}))


def worker(steps, warmup, communicator, shared_memory=True, sharded=True):
    from chainerlite import optimizers
    import chainerlite.chainermn as chainermn
    from chainerlite.chainermn import _sharded_update

    comm = chainermn.create_communicator(communicator)
    model, loss, x, t = _model_and_batch(comm.rank)
    optimizer = chainermn.create_multi_node_optimizer(
        optimizers.MomentumSGD(lr=0.01), comm
    )
    optimizer.setup(model)
    optimizer.update()  # the initial broadcast

    names = ('comm', 'allreduce', 'update', 'gather')
    clocks = {name: _Clock() for name in names}
    seen = {'buffer': None, 'pack': 0, 'unpack': 0}
    allreduce = comm._allreduce_in_place
    timed_mean_grad = clocks['comm'].wrap(comm.multi_node_mean_grad)

    def watched_allreduce(buffer):
        seen['buffer'] = buffer
        allreduce(buffer)

    def watched_mean_grad(target, zero_fill=False):
        # the copies are counted outside the timed call
        seen['buffer'] = None
        grads = [p.grad for p in target.params() if p.grad is not None]
        timed_mean_grad(target, zero_fill)
        seen['pack'] = _copied_bytes(grads, seen['buffer'])
        after = [p.grad for p in target.params() if p.grad is not None]
        seen['unpack'] = _copied_bytes(after, seen['buffer'])

    comm._allreduce_in_place = clocks['allreduce'].wrap(watched_allreduce)
    if not shared_memory:
        comm._node_mean = False
    node_mean = comm._shared_memory()
    if node_mean is not None:
        # within one node "allreduce" is the two barriers and the summing
        mean = node_mean.mean

        def watched_mean(*args):
            seen['buffer'] = mean(*args)
            return seen['buffer']

        node_mean.mean = watched_mean
        node_mean._reduce = clocks['allreduce'].wrap(node_mean._reduce)
        node_mean._barrier = clocks['allreduce'].wrap(node_mean._barrier)
    if not sharded:
        _sharded_update.applies = lambda actual, comm: False
    comm.multi_node_mean_grad = watched_mean_grad
    actual = optimizer.actual_optimizer
    # the whole update runs this, the sharded one too (with the hand-over)
    actual.update_from_grads = clocks['update'].wrap(actual.update_from_grads)
    comm.allgather_owned = clocks['gather'].wrap(comm.allgather_owned)

    samples = {(phase, kind): [] for phase in PHASES for kind in ('wall', 'cpu')}
    for step in range(warmup + steps):
        if step == warmup:
            comm.mpi_comm.Barrier()
            start = time.perf_counter()
        for clock in clocks.values():
            clock.wall = clock.cpu = 0.0
        wall, cpu = time.perf_counter(), time.process_time()
        optimizer.update(loss, x, t)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if step < warmup:
            continue
        spent = {'step': (wall, cpu)}
        for name, clock in clocks.items():
            spent[name] = (clock.wall, clock.cpu)
        # the hand-over of the sharded update counts as communication
        gather = spent.pop('gather')
        spent['update'] = tuple(u - g for u, g in zip(spent['update'], gather))
        spent['comm'] = tuple(c + g for c, g in zip(spent['comm'], gather))
        spent['compute'] = tuple(
            spent['step'][i] - spent['comm'][i] - spent['update'][i] for i in (0, 1)
        )
        for phase in PHASES:
            samples[phase, 'wall'].append(spent[phase][0])
            samples[phase, 'cpu'].append(spent[phase][1])
    comm.mpi_comm.Barrier()
    elapsed = time.perf_counter() - start

    # the allreduce alone, both ranks starting together
    grad_size = sum(p.size for p in model.params())
    buffer = numpy.zeros(grad_size, dtype=numpy.float32)
    if node_mean is None:
        exchange = functools.partial(allreduce, buffer)
    else:
        window = node_mean._windows[model]
        grads = [p.grad for _, p in sorted(model.namedparams())]

        def exchange():
            node_mean._reduce(window)  # packs this rank's slice too
            node_mean._barrier(window)

    synced = {'wall': [], 'cpu': []}
    for _ in range(max(10, steps // 2)):
        if node_mean is not None:
            window.pack(grads, 1.0 / comm.size)  # all but this rank's slice
        comm.mpi_comm.Barrier()
        wall, cpu = time.perf_counter(), time.process_time()
        exchange()
        synced['wall'].append(time.perf_counter() - wall)
        synced['cpu'].append(time.process_time() - cpu)

    report = {
        'rank': comm.rank,
        'phases': {
            '{}_{}'.format(phase, kind): _summary(values)
            for (phase, kind), values in samples.items()
        },
        'pack_bytes': seen['pack'],
        'unpack_bytes': seen['unpack'],
        'grad_bytes': buffer.nbytes,
        'synced_allreduce_wall': _summary(synced['wall']),
        'synced_allreduce_cpu': _summary(synced['cpu']),
    }
    reports = comm.mpi_comm.gather(report, root=0)
    if comm.rank == 0:
        print(
            json.dumps(
                {
                    'processes': comm.size,
                    'examples_per_s': comm.size * 100 * steps / elapsed,
                    'step_s': elapsed / steps,
                    'ranks': reports,
                }
            )
        )


def _bind_options(mpiexec):
    """``-bind-to core`` when this mpiexec (MPICH's Hydra) knows it."""
    try:
        usage = subprocess.run(
            [mpiexec, '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        ).stdout
    except OSError:
        return []
    return ['-bind-to', 'core'] if b'-bind-to' in usage else []


def run(mpiexec, processes, args, barrier_only=False):
    env = dict(
        os.environ, OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1', MKL_NUM_THREADS='1'
    )
    bind = _bind_options(mpiexec) if args.bind else []
    command = [mpiexec, '-n', str(processes)] + bind + args.rank_prefix.split()
    command += [sys.executable, __file__, '--worker', '--steps', str(args.steps)]
    command += ['--warmup', str(args.warmup), '--communicator', args.communicator]
    if barrier_only:
        command.append('--barrier-only')
    if not args.shared_memory:
        command.append('--no-shared-memory')
    if not args.sharded_update:
        command.append('--no-sharded-update')
    load = os.getloadavg()[0]
    out = subprocess.run(
        command, env=env, check=True, stdout=subprocess.PIPE, text=True
    ).stdout
    result = json.loads(out.strip().splitlines()[-1])
    result['bind'] = ' '.join(bind) or 'none'
    result['load'] = [load, os.getloadavg()[0]]  # 1-minute, before and after
    return result


def _projected(rank, stat):
    """``(work, comm)`` CPU seconds per step of one rank (see the docstring)."""
    phases = rank['phases']
    work = phases['compute_cpu'][stat] + phases['update_cpu'][stat]
    packing = phases['comm_cpu'][stat] - phases['allreduce_cpu'][stat]
    return work, packing + rank['synced_allreduce_cpu'][stat]


def _cell(summary):
    return '{mean:6.2f} {median:6.2f} {min:6.2f}'.format(
        **{key: 1e3 * value for key, value in summary.items()}
    )


def _efficiency(pair):
    one, two = pair
    return two['examples_per_s'] / (2 * one['examples_per_s'])


def _median_round(rounds):
    """The round whose efficiency is the median (the lower of the two
    middle ones when the count is even)."""
    ordered = sorted(rounds, key=_efficiency)
    return ordered[(len(ordered) - 1) // 2]


def _print_rounds(rounds, floors):
    print(
        'round  ms/step: 1 process  2 processes  (barrier only)  '
        'efficiency  (barrier only)'
    )
    for index, (one, two) in enumerate(rounds):
        floor = floors[index]
        print(
            '{:>5} {:>18.2f} {:>12.2f} {:>15.2f} {:>11.3f} {:>15.3f}'.format(
                index + 1,
                1e3 * one['step_s'],
                1e3 * two['step_s'],
                1e3 * floor['step_s'],
                _efficiency((one, two)),
                one['step_s'] / floor['step_s'],
            )
        )


def _print_report(results):
    ms = 1e3
    print(
        '{:>9} {:>12} {:>10}  {:<14} load (1 min) before, after'.format(
            'processes', 'examples/s', 'ms/step', 'binding'
        )
    )
    for r in results:
        print(
            '{:>9} {:>12.0f} {:>10.2f}  {:<14} {:.2f}, {:.2f}'.format(
                r['processes'],
                r['examples_per_s'],
                ms * r['step_s'],
                r['bind'],
                *r['load'],
            )
        )
    print('per rank, ms per step, mean median min; wall | process CPU:')
    for r in results:
        for rank in r['ranks']:
            cells = []
            for phase in PHASES:
                wall = rank['phases'][phase + '_wall']
                cpu = rank['phases'][phase + '_cpu']
                cells.append('{:9} {} | {}'.format(phase, _cell(wall), _cell(cpu)))
            print('  n={} rank {}:'.format(r['processes'], rank['rank']))
            for cell in cells:
                print('      ' + cell)
            wall = rank['synced_allreduce_wall']
            cpu = rank['synced_allreduce_cpu']
            print(
                '      allreduce alone, ranks in step: {} | {}'.format(
                    _cell(wall), _cell(cpu)
                )
            )
            print(
                '      bytes copied per step: pack {}, unpack {} (gradients {})'.format(
                    rank['pack_bytes'], rank['unpack_bytes'], rank['grad_bytes']
                )
            )
    two = results[-1]
    print('projection from process CPU times (statistic over the steps):')
    for stat in ('mean', 'min'):
        alone = sum(_projected(results[0]['ranks'][0], stat))
        for rank in two['ranks']:
            work, comm = _projected(rank, stat)
            print(
                '  {:4} rank {}: work {:.2f} ms, communication {:.2f} ms -> '
                'work/(work+comm) {:.3f}; 1-process step {:.2f} ms / (work+comm) '
                '{:.3f}'.format(
                    stat,
                    rank['rank'],
                    ms * work,
                    ms * comm,
                    work / (work + comm),
                    ms * alone,
                    alone / (work + comm),
                )
            )
    print(
        'scaling efficiency with 2 processes, this round: {:.3f}'.format(
            _efficiency(results)
        )
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=100)
    parser.add_argument('--warmup', type=int, default=5)
    parser.add_argument(
        '--rounds', type=int, default=5, help='pairs of 1- and 2-process runs'
    )
    parser.add_argument('--communicator', default='naive')
    parser.add_argument(
        '--no-bind', dest='bind', action='store_false', help='do not bind to cores'
    )
    parser.add_argument(
        '--rank-prefix',
        default='',
        help='a command each rank runs under, e.g. "nice -n -5"',
    )
    parser.add_argument(
        '--no-shared-memory',
        dest='shared_memory',
        action='store_false',
        help='exchange by Allreduce even when every rank is on this node',
    )
    parser.add_argument(
        '--no-sharded-update',
        dest='sharded_update',
        action='store_false',
        help='every rank runs the whole update (no sharding over the ranks)',
    )
    parser.add_argument('--json', help='also write the raw results to this file')
    parser.add_argument('--worker', action='store_true')
    parser.add_argument('--barrier-only', action='store_true')
    args, _ = parser.parse_known_args(argv)
    if args.worker and args.barrier_only:
        barrier_worker(args.steps, args.warmup)
        return 0
    if args.worker:
        worker(
            args.steps,
            args.warmup,
            args.communicator,
            args.shared_memory,
            args.sharded_update,
        )
        return 0
    from chainerlite.chainermn.testing import find_mpiexec

    parser.add_argument('--mpiexec', default=find_mpiexec())
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error('--rounds must be at least 1')
    rounds, floors = [], []
    for index in range(args.rounds):
        # 0: two processes with a barrier only
        order = (1, 2, 0) if index % 2 == 0 else (0, 2, 1)
        runs = {n: run(args.mpiexec, n or 2, args, barrier_only=not n) for n in order}
        rounds.append([runs[1], runs[2]])
        floors.append(runs[0])
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'rounds': rounds, 'barrier_only': floors}, f, indent=1)
    median = _median_round(rounds)
    print('the median round ({} of {}):'.format(rounds.index(median) + 1, len(rounds)))
    _print_report(median)
    _print_rounds(rounds, floors)
    efficiencies = sorted(_efficiency(pair) for pair in rounds)
    print(
        'measured scaling efficiency with 2 processes: {:.3f} (median of {} '
        'rounds; lowest {:.3f}, highest {:.3f})'.format(
            _efficiency(median), len(rounds), efficiencies[0], efficiencies[-1]
        )
    )
    return 0


if __name__ == '__main__':
    sys.exit(main())
