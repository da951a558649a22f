import unittest

import numpy

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
