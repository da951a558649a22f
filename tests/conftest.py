"""Seeds the random generators before every test, and reports the seed.

Each test draws from NumPy's and Python's global generators seeded with a
number derived from its id and ``CHAINERLITE_TEST_SEED`` (0 by default), so
its inputs do not depend on which tests ran before it. A failing test
prints the seed and the setting that reproduces its draws.
"""

import random

import numpy
import pytest

from chainerlite.testing import random as testing_random


def pytest_report_header(config):
    return 'random seeds: {}={}'.format(
        testing_random.SEED_ENV, testing_random.base_seed()
    )


@pytest.fixture(autouse=True)
def _seeded_random(request):
    seed = testing_random.seed_for(request.node.nodeid)
    request.node.user_properties.append(('random_seed', seed))
    numpy.random.seed(seed)
    random.seed(seed)
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        seeds = [v for k, v in item.user_properties if k == 'random_seed']
        if seeds:
            report.sections.append(
                (
                    'random seed',
                    'numpy.random and random were seeded with {} ({}={}); rerun '
                    'with the same setting to get the same draws'.format(
                        seeds[-1], testing_random.SEED_ENV, testing_random.base_seed()
                    ),
                )
            )
