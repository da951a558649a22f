"""``@static_graph`` and ``@static_code``: static sub-graph annotations.

Chainer replays a traced schedule of a chain marked ``@static_graph`` from its
second call on.  chainerlite's core already makes define-by-run cheap, so a
static chain always runs its define-by-run code (results, gradients and
parameter updates are those of the plain chain); what the decorator keeps is
the bookkeeping Chainer exposes: the chain's ``schedule_manager`` holds one
:class:`StaticSchedule` per call signature (train mode, backprop mode, input
shapes and dtypes), each listing the functions its first call ran, and
``static_schedule`` is the schedule of the latest call.
"""

import functools

from chainerlite import configuration
from chainerlite import function_hook
from chainerlite import variable
from chainerlite.graph_optimizations.static_graph_utilities import static_code  # NOQA: F401


class StaticSchedule(object):
    """Functions run by the first call of a static chain for one signature."""

    def __init__(self, key):
        self.key = key
        self.function_labels = []
        self.call_count = 0

    def __repr__(self):
        return 'StaticSchedule(calls={}, functions=[{}])'.format(
            self.call_count, ', '.join(self.function_labels)
        )


class _ScheduleRecorder(function_hook.FunctionHook):
    name = 'StaticScheduleRecorder'

    def __init__(self, schedule):
        self.schedule = schedule

    def forward_postprocess(self, function, in_data):
        self.schedule.function_labels.append(function.label)


class ScheduleManager(object):
    """The static schedules of one chain, keyed by call signature."""

    def __init__(self, minimize_cache_size=True, verbosity_level=0):
        self.minimize_cache_size = minimize_cache_size
        self.verbosity_level = verbosity_level
        self.schedules = {}

    def __repr__(self):
        return 'ScheduleManager({} schedule(s))'.format(len(self.schedules))

    def get_schedule(self, in_vars, enable_double_backprop=False):
        """Returns the schedule of a call with inputs ``in_vars`` (a new,
        empty one for a signature not seen yet).

        ``enable_double_backprop`` is taken as Chainer's; the define-by-run
        graph always supports double backprop.
        """
        key = _signature(tuple(in_vars))
        schedule = self.schedules.get(key)
        if schedule is not None:
            return schedule
        if self.minimize_cache_size:
            # Keep only the schedules of the other train/backprop modes.
            for old in [k for k in self.schedules if k[:2] == key[:2]]:
                del self.schedules[old]
        schedule = StaticSchedule(key)
        self.schedules[key] = schedule
        if self.verbosity_level >= 1:
            print('static_graph: new schedule for signature {}'.format(key))
        return schedule


def _signature(args):
    parts = []
    for arg in args:
        if isinstance(arg, variable.Variable) or hasattr(arg, 'dtype'):
            arr = variable.as_array(arg)
            parts.append((tuple(arr.shape), str(arr.dtype)))
        else:
            parts.append(type(arg).__name__)
    return (
        bool(configuration.config.train),
        bool(configuration.config.enable_backprop),
    ) + tuple(parts)


def _make_static(func, verbosity_level, force_test_define_by_run, minimize_cache_size):
    @functools.wraps(func)
    def wrapper(chain, *args, **kwargs):
        if force_test_define_by_run or not configuration.config.use_static_graph:
            return func(chain, *args, **kwargs)
        manager = getattr(chain, 'schedule_manager', None)
        if manager is None:
            manager = ScheduleManager(minimize_cache_size, verbosity_level)
            chain.schedule_manager = manager
        schedule = manager.get_schedule(args + tuple(kwargs.values()))
        chain.static_schedule = schedule
        schedule.call_count += 1
        if schedule.call_count > 1:
            return func(chain, *args, **kwargs)
        with _ScheduleRecorder(schedule):
            out = func(chain, *args, **kwargs)
        if verbosity_level >= 2:
            print('static_graph: {!r}'.format(schedule))
        return out

    return wrapper


def static_graph(*args, **kwargs):
    """Marks a chain's ``__call__`` (or another method) as a static graph.

    Usable bare (``@static_graph``) or with options
    (``@static_graph(verbosity_level=1)``).

    Args:
        verbosity_level (int): 1 prints when a schedule is created, 2 also
            prints the functions it contains.
        enable_double_backprop (bool): Accepted for compatibility; the
            define-by-run graph always supports double backprop.
        force_test_define_by_run (bool): If ``True``, no schedule is kept.
        minimize_cache_size (bool): Keep a single schedule per train and
            backprop mode rather than one per input signature.
    """
    options = {
        'verbosity_level': 0,
        'enable_double_backprop': False,
        'force_test_define_by_run': False,
        'minimize_cache_size': True,
    }
    unknown = set(kwargs) - set(options)
    if unknown:
        raise TypeError('static_graph: unexpected arguments {}'.format(sorted(unknown)))
    options.update(kwargs)
    del options['enable_double_backprop']
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _make_static(args[0], **options)
    if args:
        raise TypeError('static_graph takes only keyword options')
    return lambda func: _make_static(func, **options)
