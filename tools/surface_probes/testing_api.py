"""chainer.testing as other projects' test suites use it: products of
parameters, parameterized class names, assertions, fixed random draws,
repeated conditions, backend configs and the mock trainer."""

import importlib
import unittest

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _testing(c):
    # a submodule that ``import chainer`` does not load
    return importlib.import_module(c.chainer.__name__ + '.testing')


def products(c):
    t = _testing(c)
    return [
        t.product({'a': [1, 2], 'b': ['x', 'y']}),
        t.product([[{'a': 1}, {'a': 2}], [{'b': 3}]]),
        t.product_dict([{'a': 1}, {'a': 2}], [{'b': 3}, {'b': 4}]),
        attempt(lambda: t.product(3)),
    ]


def parameterized_names(c):
    t = _testing(c)
    module = {}

    @t.parameterize(*t.product({'n': [1, 2], 'dtype': [numpy.float16, numpy.float32]}))
    class TestThing(unittest.TestCase):
        def test_it(self):
            pass

    module.update(
        (name, cls)
        for name, cls in vars(__import__(TestThing.__module__)).items()
        if name.startswith('TestThing')
    )
    return sorted(
        (name, getattr(cls, 'n', None), str(getattr(cls, 'dtype', None)))
        for name, cls in module.items()
    )


def assertions(c):
    t = _testing(c)
    a = numpy.array([1.0, 2.0], numpy.float32)
    out = [
        attempt(lambda: t.assert_allclose(a, a + 1e-6)),
        attempt(lambda: t.assert_allclose(a, a + 1)),
        attempt(lambda: t.assert_allclose(a, a[:1])),
        attempt(lambda: t.assert_allclose(c.chainer.Variable(a), a)),
        attempt(lambda: t.assert_allclose(a, a * 1.5, rtol=0.6, atol=0)),
        attempt(lambda: t.assert_allclose(1.0, 1.0)),
    ]
    try:
        t.assert_allclose(a, a + 1)
    except AssertionError as e:
        text = str(e)
        out.append(['Not equal to tolerance' in text, 'x:' in text or 'x: ' in text])
    return out


def fixed_random(c):
    t = _testing(c)
    draws = []

    class Case(unittest.TestCase):
        # on test methods (on a class it gives a bundle that only a test
        # module expands)
        @t.fix_random()
        def test_a(self):
            draws.append(float(numpy.random.rand()))

        @t.fix_random()
        def test_b(self):
            draws.append(float(numpy.random.rand()))

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Case).run(result)
    return len(set(draws)), len(draws), result.testsRun


def conditions(c):
    cond = importlib.import_module(c.chainer.__name__ + '.testing.condition')
    calls = []

    class Case(unittest.TestCase):
        @cond.repeat_with_success_at_least(4, 2)
        def test_flaky(self):
            calls.append('flaky')
            self.assertTrue(len(calls) % 2 == 0)

        @cond.retry(3)
        def test_retry(self):
            calls.append('retry')
            self.assertGreater(calls.count('retry'), 1)

        @cond.repeat(3)
        def test_repeat(self):
            calls.append('repeat')

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Case).run(result)
    return (sorted(calls), len(result.failures), len(result.errors), result.testsRun)


def backend_configs(c):
    t = _testing(c)
    cfg = t.BackendConfig({'use_cuda': False, 'use_ideep': 'never'})
    return [
        cfg.xp.__name__,
        str(cfg.device),
        cfg.use_cuda,
        cfg.use_ideep,
        cfg.use_chainerx,
        repr(cfg),
        str(cfg),
    ]


def mock_trainer(c):
    t = _testing(c)
    trainer = t.get_trainer_with_mock_updater(
        stop_trigger=(5, 'iteration'), iter_per_epoch=2
    )
    out = []
    for _ in range(3):
        trainer.updater.update()
        out.append(
            (
                trainer.updater.iteration,
                trainer.updater.epoch,
                trainer.updater.epoch_detail,
                trainer.updater.is_new_epoch,
            )
        )
    return out, type(trainer.updater.get_optimizer('main')).__name__


PROBES = _values.probes(globals(), __name__)
