"""Evaluation of models on a validation set during training."""

from __future__ import annotations

import copy
import typing
import warnings

from chainerlite import backend
from chainerlite import configuration
from chainerlite.dataset import convert
from chainerlite import function
from chainerlite import reporter as reporter_module
from chainerlite.training import extension
from chainerlite.training.extensions import util
from chainerlite.utils import argument

if typing.TYPE_CHECKING:
    from chainerlite import types


class Evaluator(extension.Extension):
    """Evaluates the target on a dataset and reports the mean values.

    Each call runs :meth:`evaluate` in a new reporter where the targets are
    registered as observers (under ``'<name>/<target name>'``, e.g.
    ``'validation/main'``), with ``config.train`` off and no backprop, and
    reports the means of the observed values to the current reporter.

    Args:
        iterator: Iterator over the validation set (or a dict with
            ``'main'``). It should not repeat.
        target: The link to evaluate (or a dict of links with ``'main'``).
        converter: Converter of batches (default
            :func:`~chainerlite.dataset.concat_examples`).
        device: Device the batches are sent to.
        eval_hook (callable): Called with the evaluator before each
            evaluation.
        eval_func (callable): Called with each converted batch; the
            ``'main'`` target by default.
        progress_bar (bool): Show the progress of each evaluation on the
            terminal.

    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER

    def __init__(
        self,
        iterator: typing.Any,
        target: typing.Any,
        converter: typing.Callable[..., typing.Any] = convert.concat_examples,
        device: types.DeviceSpec | None = None,
        eval_hook: typing.Callable[..., typing.Any] | None | None = None,
        eval_func: typing.Callable[..., typing.Any] | None | None = None,
        **kwargs,
    ) -> None:
        (progress_bar,) = argument.parse_kwargs(kwargs, ('progress_bar', False))
        if not isinstance(iterator, dict):
            iterator = {'main': iterator}
        if not isinstance(target, dict):
            target = {'main': target}
        for it in iterator.values():
            if getattr(it, 'repeat', False):
                warnings.warn(
                    'Evaluator: the iterator repeats (repeat=True), so the '
                    'evaluation never ends; create it with repeat=False',
                    UserWarning,
                )
        self._iterators = iterator
        self._targets = target
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar

    def get_iterator(self, name):
        """Returns the iterator of the given name."""
        return self._iterators[name]

    def get_all_iterators(self):
        """Returns a dict of the iterators."""
        return dict(self._iterators)

    def get_target(self, name):
        """Returns the target link of the given name."""
        return self._targets[name]

    def get_all_targets(self):
        """Returns a dict of the target links."""
        return dict(self._targets)

    def __call__(self, trainer=None):
        """Evaluates and reports the means; returns them (a dict)."""
        reporter = reporter_module.Reporter()
        prefix = self.name + '/' if self.name else ''
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            reporter.add_observers(prefix + name, target.namedlinks(skipself=True))
        with reporter:
            with configuration.using_config('train', False):
                result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self):
        """Runs the evaluation over the whole iterator.

        Returns:
            dict: The mean of each value observed in the evaluation.

        """
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets['main']
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            warnings.warn(
                'Evaluator: the iterator has no reset method, so it is '
                'copied for each evaluation; this is deprecated, give the '
                'iterator a reset method',
                DeprecationWarning,
            )
            it = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        progress = _EvaluationProgress(self._progress_bar, iterator)
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = convert._call_converter(self.converter, batch, self.device)
                with function.no_backprop_mode():
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
            progress.update(len(batch) if hasattr(batch, '__len__') else 1)
        progress.close()
        return summary.compute_mean()

    def finalize(self):
        """Finalizes the iterators."""
        for iterator in self._iterators.values():
            iterator.finalize()


class _EvaluationProgress(object):
    # "validation [#####.....] 50.00% (120/240 examples, 35.2 iters/sec)"

    def __init__(self, enabled, iterator):
        self._redrawer = util.Redrawer(util.resolve_out(None)) if enabled else None
        dataset = getattr(iterator, 'dataset', None)
        self._total = len(dataset) if hasattr(dataset, '__len__') else None
        self._done = 0
        self._iterations = 0
        self._speed = util.Speedometer()

    def update(self, n):
        if self._redrawer is None:
            return
        self._done += n
        self._iterations += 1
        self._speed.add(self._iterations)
        if self._total:
            fraction = self._done / self._total
            line = 'validation {} {:6.2%} ({}/{} examples'.format(
                util.bar(fraction, 30), fraction, self._done, self._total
            )
        else:
            line = 'validation ({} examples'.format(self._done)
        self._redrawer.draw(['{}, {:.4g} iters/sec)'.format(line, self._speed.speed())])

    def close(self):
        if self._redrawer is not None:
            self._redrawer.close()
