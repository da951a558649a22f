"""docs/performance.png and docs/performance.md from compare.py's JSON.

The figure: per-op time of the 200-op chain and per-layer time of the tiny MLP
for every engine, and the overhead of each FunctionHook (ns per op). The page:
the machine, the settings, every results table, the targets, the figure, and
last the hand-written notes of benchmarks/performance_notes.md (how the
figures are reached and what bounds them), which a regeneration keeps.

    python benchmarks/compare.py --json results.json
    python benchmarks/plot.py results.json --out docs
"""

import argparse
import json
import os
import sys

import matplotlib
import matplotlib.pyplot as plt
import matplotlib.ticker

from compare import TABLES, table

matplotlib.use('Agg')  # files only, no display

NAMES = {
    'python': 'Python',
    'numpy': 'NumPy',
    'chainerlite': 'chainerlite',
    'chainer': 'Chainer',
    'torch': 'PyTorch',
}
NOTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'performance_notes.md')
COLOURS = {
    'chainerlite': '#d62728',
    'chainer': '#1f77b4',
    'torch': '#ff7f0e',
    'numpy': '#7f7f7f',
}


def stats(results):
    return {
        'us': results['us_per_op'],
        'delta': results['hook_delta_ns_per_op'],
        'peak': results['peak_bytes'],
    }


def bar_panel(ax, names, values, unit, title, spec='.3g'):
    """Horizontal bars coloured by engine, each labelled with its value.

    The scale is logarithmic when the values span more than a factor of ten.
    """
    if not names:
        ax.set_axis_off()
        return
    ys = range(len(names))
    ax.barh(ys, values, color=[COLOURS[n.split()[0]] for n in names])
    ax.set_yticks(ys, names)
    ax.invert_yaxis()
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(unit)
    log = min(values) > 0 and max(values) > 10 * min(values)
    if log:
        ax.set_xscale('log')
        ax.set_xlim(min(values) / 3, max(values) * 4)
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    else:
        ax.axvline(0, color='black', linewidth=0.8)
        ax.margins(x=0.2)
    for y, v in zip(ys, values):
        ax.annotate(
            format(v, spec),
            (v, y),
            xytext=(3 if v >= 0 else -3, 0),
            textcoords='offset points',
            ha='left' if v >= 0 else 'right',
            va='center',
            fontsize=8,
        )


def time_panel(ax, results, group, title):
    """Plain rows only: each engine's time per op."""
    unit, per_us = TABLES[group][:2]
    names = [
        n
        for n in results['groups'][group]['rows']
        if f'{group}:{n}' not in results['hook_delta_ns_per_op']
    ]
    values = [results['us_per_op'][f'{group}:{n}'] * per_us for n in names]
    bar_panel(ax, names, values, unit, title)


def figure(results, path):
    delta = results['hook_delta_ns_per_op']
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), layout='constrained')
    time_panel(axes[0], results, 'chain', 'h * 1.0001 x200 on 10x10, sum, backward')
    time_panel(axes[1], results, 'mlp', 'tiny MLP: batch 1, width 16, depth 8')
    hooks = [n for n in results['groups']['chain']['rows'] if f'chain:{n}' in delta]
    bar_panel(
        axes[2],
        hooks,
        [delta[f'chain:{n}'] for n in hooks],
        'ns/op',
        'FunctionHook overhead on the chain (paired delta)',
        spec='+.0f',
    )
    fig.suptitle(
        f'{results["machine"]["cpu"]}, {results["machine"]["cores"]} cores, '
        f'{results["machine"]["date"]}: lower is better',
        fontsize=10,
    )
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown_table(head, rows, numeric=True):
    """Columns after the first are right-aligned when they hold numbers."""
    align = ['---'] + ['---:' if numeric else '---'] * (len(head) - 1)
    return ['| ' + ' | '.join(r) + ' |' for r in [head, align] + rows]


def machine_section(results):
    m, versions = results['machine'], results['versions']
    rows = [
        ['CPU', m['cpu']],
        ['cores', str(m['cores'])],
        ['OS', m['platform']],
        [
            'load average at start (1, 5, 15 min)',
            ', '.join(f'{x:.2f}' for x in m['load average']),
        ],
    ]
    rows.append(
        [
            'thread settings',
            ', '.join(f'{k}={v}' for k, v in m['threads'].items())
            or 'library defaults',
        ]
    )
    rows += [[NAMES.get(k, k), v] for k, v in versions.items()]
    return ['## Machine', ''] + markdown_table(['', ''], rows, numeric=False)


def results_section(results):
    lines = ['## Results']
    for group, info in results['groups'].items():
        if not info['rows']:
            continue
        head, rows = table(group, info['rows'], stats(results))
        lines += ['', f'**{group}**: {info["title"]}', ''] + markdown_table(head, rows)
    return lines


def targets_section(results):
    rows = [
        [
            t['target'],
            '-'
            if t['value'] is None
            else (
                f'{t["value"]:+.0f}' if t['unit'] == 'ns/op' else f'{t["value"]:.3f}'
            ),
            t['unit'],
            f'**{t["verdict"]}**' if t['verdict'] == 'MISS' else t['verdict'],
        ]
        for t in results['targets']
    ]
    return ['## Targets', ''] + markdown_table(
        ['target', 'value', 'unit', 'verdict'], rows
    )


def page(results, figure_name):
    return '\n'.join(
        [
            '# Performance',
            '',
            '<!-- Generated by `make perf-docs` (benchmarks/compare.py --json, then '
            'benchmarks/plot.py); do not edit. -->',
            '',
            f'`benchmarks/compare.py`, {results["machine"]["date"]}; '
            f'{results["settings"]}. One process; each round runs every contestant '
            'of a section once, in a rotating order; medians over the rounds. An '
            '`x NAME` column divides the time (or peak) of a row by that of row NAME; '
            'hook columns are per-round paired deltas against the plain row; peak '
            'memory is what tracemalloc traces during one run, above its start. '
            'Regenerate with `make perf-docs` (see the Makefile for `PERF_PYTHON`).',
            '',
            *machine_section(results),
            '',
            *results_section(results),
            '',
            *targets_section(results),
            '',
            '## Figure',
            '',
            f'![per-op time and hook overhead]({figure_name})',
            '',
            *notes_section(),
        ]
    )


def notes_section():
    if not os.path.exists(NOTES):
        return []
    with open(NOTES) as f:
        return ['## Notes', '', f.read().rstrip('\n'), '']


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('results', help="compare.py's --json output")
    p.add_argument('--out', default='docs', help='folder for performance.{md,png}')
    args = p.parse_args(argv)
    with open(args.results) as f:
        results = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    figure(results, os.path.join(args.out, 'performance.png'))
    with open(os.path.join(args.out, 'performance.md'), 'w') as f:
        f.write(page(results, 'performance.png'))
    print(f'wrote {args.out}/performance.png and {args.out}/performance.md')
    return 0


if __name__ == '__main__':
    sys.exit(main())
