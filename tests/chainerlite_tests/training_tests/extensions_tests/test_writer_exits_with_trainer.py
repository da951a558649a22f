"""The consumer process of ProcessQueueWriter ends when its trainer dies,
even killed with SIGKILL (Chainer's stays forever), after completing the
snapshot it was writing."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith('linux'), reason='forks; reads /proc'
)


def _gone(pid, seconds):
    deadline = time.monotonic() + seconds
    while True:
        try:
            with open('/proc/%d/stat' % pid) as f:
                if f.read().split(')')[-1].split()[0] == 'Z':
                    return True  # ended, waiting for its new parent
        except FileNotFoundError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


@pytest.mark.parametrize('writing', [False, True], ids=['idle', 'writing'])
def test_consumer_ends_after_the_trainer_is_killed(tmp_path, writing):
    # The "trainer" starts the writer, optionally queues a slow snapshot,
    # prints the consumer's pid and kills itself with SIGKILL.
    script = tmp_path / 'trainer.py'
    script.write_text(
        textwrap.dedent('''
        import os, signal, sys, time
        import numpy
        from chainerlite import serializers
        from chainerlite.training.extensions import snapshot_writers

        def slow_save(path, target):
            time.sleep(1.0)  # the trainer is killed meanwhile
            serializers.save_npz(path, target)

        writer = snapshot_writers.ProcessQueueWriter(savefun=slow_save)
        if sys.argv[2] == 'writing':
            writer('snap.npz', sys.argv[1], {'w': numpy.arange(3)})
            time.sleep(0.3)  # the consumer has taken it
        print(writer._consumer.pid, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    ''')
    )
    mode = 'writing' if writing else 'idle'
    out, err = tmp_path / 'out', tmp_path / 'err'
    with open(str(out), 'w') as stdout, open(str(err), 'w') as stderr:
        # Files, not pipes: a consumer left alive would hold a pipe open.
        code = subprocess.call(
            [sys.executable, str(script), str(tmp_path), mode],
            stdout=stdout,
            stderr=stderr,
            timeout=60,
        )
    assert code == -9, err.read_text()
    consumer = int(out.read_text())
    try:
        assert _gone(consumer, 10), 'the consumer outlived its trainer'
    finally:
        if not _gone(consumer, 0):
            os.kill(consumer, signal.SIGKILL)
    snapshot = tmp_path / 'snap.npz'
    assert snapshot.exists() == writing
    if writing:
        import numpy

        with numpy.load(str(snapshot)) as f:
            assert list(f['w']) == [0, 1, 2]
    assert not [p for p in os.listdir(str(tmp_path)) if p.endswith('.part')]
