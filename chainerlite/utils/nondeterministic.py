"""Warning about code whose results may vary from run to run."""

import warnings

from chainerlite import configuration


def nondeterministic(f_name):
    """Warns that ``f_name`` may compute non-deterministically.

    Nothing happens unless ``chainerlite.config.warn_nondeterministic`` is
    true (it is false by default).

    Args:
        f_name (str): The name of the function or code about to run.

    """
    if getattr(configuration.config, 'warn_nondeterministic', False):
        warnings.warn(
            'Potentially non-deterministic code is being executed while '
            'config.warn_nondeterministic set. Source: ' + f_name
        )
