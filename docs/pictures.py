"""Draws docs/_static/trace.png and graph.svg, the pictures of the
function-hooks guide, from the guide's example (needs matplotlib and
Graphviz's ``dot``): ``python docs/pictures.py``.
"""

import pathlib

import matplotlib
import numpy as np

import chainerlite as chainer
import chainerlite.functions as F
from chainerlite import computational_graph
from chainerlite.function_hooks import TimerHook, TraceHook

matplotlib.use('Agg')
from matplotlib import pyplot  # NOQA: E402  (after choosing the backend)

STATIC = pathlib.Path(__file__).resolve().parent / '_static'


def _example():
    x = chainer.Variable(np.ones((20, 30), np.float32))
    loss = F.sum(F.exp(F.tanh(x)))
    loss.backward()
    return loss


def draw_trace(path):
    # One row per nesting depth, as a trace viewer shows one thread.
    _example()  # once before, so that first-call costs are not drawn
    with TraceHook() as trace:
        _example()
    events = trace.events
    figure, axes = pyplot.subplots(figsize=(8, 1.8))
    for e in events:
        color = 'tab:blue' if e.phase == 'forward' else 'tab:orange'
        axes.broken_barh(
            [(e.start * 1e6, e.duration * 1e6)],
            (-e.depth - 0.4, 0.8),
            color=color,
            edgecolor='white',
        )
        if e.duration > 0.04 * (events[-1].start - events[0].start):
            axes.text(
                (e.start + e.duration / 2) * 1e6,
                -e.depth,
                e.name,
                ha='center',
                va='center',
                fontsize=6,
                color='white',
            )
    origin = events[0].start * 1e6
    end = max((e.start + e.duration) * 1e6 for e in events)
    axes.set_xlim(origin - 5, end + 5)
    axes.set_yticks([0, -1], ['depth 0', 'depth 1'])
    axes.set_xlabel(
        'microseconds since the hook was created (blue: forward, orange: backward)'
    )
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def draw_graph(path):
    with TimerHook() as timer:
        loss = _example()
    graph = computational_graph.build_computational_graph([loss])
    graph.colorize_by_time(timer).render(str(path))


if __name__ == '__main__':
    STATIC.mkdir(exist_ok=True)
    draw_trace(STATIC / 'trace.png')
    draw_graph(STATIC / 'graph.svg')
