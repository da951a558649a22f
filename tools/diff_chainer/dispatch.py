"""Routes each public name to the runner for its kind and collects the results."""

import inspect
import time

from tools.diff_chainer import datasets
from tools.diff_chainer import distributions
from tools.diff_chainer import functions
from tools.diff_chainer import generic
from tools.diff_chainer import helpers
from tools.diff_chainer import hooks
from tools.diff_chainer import initializers
from tools.diff_chainer import iterators
from tools.diff_chainer import links
from tools.diff_chainer import names
from tools.diff_chainer import optimizers
from tools.diff_chainer import pair
from tools.diff_chainer import reporter
from tools.diff_chainer import serializers
from tools.diff_chainer import training
from tools.diff_chainer import triggers
from tools.diff_chainer import variables


def runner_for(qualified, obj, chainer):
    """The runner of ``qualified`` (a function of ``(qualified, libs, tally,
    examples, seconds)`` returning None or the reason it made no case), or
    the reason there is none."""
    module = qualified.rpartition('.')[0]
    is_class = inspect.isclass(obj)
    if module == 'chainer.functions' and not is_class:
        return lambda q, *a: functions.run(q.rpartition('.')[2], *a)
    if module == 'chainer.links' and is_class and issubclass(obj, chainer.Link):
        return links.run
    if (
        module == 'chainer.optimizers'
        and is_class
        and issubclass(obj, chainer.Optimizer)
    ):
        return optimizers.run
    if module == 'chainer.optimizer_hooks' and is_class:
        return optimizers.run_hook
    if module == 'chainer.initializers' and is_class:
        return initializers.run
    if module == 'chainer.iterators' and is_class:
        return iterators.run
    if module == 'chainer.distributions' and is_class:
        return distributions.run
    if (module == 'chainer.training.triggers' and is_class) or (
        qualified == 'chainer.training.IntervalTrigger'
    ):
        return triggers.run
    if module == 'chainer' and qualified.rpartition('.')[2] in variables.NAMES:
        return variables.run
    if module == 'chainer' and qualified.rpartition('.')[2] in reporter.NAMES:
        return reporter.run
    if module in ('chainer.utils', 'chainer.backend', 'chainer.dataset'):
        return helpers.run
    if module == 'chainer.serializers':
        return serializers.run
    if module in ('chainer.function_hooks', 'chainer.link_hooks') or qualified in (
        'chainer.FunctionHook',
        'chainer.LinkHook',
    ):
        return hooks.run
    if module.startswith('chainer.training'):
        return training.run
    if module == 'chainer.datasets':
        return datasets.run
    if module == 'chainer.reporter':
        return reporter.run
    return generic.run


def run_all(libs, only, examples, seconds):
    results = {}
    for qualified, obj in names.public_names().items():
        if not any(part in qualified for part in only.split(',')):
            continue
        entry = {'aspects': {}, 'examples': {}, 'cases': 0, 'agreed': 0, 'both_ran': 0}
        try:
            names.twin(qualified)
        except (AttributeError, ImportError) as e:
            entry['aspects'] = {'exists': 1}
            entry['examples'] = {'exists': f'missing in chainerlite: {e}'}
            results[qualified] = entry
            continue
        runner = runner_for(qualified, obj, libs[0])
        if isinstance(runner, str):
            entry['reason'] = runner
            results[qualified] = entry
            continue
        tally = pair.Tally()
        start = time.monotonic()
        try:
            reason = runner(qualified, libs, tally, examples, seconds)
        except Exception as e:  # noqa: BLE001 - a harness failure is reported per name
            reason = f'harness error: {type(e).__name__}: {e}'[:300]
        if reason and not tally.cases:
            # nothing of what it does was compared: what code sees of it is
            generic.run(qualified, libs, tally, examples, seconds)
            entry['note'] = reason
            reason = None
        entry.update(
            cases=tally.cases,
            agreed=tally.agreed,
            agreed_with_references=tally.agreed_with_references,
            referenced=tally.referenced,
            both_ran=tally.both_ran,
            aspects=tally.aspects,
            examples=tally.examples,
            kinds=tally.kinds,
            labels_differed=tally.labels_differed,
            seconds=round(time.monotonic() - start, 2),
        )
        if reason or not tally.cases:
            entry['reason'] = reason or 'no case was made'
        results[qualified] = entry
    return results
