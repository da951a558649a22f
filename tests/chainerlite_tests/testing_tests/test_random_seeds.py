import os
import pathlib
import shutil
import subprocess
import sys

import numpy
import pytest

from chainerlite.testing import random as testing_random

CONFTEST = pathlib.Path(__file__).parents[2] / 'conftest.py'


def test_each_test_draws_from_its_own_seed(request):
    expected = numpy.random.RandomState(
        testing_random.seed_for(request.node.nodeid)
    ).rand(3)
    numpy.testing.assert_array_equal(numpy.random.rand(3), expected)


def test_seed_follows_the_environment(monkeypatch):
    monkeypatch.delenv(testing_random.SEED_ENV, raising=False)
    monkeypatch.delenv('CHAINER_TEST_RANDOM_SEED', raising=False)
    assert testing_random.base_seed() == 0
    default = testing_random.seed_for('t')
    monkeypatch.setenv('CHAINER_TEST_RANDOM_SEED', '5')
    assert testing_random.base_seed() == 5
    monkeypatch.setenv(testing_random.SEED_ENV, '7')
    assert testing_random.base_seed() == 7
    assert testing_random.seed_for('t') != default
    assert testing_random.seed_for('t') == testing_random.seed_for('t')
    assert testing_random.seed_for('u') != testing_random.seed_for('t')
    monkeypatch.setenv(testing_random.SEED_ENV, 'seven')
    with pytest.raises(ValueError, match=testing_random.SEED_ENV):
        testing_random.base_seed()


def _run(tmp_path, seed):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env[testing_random.SEED_ENV] = str(seed)
    return subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
    ).stdout


def test_a_failing_test_prints_the_seed_that_reproduces_it(tmp_path):
    shutil.copy(CONFTEST, tmp_path / 'conftest.py')
    (tmp_path / 'test_draw.py').write_text(
        'import numpy\n'
        'def test_draw():\n'
        '    print("drew", repr(numpy.random.rand()))\n'
        '    assert False\n'
    )
    first = _run(tmp_path, 7)
    assert 'random seed' in first and testing_random.SEED_ENV + '=7' in first
    drawn = [line for line in first.splitlines() if line.startswith('drew')]
    assert drawn and drawn == [
        line for line in _run(tmp_path, 7).splitlines() if line.startswith('drew')
    ]
    assert drawn != [
        line for line in _run(tmp_path, 8).splitlines() if line.startswith('drew')
    ]
