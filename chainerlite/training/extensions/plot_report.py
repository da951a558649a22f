"""Plotting observed values over the training."""

from __future__ import annotations

import json
import os
import typing

from chainerlite import reporter
from chainerlite.serializers import _checks
from chainerlite.training import extension
from chainerlite.training import util
from chainerlite.training.extensions import _plot
from chainerlite.training.triggers import _progress
from chainerlite.utils import argument

if typing.TYPE_CHECKING:
    from chainerlite.training.util import TriggerSpec


class PlotReport(extension.Extension):
    """Plots the means of observed values against iterations or epochs.

    Called every iteration, it accumulates the values under ``y_keys``;
    when ``trigger`` fires it adds the means to the curves and redraws the
    figure to ``trainer.out/filename`` (the file is replaced atomically).
    It needs matplotlib: without it, a warning is given when the extension
    is created and it neither collects nor draws anything (as Chainer's).

    Args:
        y_keys (str or list of str): Keys of the plotted values.
        x_key (str): ``'iteration'``, ``'epoch'`` or one of ``y_keys``
            (another is a ``KeyError`` when the first point is added).
        trigger: Interval of the points (``(1, 'epoch')``).
        postprocess (callable): Called with ``(figure, axes, summary)``
            before the figure is saved.
        filename (str): Name of the image (``'plot.png'``); ``file_name``
            is an accepted alias.
        marker (str): Marker of the points.
        grid (bool): Draw a grid.

    """

    def __init__(
        self,
        y_keys,
        x_key='iteration',
        trigger: TriggerSpec = (1, 'epoch'),
        postprocess: typing.Callable[..., typing.Any] | None | None = None,
        filename: str | None = None,
        marker='x',
        grid=True,
        **kwargs,
    ) -> None:
        (file_name,) = argument.parse_kwargs(kwargs, ('file_name', 'plot.png'))
        if filename is None:
            filename = file_name
        if isinstance(y_keys, str):
            y_keys = [y_keys]
        self._x_key = x_key
        self._y_keys = list(y_keys)
        self._trigger = util.get_trigger(trigger)
        self._file_name = filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._data = {key: [] for key in self._y_keys}
        self._summary = reporter.DictSummary()
        _plot.available('PlotReport')  # warns now without matplotlib

    @staticmethod
    def available():
        """Whether matplotlib is installed (warns when it is not)."""
        return _plot.available('PlotReport')

    def __call__(self, trainer):
        """Accumulates the values; adds the points and redraws when
        triggered. Without matplotlib it does nothing but warn, as
        Chainer's."""
        if not self.available():
            return
        observation = trainer.observation
        self._summary.add(
            {key: observation[key] for key in self._y_keys if key in observation}
        )
        # as in Chainer: a call before the first iteration draws without
        # asking the trigger, and x is the epoch, the iteration or the mean
        # of one of the plotted keys
        if not (trainer.is_before_training or self._trigger(trainer)):
            return
        means = {k: float(v) for k, v in self._summary.compute_mean().items()}
        means['epoch'] = trainer.updater.epoch
        means['iteration'] = trainer.updater.iteration
        x = means[self._x_key]
        for key in self._y_keys:
            if key in means:
                self._data[key].append((x, means[key]))
        self._draw(os.path.join(trainer.out, self._file_name))
        self._summary = reporter.DictSummary()

    def _draw(self, path):
        plt = _plot.pyplot()
        figure = plt.figure()
        try:
            axes = figure.add_subplot(111)
            axes.set_xlabel(self._x_key)
            if self._grid:
                axes.grid()
            for key in self._y_keys:
                points = self._data[key]
                if points:
                    xs, ys = zip(*points)
                    axes.plot(xs, ys, marker=self._marker, label=key)
            if axes.has_data():
                axes.legend(bbox_to_anchor=(1.05, 1), loc='upper left', borderaxespad=0)
            if self._postprocess is not None:
                self._postprocess(figure, axes, self._summary)
            _plot.save_figure(figure, path)
        finally:
            plt.close(figure)

    def serialize(self, serializer):
        """Saves or loads the plotted points (what Chainer's snapshot holds).

        The reporting trigger is not saved; once loaded, it fires where the
        uninterrupted run would (see ``triggers._progress.forget_position``).
        """
        if _checks.loading(serializer):
            _progress.forget_position(self._trigger)
        data = _checks.load_json(
            serializer,
            '_plot_{}'.format(self._file_name),
            json.dumps(self._data),
            'PlotReport.serialize',
            dict,
        )
        self._data = {key: [tuple(p) for p in points] for key, points in data.items()}
