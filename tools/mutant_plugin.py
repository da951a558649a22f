"""pytest plugin that plants one mutant in a node's derivative.

A node's derivative is written once: its ``backward`` applies grad nodes
(Chainer's naming: ``<Op>Grad``), whose ``forward`` computes the gradient
arrays (the plain backward pass runs it compute-only) and whose
``backward`` gives the second derivative. So a mutant changes what a
``backward`` returns, or what the ``forward`` of a grad node returns.

A mutant is written ``module:Class:method:operator``, e.g.
``chainerlite.functions.activation.sigmoid:SigmoidGrad:forward:scale``. To run
tests against one mutant::

    CHAINERLITE_MUTANT=chainerlite.functions.activation.tanh:Tanh:backward:scale \\
        .venv/bin/python -m pytest -p tools.mutant_plugin \\
        tests/chainerlite_tests/functions_tests/activation_tests/test_tanh.py

``tools/mutants.py`` registers :class:`MutantPlugin` itself, one pytest
session per mutant in one process.
"""

import dataclasses
import functools
import importlib
import os

from tools import mutant_ops

ENV = 'CHAINERLITE_MUTANT'
METHODS = ('backward',)
# what a grad node's methods give: gradient arrays (forward) and Variables
GRAD_METHODS = ('forward', 'backward')


def mutable_methods(cls_name):
    """The methods mutated on the node class named ``cls_name``."""
    return GRAD_METHODS if cls_name.endswith('Grad') else METHODS


def methods_of(cls):
    """The mutated methods that the node class ``cls`` defines itself."""
    return tuple(m for m in mutable_methods(cls.__name__) if m in vars(cls))


@dataclasses.dataclass
class Mutant:
    """One mutation of one derivative method, and what it did during a run.

    Attributes:
        module (str): Module defining the node class.
        cls (str): Name of the node class that defines ``method`` itself.
        method (str): ``'backward'``, or ``'forward'`` of a grad node.
        operator (str): A key of :data:`tools.mutant_ops.OPERATORS`.
        calls (int): Calls of the mutated method since :meth:`apply`.
        changed (int): Calls whose gradients the operator changed in value.
    """

    module: str
    cls: str
    method: str
    operator: str
    calls: int = 0
    changed: int = 0

    @classmethod
    def parse(cls, spec):
        """Builds a mutant from ``module:Class:method:operator``."""
        module, name, method, operator = spec.split(':')
        if method not in mutable_methods(name) or operator not in mutant_ops.OPERATORS:
            raise ValueError('bad mutant %r' % spec)
        return cls(module, name, method, operator)

    @property
    def spec(self):
        return ':'.join((self.module, self.cls, self.method, self.operator))

    def _target(self):
        return getattr(importlib.import_module(self.module), self.cls)

    def apply(self):
        """Replaces the method on its class by a mutated wrapper."""
        target = self._target()
        original = vars(target)[self.method]
        operator = mutant_ops.OPERATORS[self.operator]

        @functools.wraps(original)
        def mutated(node, *args):
            # counted before the call: a backward that raises by design
            # (a gradient that cannot be differentiated) is called, and no
            # operator can change what it returns
            self.calls += 1
            grads = original(node, *args)
            if not isinstance(grads, (tuple, list)):
                return grads
            grads = tuple(grads)
            new = operator(grads)
            if new is None or not mutant_ops.changes(grads, new):
                return grads
            self.changed += 1
            return new

        self.calls = self.changed = 0
        setattr(target, self.method, mutated)

    def restore(self):
        """Puts the original method back (no-op when it is not mutated)."""
        target = self._target()
        current = vars(target)[self.method]
        if hasattr(current, '__wrapped__'):
            setattr(target, self.method, current.__wrapped__)


class MutantPlugin:
    """Plants ``mutant`` for the length of one pytest session."""

    def __init__(self, mutant):
        self.mutant = mutant

    def pytest_sessionstart(self, session):
        self.mutant.apply()

    def pytest_sessionfinish(self, session, exitstatus):
        self.mutant.restore()

    def pytest_terminal_summary(self, terminalreporter):
        m = self.mutant
        terminalreporter.write_line(
            'mutant %s: %d calls, %d changed' % (m.spec, m.calls, m.changed)
        )


def pytest_configure(config):
    """Registers a :class:`MutantPlugin` when ``CHAINERLITE_MUTANT`` is set."""
    spec = os.environ.get(ENV)
    if spec:
        config.pluginmanager.register(MutantPlugin(Mutant.parse(spec)))
