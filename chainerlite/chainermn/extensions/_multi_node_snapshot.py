"""Snapshots taken once per group of replicas instead of once per rank."""

from chainerlite.serializers import npz
from chainerlite.training import extension
from chainerlite.training.extensions import _snapshot


def _parse_replica_sets(replica_sets, size):
    """The replica sets as a list of sets of ranks covering ``range(size)``.

    Each item of ``replica_sets`` is a rank (a set of its own) or an
    iterable of ranks; the ranks named nowhere form one last set.
    """
    sets = []
    named = set()
    for item in replica_sets:
        group = {item} if isinstance(item, int) else set(item)
        if group & named:
            raise ValueError(
                'multi_node_snapshot: rank(s) {} are in more '
                'than one replica set'.format(sorted(group & named))
            )
        if not all(0 <= r < size for r in group):
            raise ValueError(
                'multi_node_snapshot: replica set {} names a rank outside 0..{}'.format(
                    sorted(group), size - 1
                )
            )
        named |= group
        sets.append(group)
    rest = set(range(size)) - named
    if rest:
        sets.append(rest)
    return sets


def _suffixed(filename, rank):
    if callable(filename):
        return lambda trainer: '{}.{}'.format(filename(trainer), rank)
    return '{}.{}'.format(filename, rank)


class _MultiNodeSnapshot(extension.Extension):
    """Runs ``snapshot`` on the first rank (the master) of each replica set."""

    def __init__(self, comm, snapshot, replica_sets):
        self.comm = comm
        self.snapshot = snapshot
        sets = _parse_replica_sets(replica_sets, comm.size)
        (index,) = [i for i, s in enumerate(sets) if comm.rank in s]
        self.master = min(sets[index])
        self.is_master = comm.rank == self.master
        self.replica_comm = comm.mpi_comm.Split(index, comm.rank)
        if self.is_master:
            snapshot.filename = _suffixed(snapshot.filename, comm.rank)
        for name in ('trigger', 'priority'):
            setattr(self, name, getattr(snapshot, name))

    def initialize(self, trainer):
        """The master (auto)loads; with ``autoload``, its state goes to its replicas."""
        if self.is_master:
            self.snapshot.initialize(trainer)
        if not getattr(self.snapshot, 'autoload', False):
            return
        target = trainer if self.snapshot._target is None else self.snapshot._target
        state = _snapshot._capture(target) if self.is_master else None
        state = self.replica_comm.bcast(state, root=0)
        if not self.is_master:
            npz.NpzDeserializer(state).load(target)

    def on_error(self, trainer, exc, tb):
        if self.is_master:
            self.snapshot.on_error(trainer, exc, tb)

    def __call__(self, trainer):
        if self.is_master:
            self.snapshot(trainer)

    def finalize(self):
        if self.is_master:
            self.snapshot.finalize()
        self.replica_comm.Free()


def multi_node_snapshot(comm, snapshot, replica_sets):
    """Makes ``snapshot`` run once per set of ranks that hold the same state.

    In data-parallel training every rank holds the same model, so one copy
    per replica set suffices: the lowest rank of each set (its master)
    writes the snapshot, its file name suffixed with ``.RANK``. With
    ``autoload``, the master loads the newest snapshot and sends the loaded
    state to the other ranks of its set.

    Args:
        comm: ChainerMN communicator.
        snapshot: A snapshot extension (:func:`chainer.training.extensions.snapshot`).
        replica_sets: Ranks or lists of ranks; the ranks not named form one
            more set (``[]`` makes every rank one set, with rank 0 writing).
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
