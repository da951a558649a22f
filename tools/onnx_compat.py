"""Scores Chainer 7.8.1's onnx_chainer tests run against chainerlite.onnx.

Clones the test bundle into WORKDIR, runs its tests with ``import chainer``
and ``import onnx_chainer`` answered by chainerlite (the
``chainerlite.compat.pytest_plugin``) and NumPy's removed aliases put back
(``-p legacy_names`` from the bundle's folder), then compares each test id
with Chainer's own outcome in the baseline file. Prints the share of the
tests that pass on Chainer which pass here, and the ones that do not.
Exit status 1 when fewer than ``--floor`` of them pass.

    python -m tools.onnx_compat --compat-dir ../shared/chainer-compat \
        --workdir build/onnx-compat [--floor 268]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys


def _key(test_id):
    # a parameterized class is named <Class>_param_<i>_{params}; how the
    # params are spelled differs between Chainer and chainerlite, so they
    # are matched by the index alone
    # (the baseline's ids of classes with a list among their params also
    # end in a stray "]")
    test_id = re.sub(r'(_param_\d+)_\{.*\}(::[^:]+)$', r'\1\2', test_id)
    head, _, last = test_id.rpartition('::')
    if last.endswith(']') and '[' not in last:
        test_id = head + '::' + last[:-1]
    return test_id


_ID = re.compile(r'(tests/\S.*?::test\w*(?:\[[^\]]*\])?\]?)(?: - |$)')


def _outcomes(log_path):
    # the short summary of `pytest -rA`: one "OUTCOME test-id[ - message]" a line
    outcomes = {}
    with open(log_path) as f:
        for line in f:
            word, _, rest = line.rstrip('\n').partition(' ')
            if word not in ('PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'):
                continue
            # the id ends at its test function (and parameters); a class's
            # parameters may hold ' - ' (ops='a - b'), the message follows one
            match = _ID.match(rest)
            if match is None:
                continue
            test_id = match.group(1)
            outcomes[_key(test_id)] = (
                'passed' if word in ('PASSED', 'XPASS') else 'failed'
            )
    return outcomes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--compat-dir', required=True)
    parser.add_argument('--workdir', default='build/onnx-compat')
    parser.add_argument('--python', default=sys.executable)
    parser.add_argument('--floor', type=int, default=0)
    parser.add_argument('--timeout', type=int, default=1800)
    args = parser.parse_args(argv)

    compat_dir = os.path.abspath(args.compat_dir)
    workdir = os.path.abspath(args.workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    tests = os.path.join(workdir, 'onnx-tests')
    subprocess.run(
        [
            'git',
            'clone',
            '-q',
            os.path.join(compat_dir, 'onnx-chainer-tests-v7.8.1.bundle'),
            tests,
        ],
        check=True,
    )
    # an empty configuration of its own: else pytest takes the first one up
    # the tree, this checkout's pyproject.toml (warnings as errors)
    with open(os.path.join(tests, 'pytest.ini'), 'w') as f:
        f.write('[pytest]\n')
    log = os.path.join(workdir, 'pytest.log')
    env = dict(os.environ, PYTHONPATH=compat_dir)
    cmd = [
        args.python,
        '-m',
        'pytest',
        '-q',
        '-p',
        'no:cacheprovider',
        '-p',
        'chainerlite.compat.pytest_plugin',
        '-p',
        'legacy_names',
        '-m',
        'not gpu',
        '-rA',
        'tests/onnx_chainer_tests',
    ]
    try:
        with open(log, 'w') as out:
            subprocess.run(
                cmd,
                cwd=tests,
                env=env,
                timeout=args.timeout,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
    except subprocess.TimeoutExpired:
        print('onnx_compat: the test run passed {} s'.format(args.timeout))
    ours = _outcomes(log)
    if not ours:
        print('onnx_compat: no test results in {}'.format(log))
        return 2
    with open(os.path.join(compat_dir, 'onnx-baseline-chainer-7.8.1.json')) as f:
        baseline = json.load(f)['tests']
    expected = sorted(_key(t) for t, o in baseline.items() if o == 'passed')
    missing = [t for t in expected if ours.get(t) != 'passed']
    passed = len(expected) - len(missing)
    for test in missing:
        print('not passing: {} ({})'.format(test, ours.get(test, 'not run')))
    extra = sorted(t for t, o in ours.items() if o == 'passed' and t not in expected)
    for test in extra:
        print('passes here only: {}'.format(test))
    print(
        'onnx_chainer tests: {} of {} that pass on Chainer 7.8.1 pass ({:.1%})'.format(
            passed, len(expected), passed / len(expected)
        )
    )
    with open(os.path.join(workdir, 'score.json'), 'w') as f:
        json.dump(
            {'passed': passed, 'of': len(expected), 'not_passing': missing}, f, indent=1
        )
    if passed < args.floor:
        print('onnx_compat: below the floor of {}'.format(args.floor))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
