import unittest

import numpy
import pytest

from chainerlite import testing


def test_fix_random_on_a_function():
    draws = []

    @testing.fix_random()
    def draw():
        draws.append(numpy.random.uniform())

    draw()
    draw()
    assert draws[0] == draws[1]


def test_fix_random_restores_the_state():
    numpy.random.seed(123)
    expected = numpy.random.uniform()
    numpy.random.seed(123)
    testing.fix_random()(lambda: numpy.random.uniform(size=10))()
    assert numpy.random.uniform() == expected


def test_fix_random_on_a_unittest_class():
    @testing.fix_random()
    class Case(unittest.TestCase):
        values = []

        def setUp(self):
            self.x = numpy.random.uniform()

        def runTest(self):
            self.values.append(self.x)

    for _ in range(2):
        result = unittest.TestResult()
        Case().run(result)
        assert result.wasSuccessful()
    assert len(Case.values) == 2
    assert Case.values[0] == Case.values[1]


def test_fix_random_on_a_pytest_class():
    @testing.fix_random()
    class Plain:
        def setup_method(self, method):
            self.x = numpy.random.uniform()

    values = []
    for _ in range(2):
        case = Plain()
        case.setup_method(None)
        values.append(case.x)
        case.teardown_method(None)
    assert values[0] == values[1]


def test_generate_seed_is_fixed_inside_a_fixed_test():
    from chainerlite.testing import random as testing_random

    @testing.fix_random()
    def draw():
        return testing_random.generate_seed(), testing_random.generate_seed()

    first = draw()
    assert first == draw()
    assert first[0] != first[1]
    assert all(0 <= s < 2**31 for s in first)


def test_generate_seed_outside_a_fixed_test_fails():
    from chainerlite.testing import random as testing_random

    with pytest.raises(AssertionError, match='fix_random'):
        testing_random.generate_seed()


def test_do_setup_and_teardown_fix_then_restore():
    from chainerlite.testing import random as testing_random

    numpy.random.seed(7)
    expected_after = numpy.random.RandomState(7).uniform()
    drawn = []
    for _ in range(2):
        testing_random.do_setup()
        drawn.append(numpy.random.uniform())
        testing_random.do_teardown()
    assert drawn[0] == drawn[1]
    # the global generator continues as if nothing had been drawn
    assert numpy.random.uniform() == expected_after


def test_do_setup_nondeterministic_and_unmatched_teardown():
    from chainerlite.testing import random as testing_random

    testing_random.do_setup(deterministic=False)
    a = numpy.random.randint(2**62)
    testing_random.do_teardown()
    testing_random.do_setup(deterministic=False)
    b = numpy.random.randint(2**62)
    testing_random.do_teardown()
    assert a != b
    with pytest.raises(RuntimeError, match='do_setup'):
        testing_random.do_teardown()
