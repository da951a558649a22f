"""A writer killed with SIGKILL while writing leaves its temporary
directory; the next writer in that directory removes it, and never the
temporary directory of a writer that is still running."""

import os
import signal
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

from chainerlite import serializers
from chainerlite.training.extensions import _atomic
from chainerlite.training.extensions import snapshot_writers

pytestmark = pytest.mark.skipif(_atomic.fcntl is None, reason='needs flock')

# A snapshot writer that stops half-way through its write: it says where it
# writes, then waits until it is killed (or, with 'finish', until its stdin
# closes, then completes the write).
WRITER = textwrap.dedent(
    '''
    import sys
    from chainerlite.training.extensions import snapshot_writers

    def savefun(path, target):
        with open(path, 'wb') as f:
            f.write(b'half a snapsh')
            f.flush()
            print(path, flush=True)
            sys.stdin.read()
            f.write(b'ot')

    snapshot_writers.SimpleWriter(savefun)(sys.argv[2], sys.argv[1], {})
    '''
)


def _start_writer(out, name):
    proc = subprocess.Popen(
        [sys.executable, '-c', WRITER, out, name],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    timer = threading.Timer(60, proc.kill)  # never hang the suite
    timer.start()
    path = proc.stdout.readline().strip()
    assert path, 'the writer did not start'
    # the saving function writes under the snapshot's own name inside the
    # temporary directory
    assert os.path.basename(path) == name
    return proc, os.path.dirname(path), timer


def _temporaries(out):
    return sorted(n for n in os.listdir(out) if n.endswith('.part'))


def test_the_next_writer_removes_a_killed_writers_file_not_a_live_ones(tmp_path):
    out = str(tmp_path)
    killed, killed_tmp, t1 = _start_writer(out, 'snapshot_iter_100')
    live, live_tmp, t2 = _start_writer(out, 'snapshot_iter_200')
    try:
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(30)
        assert killed.returncode == -signal.SIGKILL
        names = _temporaries(out)
        assert os.path.basename(killed_tmp) in names
        assert os.path.basename(live_tmp) in names

        # a later run of the training writes its next snapshot
        snapshot_writers.SimpleWriter()('snapshot_iter_300', out, {'a': np.ones(3)})
        assert _temporaries(out) == [os.path.basename(live_tmp)]
        assert 'snapshot_iter_100' not in os.listdir(out)

        live.stdin.close()  # the live writer was not disturbed
        assert live.wait(30) == 0
        with open(os.path.join(out, 'snapshot_iter_200'), 'rb') as f:
            assert f.read() == b'half a snapshot'
        assert _temporaries(out) == []
        loaded = {'a': np.zeros(3)}
        serializers.load_npz(os.path.join(out, 'snapshot_iter_300'), _Dict(loaded))
        np.testing.assert_array_equal(loaded['a'], np.ones(3))
    finally:
        for proc, timer in ((killed, t1), (live, t2)):
            proc.kill()
            proc.wait()
            timer.cancel()


class _Dict:
    def __init__(self, d):
        self.d = d

    def serialize(self, serializer):
        for key in self.d:
            self.d[key] = serializer(key, self.d[key])


def test_a_thread_of_this_process_writing_is_not_disturbed(tmp_path):
    out = str(tmp_path)
    started, release = threading.Event(), threading.Event()

    def slow(path):
        with open(path, 'wb') as f:
            f.write(b'x')
            started.set()
            release.wait(30)

    thread = threading.Thread(
        target=_atomic.write_file, args=(os.path.join(out, 'log'), slow)
    )
    thread.start()
    try:
        assert started.wait(30)
        assert _atomic.remove_stale(out) == []
        _atomic.write_file(os.path.join(out, 'other'), lambda p: open(p, 'w').close())
    finally:
        release.set()
        thread.join(30)
    assert sorted(os.listdir(out)) == ['log', 'other']


def test_files_of_others_are_left_alone(tmp_path):
    out = str(tmp_path)
    for name in ('tmpmine.part', 'user.chainerlite-x.part', 'tmpa.chainerlite-b.txt'):
        (tmp_path / name).write_bytes(b'')
    stale = tmp_path / 'tmpsnap.chainerlite-abc.part'
    stale.write_bytes(b'')
    assert _atomic.remove_stale(out) == [stale.name]
    assert sorted(os.listdir(out)) == [
        'tmpa.chainerlite-b.txt',
        'tmpmine.part',
        'user.chainerlite-x.part',
    ]
