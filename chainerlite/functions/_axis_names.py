"""Chainer's per-axis attribute names of the 2-D window nodes.

Chainer 7.8.1's 2-D convolution and pooling nodes keep their arguments one
attribute per axis (``sy``/``sx`` the strides, ``ph``/``pw`` the paddings,
``kh``/``kw`` the window, ``dy``/``dx`` the dilations), which code walking
a graph reads (exporters, converters). chainerlite's nodes keep N-d tuples;
:func:`per_axis` gives the same values under Chainer's names.
"""


def per_axis(tuple_of, first, second):
    """Two read-only properties: axis 0 and axis 1 of ``tuple_of(node)``.

    Args:
        tuple_of (callable): Takes the node, returns the tuple of the two
            per-axis values.
        first (str): Name of axis 0's property, for its docstring.
        second (str): Name of axis 1's property.

    Returns:
        tuple: The two properties.
    """
    return tuple(
        property(
            lambda node, axis=axis: tuple_of(node)[axis],
            doc='Axis {} of the value (Chainer name ``{}``).'.format(axis, name),
        )
        for axis, name in enumerate((first, second))
    )


class Window2D:
    """Mixin of the 2-D window nodes that keep N-d tuples: Chainer's names
    ``kh``/``kw``, ``sy``/``sx`` and ``ph``/``pw`` of ``ksize``, ``stride``
    and ``pad``."""

    kh, kw = per_axis(lambda node: node.ksize, 'kh', 'kw')
    sy, sx = per_axis(lambda node: node.stride, 'sy', 'sx')
    ph, pw = per_axis(lambda node: node.pad, 'ph', 'pw')


class Outsize2D:
    """Mixin of the 2-D nodes that choose an output size (deconvolution,
    unpooling, upsampling): Chainer's ``outh``/``outw`` of ``outs``, None
    until the forward fills in one not given."""

    outh, outw = per_axis(lambda node: node.outs, 'outh', 'outw')
