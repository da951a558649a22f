"""Statistics of the parameters and gradients of links."""

from __future__ import annotations

import numpy

from chainerlite.backends import cuda
from chainerlite import reporter
from chainerlite.training import extension
from chainerlite.training import util as training_util

_PERCENTILE_SIGMAS = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)


def _percentile(x):
    xp = cuda.get_array_module(x)
    return xp.percentile(x, _PERCENTILE_SIGMAS)


def _zeros(x):
    return cuda.get_array_module(x).count_nonzero(x == 0)


class ParameterStatistics(extension.Extension):
    """Reports statistics of the parameters (and gradients) of links.

    For each parameter of each link, each statistic function is applied to
    the flattened array (``data``) and gradient (``grad``) and reported
    under ``'{prefix}/{link name}{param path}/{data|grad}/{statistic}'``
    (``report_key_template``); a statistic that returns several values
    (``percentile``) gets one key per value, suffixed ``/0``, ``/1``, ...

    Args:
        links (~chainerlite.Link or list of them): The links.
        statistics (dict or ``'default'``): Functions by name; ``'default'``
            is :attr:`default_statistics`, ``None`` none (add some with
            :meth:`register_statistics`).
        report_params (bool): Report statistics of the parameters.
        report_grads (bool): Report statistics of the gradients.
        prefix (str): Prefix of the keys.
        trigger: When to report the mean of the statistics collected
            at each call since the last report (``(1, 'epoch')``); the
            extension itself is called at its own trigger (``(1, 'iteration')``
            unless ``Trainer.extend`` says otherwise).
        skip_nan_params (bool): For an array holding NaN, report NaN for
            every statistic without computing them.

    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER
    report_key_template = '{prefix}{link_name}{param_name}/{attr_name}/{function_name}'
    default_statistics = {
        'mean': lambda x: cuda.get_array_module(x).mean(x),
        'std': lambda x: cuda.get_array_module(x).std(x),
        'min': lambda x: cuda.get_array_module(x).min(x),
        'max': lambda x: cuda.get_array_module(x).max(x),
        'zeros': _zeros,
        'percentile': _percentile,
    }

    def __init__(
        self,
        links,
        statistics='default',
        report_params=True,
        report_grads=True,
        prefix=None,
        trigger=(1, 'epoch'),
        skip_nan_params=False,
    ) -> None:
        if not isinstance(links, (list, tuple)):
            links = [links]
        self._links = links
        if statistics is None:
            statistics = {}
        elif statistics == 'default':
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        attrs = []
        if report_params:
            attrs.append('data')
        if report_grads:
            attrs.append('grad')
        self._attrs = attrs
        self._prefix = prefix
        self._trigger = training_util.get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer):
        """Computes the statistics; reports their means when the
        reporting trigger fires."""
        statistics = {}
        prefix = self._prefix + '/' if self._prefix else ''
        for link in self._links:
            link_name = getattr(link, 'name', 'None')
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    array = getattr(param, attr_name)
                    if array is None:
                        continue
                    array = array.ravel()
                    has_nan = self._skip_nan_params and bool(
                        cuda.get_array_module(array).isnan(array).any()
                    )
                    for function_name, function in self._statistics.items():
                        key = self.report_key_template.format(
                            prefix=prefix,
                            link_name=link_name,
                            param_name=param_name,
                            attr_name=attr_name,
                            function_name=function_name,
                        )
                        value = numpy.nan if has_nan else function(array)
                        if getattr(value, 'size', 1) > 1:
                            for i, v in enumerate(value):
                                statistics['{}/{}'.format(key, i)] = v
                        else:
                            statistics[key] = value
        self._summary.add(statistics)
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def register_statistics(self, name, function):
        """Adds a statistic ``function`` (of a flat array) under ``name``."""
        self._statistics[name] = function
