"""Memory layouts of arrays (``chainerlite.memory_layouts``).

A layout says how the axes of an array in memory relate to the axes of the
data it holds, whose order is always the semantic one (``(N, C, H, W)`` for
images, ``(out, in, kh, kw)`` for convolution weights). ``None`` is the
standard layout, where both orders agree; ``CUDNN_CHANNEL_LAST_X`` stores an
image batch as ``(N, H, W, C)`` and ``CUDNN_CHANNEL_LAST_W`` a weight as
``(out, kh, kw, in)``.
"""

CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

_CHANNEL_LAST = (CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


def _check_layout(layout):
    if layout is not None and layout not in _CHANNEL_LAST:
        raise ValueError('unknown memory layout: {!r}'.format(layout))


def get_layout_axes(ndim, layout):
    """Returns, for each memory axis, the semantic axis it holds.

    Args:
        ndim (int): The number of axes (at least 2 for a channel-last
            layout).
        layout: A layout of this module.

    Returns:
        tuple of int: ``axes`` such that ``raw_shape[i] ==
        semantic_shape[axes[i]]``.

    Raises:
        ValueError: If the layout is unknown.

    """
    _check_layout(layout)
    if layout is None:
        return tuple(range(ndim))
    if ndim < 2:
        raise ValueError(
            'a channel-last layout needs at least 2 axes, not {}'.format(ndim)
        )
    return (0,) + tuple(range(2, ndim)) + (1,)


def _inverse(axes):
    inv = [0] * len(axes)
    for i, a in enumerate(axes):
        inv[a] = i
    return tuple(inv)


def _transpose_shape(shape, src_layout, dst_layout):
    # the shape of data stored with src_layout, stored with dst_layout
    src = get_layout_axes(len(shape), src_layout)
    dst = get_layout_axes(len(shape), dst_layout)
    position = _inverse(src)
    return tuple(shape[position[a]] for a in dst)


_unspecified = object()


def get_semantic_shape(arr_or_var, *, assumed_layout=_unspecified):
    """Returns the semantic shape of an array or a Variable.

    chainerlite's Variables and arrays carry no layout, so this is their
    shape, unless ``assumed_layout`` says how an array is stored.

    .. admonition:: Example

        >>> import numpy as np
        >>> from chainerlite import memory_layouts as ml
        >>> raw = np.zeros((8, 32, 32, 3))
        >>> ml.get_semantic_shape(raw, assumed_layout=ml.CUDNN_CHANNEL_LAST_X)
        (8, 3, 32, 32)

    Raises:
        ValueError: If ``assumed_layout`` is unknown.
        AssertionError: If a Variable is assumed to have a layout other
            than the standard one (``None``), as Chainer raises for a
            layout that is not the Variable's.

    """
    from chainerlite import variable

    if isinstance(arr_or_var, variable.Variable):
        if assumed_layout not in (_unspecified, None):
            raise AssertionError(
                'get_semantic_shape: the Variable has the standard layout, '
                'not {!r}'.format(assumed_layout)
            )
        return arr_or_var.shape
    if assumed_layout is _unspecified:
        return arr_or_var.shape
    return _transpose_shape(arr_or_var.shape, assumed_layout, None)


def get_raw_shape(arr_or_var):
    """Returns the shape in memory of an array or a Variable (for
    chainerlite, whose Variables keep the standard layout, their shape)."""
    return arr_or_var.shape


def transpose_array(array, src_layout, dst_layout):
    """Returns ``array`` (stored with ``src_layout``) stored with
    ``dst_layout``, as a transposed view.

    Raises:
        ValueError: If a layout is unknown.

    """
    src = get_layout_axes(array.ndim, src_layout)
    dst = get_layout_axes(array.ndim, dst_layout)
    # memory axis i of the result holds semantic axis dst[i], which sits at
    # memory axis src.index(dst[i]) of the input
    position = _inverse(src)
    return array.transpose(tuple(position[a] for a in dst))
