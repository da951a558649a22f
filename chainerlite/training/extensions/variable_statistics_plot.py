"""Plotting the distribution of variables (parameters) over training."""

from __future__ import annotations

import os
import typing

import numpy

from chainerlite.backends import cuda
from chainerlite import link as link_module
from chainerlite.training import extension
from chainerlite.training import util
from chainerlite.training.extensions import _plot
from chainerlite.utils import argument

if typing.TYPE_CHECKING:
    from chainerlite import types
    from chainerlite.training.util import TriggerSpec


class Reservoir(object):
    """A uniform random sample of at most ``size`` of the added arrays.

    Reservoir sampling: every array added so far has the same chance to be
    in the sample, whatever their number.

    Args:
        size (int): Size of the sample.
        data_shape (tuple): Shape of each array.
        dtype: Dtype of the stored arrays.

    """

    def __init__(
        self, size, data_shape, dtype: types.DTypeSpec = numpy.float32
    ) -> None:
        self.size = size
        self.data = numpy.zeros((size,) + tuple(data_shape), dtype=dtype)
        self.idxs = numpy.zeros((size,), dtype=numpy.int64)
        self.counter = 0

    def add(self, x, idx=None):
        """Offers ``x`` (with its index, the count of offers by default)."""
        slot = self.counter
        if slot >= self.size:
            slot = numpy.random.randint(self.counter + 1)
        if slot < self.size:
            self.data[slot] = cuda.to_cpu(x)
            self.idxs[slot] = self.counter if idx is None else idx
        self.counter += 1

    def get_data(self):
        """Returns ``(indices, arrays)`` of the sample, by index."""
        n = min(self.counter, self.size)
        order = numpy.argsort(self.idxs[:n], kind='stable')
        return self.idxs[:n][order], self.data[:n][order]


class Statistician(object):
    """Computes the mean, standard deviation and percentiles of an array.

    Args:
        collect_mean (bool): Compute the mean.
        collect_std (bool): Compute the standard deviation.
        percentile_sigmas (tuple of float): Percentiles to compute (0 to
            100).

    """

    def __init__(self, collect_mean, collect_std, percentile_sigmas) -> None:
        self.collect_mean = collect_mean
        self.collect_std = collect_std
        self.percentile_sigmas = percentile_sigmas

    def __call__(self, x, axis=0, dtype=None, xp=None):
        """Returns :meth:`collect` of ``x`` along ``axis`` (an int, a tuple
        of ints, or ``None`` for all the axes); the values are cast to
        ``dtype`` when it is given. ``xp`` is accepted for Chainer's callers
        and not needed (the module of ``x`` is used)."""
        if axis is None:
            axis = tuple(range(x.ndim))
        elif not isinstance(axis, (tuple, list)):
            axis = (axis,)
        stats = self.collect(x, tuple(axis))
        if dtype is not None:
            stats = {k: v.astype(dtype) for k, v in stats.items()}
        return stats

    def collect(self, x, axis):
        """Returns a dict of ``'mean'``, ``'std'`` and ``'percentile'`` (those
        asked for) of ``x`` over the tuple of axes ``axis``; subclasses
        override it to collect other statistics."""
        xp = cuda.get_array_module(x)
        stats = {}
        if self.collect_mean:
            stats['mean'] = xp.asarray(x.mean(axis=axis))
        if self.collect_std:
            stats['std'] = xp.asarray(x.std(axis=axis))
        if self.percentile_sigmas:
            stats['percentile'] = xp.asarray(
                xp.percentile(x, self.percentile_sigmas, axis=axis)
            )
        return stats


def _variables(targets):
    if not isinstance(targets, (list, tuple)):
        targets = [targets]
    variables = []
    for target in targets:
        if isinstance(target, link_module.Link):
            variables.extend(target.params())
        else:
            variables.append(target)
    return variables


class VariableStatisticsPlot(extension.Extension):
    """Plots the distribution of variables and their gradients over time.

    At each call (each iteration, by the extension's own trigger), the
    mean, standard deviation and percentiles of all the elements of the
    targets (and of their gradients) are sampled into a reservoir; when
    ``trigger`` fires they are drawn against the iteration (percentile
    bands around the median, the mean with its standard deviation) to
    ``trainer.out/filename``. It needs matplotlib (see
    :class:`PlotReport`).

    Args:
        targets: A Variable, a Link (its parameters), or a list of them.
        max_sample_size (int): Maximum number of points per curve.
        report_data (bool): Plot the values.
        report_grad (bool): Plot the gradients.
        plot_mean (bool): Plot the mean.
        plot_std (bool): Plot the standard deviation band.
        percentile_sigmas (tuple of float): Percentiles to plot.
        trigger: When to redraw (``(1, 'epoch')``); not the trigger of
            the extension, which samples at each call.
        filename (str): Name of the image (``'statistics.png'``);
            ``file_name`` is an accepted alias.
        figsize (tuple): Size of the figure in inches.
        marker (str): Marker of the points.
        grid (bool): Draw a grid.

    """

    def __init__(
        self,
        targets,
        max_sample_size=1000,
        report_data=True,
        report_grad=True,
        plot_mean=True,
        plot_std=True,
        percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100),
        trigger: TriggerSpec = (1, 'epoch'),
        filename: str | None = None,
        figsize=None,
        marker=None,
        grid=True,
        **kwargs,
    ) -> None:
        (file_name,) = argument.parse_kwargs(kwargs, ('file_name', 'statistics.png'))
        if filename is None:
            filename = file_name
        self._vars = _variables(targets)
        self._keys = [
            key for key, on in (('data', report_data), ('grad', report_grad)) if on
        ]
        self._trigger = util.get_trigger(trigger)
        self._file_name = filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._percentile_sigmas = tuple(percentile_sigmas)
        self._statistician = Statistician(True, True, self._percentile_sigmas)
        n_stats = 2 + len(self._percentile_sigmas)
        self._reservoirs = {
            key: Reservoir(max_sample_size, (n_stats,)) for key in self._keys
        }

    def __call__(self, trainer):
        """Samples the statistics and redraws when triggered. Without
        matplotlib it only warns (at each call, as Chainer's)."""
        if not self.available():
            return
        iteration = trainer.updater.iteration
        for key in self._keys:
            arrays = [getattr(v, key) for v in self._vars]
            arrays = [cuda.to_cpu(a).ravel() for a in arrays if a is not None]
            if not arrays:
                continue
            stats = self._statistician(numpy.concatenate(arrays), axis=0)
            row = numpy.concatenate(
                [[stats['mean'], stats['std']], stats['percentile']]
            )
            self._reservoirs[key].add(row, iteration)
        if self._trigger(trainer):
            self.save_plot_using_module(
                os.path.join(trainer.out, self._file_name), _plot.pyplot()
            )

    @staticmethod
    def available():
        """Whether matplotlib is installed (warns when it is not)."""
        return _plot.available('VariableStatisticsPlot')

    def save_plot_using_module(self, file_path, plt):
        """Draws the sampled statistics with the pyplot module ``plt`` and
        saves the figure to ``file_path`` (format from its name)."""
        figure, axes = plt.subplots(
            1, len(self._keys), figsize=self._figsize, squeeze=False
        )
        try:
            for ax, key in zip(axes[0], self._keys):
                self._draw_one(ax, key)
            _plot.save_figure(figure, file_path)
        finally:
            plt.close(figure)

    def _draw_one(self, ax, key):
        idxs, data = self._reservoirs[key].get_data()
        ax.set_title(key)
        ax.set_xlabel('iteration')
        if self._grid:
            ax.grid()
        if not len(idxs):
            return
        percentiles = data[:, 2:]
        n = percentiles.shape[1]
        for i in range(n // 2):
            ax.fill_between(
                idxs,
                percentiles[:, i],
                percentiles[:, n - 1 - i],
                color='tab:blue',
                alpha=0.15,
                linewidth=0,
            )
        if n % 2:
            ax.plot(
                idxs,
                percentiles[:, n // 2],
                color='tab:blue',
                marker=self._marker,
                label='median',
            )
        mean, std = data[:, 0], data[:, 1]
        if self._plot_mean:
            ax.plot(idxs, mean, color='tab:orange', marker=self._marker, label='mean')
        if self._plot_std:
            ax.fill_between(
                idxs,
                mean - std,
                mean + std,
                color='tab:orange',
                alpha=0.2,
                linewidth=0,
                label='mean +/- std',
            )
        ax.legend(loc='best')
