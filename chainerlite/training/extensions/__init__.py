"""Trainer extensions (``chainerlite.training.extensions``), as in Chainer."""

from chainerlite.training.extensions import snapshot_writers  # NOQA

from chainerlite.training.extensions._snapshot import snapshot  # NOQA
from chainerlite.training.extensions._snapshot import snapshot_object  # NOQA
from chainerlite.training.extensions.computational_graph import dump_graph  # NOQA
from chainerlite.training.extensions.computational_graph import DumpGraph  # NOQA
from chainerlite.training.extensions.evaluator import Evaluator  # NOQA
from chainerlite.training.extensions.exponential_shift import ExponentialShift  # NOQA
from chainerlite.training.extensions.fail_on_nonnumber import FailOnNonNumber  # NOQA
from chainerlite.training.extensions.inverse_shift import InverseShift  # NOQA
from chainerlite.training.extensions.linear_shift import LinearShift  # NOQA
from chainerlite.training.extensions.log_report import LogReport  # NOQA
from chainerlite.training.extensions.micro_average import MicroAverage  # NOQA
from chainerlite.training.extensions.multistep_shift import MultistepShift  # NOQA
from chainerlite.training.extensions.parameter_statistics import ParameterStatistics  # NOQA
from chainerlite.training.extensions.plot_report import PlotReport  # NOQA
from chainerlite.training.extensions.polynomial_shift import PolynomialShift  # NOQA
from chainerlite.training.extensions.print_report import PrintReport  # NOQA
from chainerlite.training.extensions.progress_bar import ProgressBar  # NOQA
from chainerlite.training.extensions.step_shift import StepShift  # NOQA
from chainerlite.training.extensions.variable_unchain import unchain_variables  # NOQA
from chainerlite.training.extensions.value_observation import observe_lr  # NOQA
from chainerlite.training.extensions.value_observation import observe_value  # NOQA
from chainerlite.training.extensions.variable_statistics_plot import (
    VariableStatisticsPlot,
)  # NOQA
from chainerlite.training.extensions.warmup_shift import WarmupShift  # NOQA
