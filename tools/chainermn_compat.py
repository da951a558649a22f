"""ChainerMN's own tests (Chainer 7.8.1's ``tests/chainermn_tests``) on chainerlite.

Each upstream file runs as upstream ran it, under ``mpiexec -n NP python -m
pytest -m "not gpu and not slow"``, with the import alias of
:mod:`chainerlite.compat` (``chainer``, ``chainermn``) loaded as a pytest
plugin, one file at a time under a time limit. Each rank writes a JUnit
report; the table gives rank 0's outcome per file next to what Chainer
7.8.1 passed (per rank, with ``-n 2``; ../shared/chainer-compat/README.md).

    python -m tools.chainermn_compat --bundle BUNDLE

with BUNDLE ../shared/chainer-compat/chainer-tests-v7.8.1.bundle.
"""

import argparse
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

# Chainer 7.8.1, mpiexec -n 2, per rank: tests passed in each file.
BASELINE = {
    'communicator_tests/test_communication_utility.py': 1,
    'communicator_tests/test_communicator.py': 13,
    'communicator_tests/test_mpi.py': 0,
    'communicator_tests/test_node_aware_communicator_base.py': 2,
    'datasets_tests/test_empty_dataset.py': 1,
    'datasets_tests/test_mnist.py': 0,
    'datasets_tests/test_scatter.py': 5,
    'extensions_tests/test_allreduce_persistent.py': 0,
    'extensions_tests/test_checkpoint.py': 1,
    'extensions_tests/test_multi_node_early_stopping_trigger.py': 0,
    'extensions_tests/test_multi_node_evaluator.py': 2,
    'extensions_tests/test_multi_node_snapshot.py': 10,
    'extensions_tests/test_observation_aggregator.py': 2,
    'functions_tests/test_collective_communication.py': 21,
    'functions_tests/test_point_to_point_communication.py': 15,
    'functions_tests/test_pseudo_connect.py': 48,
    'iterators_tests/test_iterator_compatibility.py': 4,
    'iterators_tests/test_multi_node_iterator.py': 22,
    'iterators_tests/test_synchronized_iterator.py': 4,
    'links_tests/test_batch_normalization.py': 8,
    'links_tests/test_create_mnbn_model.py': 0,
    'links_tests/test_multi_node_chain_list.py': 15,
    'links_tests/test_n_step_rnn.py': 4,
    'optimizer_tests/test_double_buffering_optimizer.py': 0,
    'optimizer_tests/test_multi_node_optimizer.py': 2,
    'testing_tests/test_device.py': 1,
}
ROOT = 'tests/chainermn_tests'
# Files whose other ranks wait on a download that cannot succeed offline
# once rank 0 has reported (test_multinode_autoload fetches MNIST): a
# shorter limit than --timeout, so CI does not wait the full time for them.
SHORT_TIMEOUTS = {'extensions_tests/test_multi_node_snapshot.py': 60}


def _export(bundle, workdir):
    """The upstream test folder, exported from the git bundle."""
    source = os.path.join(workdir, 'src')
    if os.path.isdir(os.path.join(source, ROOT)):
        return source
    repo = os.path.join(workdir, 'tests.git')
    if not os.path.isdir(repo):
        subprocess.run(['git', 'clone', '-q', '--bare', bundle, repo], check=True)
    os.makedirs(source, exist_ok=True)
    archive = subprocess.run(
        ['git', '--git-dir', repo, 'archive', 'v7.8.1', ROOT],
        check=True,
        stdout=subprocess.PIPE,
    ).stdout
    subprocess.run(['tar', '-x', '-C', source], input=archive, check=True)
    return source


def _count(report):
    """``(passed, failed, skipped)`` of one JUnit report (None if absent)."""
    if not os.path.exists(report):
        return None
    passed = failed = skipped = 0
    for case in ElementTree.parse(report).getroot().iter('testcase'):
        kinds = {child.tag for child in case}
        if kinds & {'failure', 'error'}:
            failed += 1
        elif 'skipped' in kinds:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def run_file(name, source, reports, args):
    """Runs one upstream file under mpiexec; returns each rank's counts."""
    stem = name.replace('/', '__')
    for rank in range(args.np):
        path = os.path.join(reports, '{}.{}.xml'.format(stem, rank))
        if os.path.exists(path):
            os.remove(path)
    pytest = (
        'exec {python} -m pytest -q -p no:cacheprovider '
        '-p chainerlite.compat.pytest_plugin -m "not gpu and not slow" '
        '{file} --junitxml={reports}/{stem}.$PMI_RANK.xml'
    ).format(
        python=sys.executable, file=os.path.join(ROOT, name), reports=reports, stem=stem
    )
    command = [args.mpiexec, '-n', str(args.np), 'sh', '-c', pytest]
    with open(os.path.join(reports, stem + '.log'), 'w') as log:
        try:
            subprocess.run(
                command,
                cwd=source,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=_timeout(name, args),
            )
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
    counts = [
        _count(os.path.join(reports, '{}.{}.xml'.format(stem, r)))
        for r in range(args.np)
    ]
    return counts, timed_out


def _timeout(name, args):
    return min(args.timeout, SHORT_TIMEOUTS.get(name, args.timeout))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--bundle', required=True)
    parser.add_argument('--workdir', default='build/chainermn-compat')
    parser.add_argument('--mpiexec', default=shutil.which('mpiexec'))
    parser.add_argument('--np', type=int, default=2)
    parser.add_argument('--timeout', type=float, default=90)
    parser.add_argument(
        '--floor', type=int, default=0, help='exit 1 when fewer tests pass on rank 0'
    )
    parser.add_argument('files', nargs='*', help='paths under ' + ROOT)
    args = parser.parse_args(argv)
    if args.mpiexec is None:
        parser.error('no mpiexec found; pass --mpiexec')
    args.mpiexec = (
        os.path.abspath(args.mpiexec) if os.sep in args.mpiexec else args.mpiexec
    )
    workdir = os.path.abspath(args.workdir)
    source = _export(os.path.abspath(args.bundle), workdir)
    reports = os.path.join(workdir, 'reports')
    os.makedirs(reports, exist_ok=True)
    names = args.files or sorted(BASELINE)
    total = [0, 0, 0]
    baseline = 0
    print(
        '{:<62} {:>6} {:>6} {:>6} {:>8}'.format(
            'file (rank 0)', 'passed', 'failed', 'skipped', 'chainer'
        )
    )
    for name in names:
        counts, timed_out = run_file(name, source, reports, args)
        mine = counts[0] or (0, 0, 0)
        note = (
            ' (killed after {:.0f} s)'.format(_timeout(name, args)) if timed_out else ''
        )
        if counts[0] is None:
            note += ' (no report)'
        print(
            '{:<62} {:>6} {:>6} {:>6} {:>8}{}'.format(
                name, mine[0], mine[1], mine[2], BASELINE.get(name, '?'), note
            )
        )
        total = [a + b for a, b in zip(total, mine)]
        baseline += BASELINE.get(name, 0)
    print(
        '{} passed, {} failed, {} skipped on rank 0 with mpiexec -n {} '
        '(Chainer 7.8.1 passed {} of these)'.format(
            total[0], total[1], total[2], args.np, baseline
        )
    )
    return 1 if total[0] < args.floor else 0


if __name__ == '__main__':
    sys.exit(main())
