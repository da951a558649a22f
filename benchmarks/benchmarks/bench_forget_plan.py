"""plan_forget and ForgetHook on the Transformer encoder of
benchmarks/models (batch 4): step time and tracemalloc peak without
recomputation, with F.forget on every block, and with the plan at 70% of
the plain peak, with and without a ``keep`` policy (the outputs of the
matrix products: ``plan-keep`` may forget a block keeping them), each also
with the graph released during backward (``config.retain_graph`` False;
the plan made with ``release=True``); and the time plan_forget takes (one
profiled step and the DP).

benchmarks/forget/curves.py measures the same methods on three models
beside PyTorch's checkpointing.
"""

import pathlib
import sys
import tracemalloc

import chainerlite
from chainerlite.functions.connection.linear import LinearFunction
from chainerlite.functions.math.matmul import MatMul
from chainerlite.link_hooks import ForgetHook
from chainerlite.link_hooks import plan_forget

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import models  # noqa: E402

BATCH, FRACTION = 4, 0.7


def _step():
    step = models.make_step('chainerlite', 'transformer', BATCH)
    step()  # the optimizer's state
    return step


def _traced_peak(step):
    step.model.cleargrads()  # the step frees them first; count them
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    step()
    peak = tracemalloc.get_traced_memory()[1] - start
    tracemalloc.stop()
    return peak / 2**20


class ForgetPlanStep:
    params = (['none', 'forget-block', 'plan', 'plan-keep'], [False, True])
    param_names = ['method', 'release']
    timeout = 300

    def setup(self, method, release):
        self.step = _step()
        blocks = list(self.step.model.blocks)
        if method == 'forget-block':
            for block in blocks:
                block.add_hook(ForgetHook())
        elif method.startswith('plan'):
            budget = _traced_peak(self.step) * 2**20 * FRACTION
            keep = (LinearFunction, MatMul) if method == 'plan-keep' else None
            self.plan = plan_forget(
                self.step.model,
                self.step,
                budget,
                blocks=blocks,
                release=release,
                keep=keep,
            ).apply()
        if release and not method.startswith('plan'):
            chainerlite.config.retain_graph = False
        self.step()

    def teardown(self, method, release):
        if method.startswith('plan'):
            self.plan.remove()
        elif release:
            del chainerlite.config.retain_graph

    def time_step(self, method, release):
        self.step()

    def track_traced_peak(self, method, release):
        return _traced_peak(self.step)

    track_traced_peak.unit = 'MiB'


class PlanForget:
    timeout = 300

    def setup(self):
        self.step = _step()
        self.budget = _traced_peak(self.step) * 2**20 * FRACTION

    def time_plan(self):
        plan_forget(self.step.model, self.step, self.budget)
