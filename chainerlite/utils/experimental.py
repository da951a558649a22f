"""Marking APIs as experimental (``chainerlite.utils.experimental``)."""

import warnings

import chainerlite


def experimental(api_name):
    """Warns that an API is experimental.

    Call it at the start of the experimental function, method or class
    constructor. It issues a FutureWarning saying that ``api_name`` is
    experimental, unless ``chainerlite.disable_experimental_feature_warning``
    is True (its initial value comes from the environment variable
    ``CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING``).

    Args:
        api_name (str): The name shown in the warning (``'MyClass'``,
            ``'MyClass.method'``).

    """
    if chainerlite.disable_experimental_feature_warning:
        return
    warnings.warn(
        '{} is experimental. The interface can change in the future.'.format(api_name),
        FutureWarning,
        stacklevel=3,
    )
