"""Small helpers for error messages, at the paths Chainer's code reaches them
(``chainer.utils._format_array_props`` and its neighbours)."""


def _format_array_props(arrays):
    """Returns the shapes and dtypes of ``arrays`` as ``'(2, 3):float32, ...'``
    (``None`` entries as ``None``)."""
    if not isinstance(arrays, (list, tuple)):
        # an assertion in Chainer
        raise AssertionError(
            '_format_array_props: arrays must be a list or tuple, not {}'.format(
                type(arrays).__name__
            )
        )
    return ', '.join(
        'None' if a is None else '{}:{}'.format(a.shape, a.dtype.name) for a in arrays
    )


def _check_arrays_forward_compatible(arrays, label=None):
    """Raises ``TypeError`` if ``arrays`` mix array types (host and CuPy
    arrays, or NumPy scalars) in one forward input."""
    import chainerlite

    if not chainerlite.is_arrays_compatible(arrays):
        raise TypeError(
            'incompatible array types are mixed in the forward input{}.\n'
            'Actual: {}'.format(
                '' if label is None else ' ({})'.format(label),
                ', '.join(str(type(a)) for a in arrays),
            )
        )


def _raise_from(exc_type, message, orig_exc):
    """Raises ``exc_type`` whose message ends with the exception that caused
    it, with that exception's traceback."""
    message = '{}\n\n(caused by)\n{}: {}\n'.format(
        message, type(orig_exc).__name__, orig_exc
    )
    raise exc_type(message).with_traceback(orig_exc.__traceback__) from None


def _repr_with_named_data(inst, **kwargs):
    """Returns ``'<module.Class k=v ...>'`` for ``inst``."""
    return '<{}.{} {}>'.format(
        inst.__module__,
        type(inst).__qualname__,
        ' '.join('{}={}'.format(k, v) for k, v in kwargs.items()),
    )
