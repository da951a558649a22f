"""Lazy access to matplotlib for the plotting extensions.

matplotlib is optional; ``matplotlib.pyplot`` is imported only when a plot
is drawn, so that the user can still call ``matplotlib.use`` before.
"""

import importlib.util
import os
import warnings

from chainerlite.training.extensions import _atomic


def available(extension_name):
    """Whether matplotlib can be imported; warns when it cannot."""
    if importlib.util.find_spec('matplotlib') is not None:
        return True
    warnings.warn(
        '{} needs matplotlib, which is not installed: no plot will be '
        'written (pip install matplotlib)'.format(extension_name),
        UserWarning,
    )
    return False


def pyplot():
    """Returns ``matplotlib.pyplot`` (imported now, not at module import).

    Without a display, matplotlib picks its non-interactive Agg backend.
    """
    import matplotlib.pyplot as plt

    return plt


def save_figure(figure, path):
    """Saves ``figure`` to ``path`` atomically (format from the name)."""
    fmt = os.path.splitext(path)[1].lstrip('.') or 'png'
    _atomic.write_file(
        path, lambda tmp: figure.savefig(tmp, format=fmt, bbox_inches='tight')
    )
