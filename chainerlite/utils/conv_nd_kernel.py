"""CUDA kernels of N-d ``im2col`` and ``col2im`` (``chainer.utils.conv_nd_kernel``).

For each number ``N`` of spatial axes, :meth:`Im2colNDKernel.generate` and
:meth:`Col2imNDKernel.generate` write the CUDA source of an elementwise
kernel (``cupy.ElementwiseKernel``'s ``in_params, out_params, operation,
name``): the loops over the axes are unrolled in the source, so the kernel
of each ``N`` is a separate kernel. The column layout is that of
:mod:`chainerlite.utils.conv_nd`: ``(n, c, k_1, ..., k_N, out_1, ...,
out_N)``.

:func:`im2col_kernel` and :func:`col2im_kernel` give the kernel of an
``N`` (made once, registered for ``make check-kernels``; those of 1 to 3
axes are defined when this module is imported).
"""

from chainerlite.backends import cuda
from chainerlite.backends import cuda_kernel

AXIS_PARAMS = ('d', 'out', 'k', 's', 'p', 'di')


def axis_params(ndim, names=AXIS_PARAMS):
    """The scalar parameters of an N-d kernel: ``int32 d_0, int32 d_1,
    ...`` for each name (image lengths ``d``, output lengths ``out``, filter
    lengths ``k``, strides ``s``, paddings ``p``, dilations ``di``).

    Args:
        ndim (int): Number of spatial axes.
        names (tuple of str): The parameter names, in order.

    Returns:
        str: The parameter list.

    """
    return ', '.join(
        'int32 {}_{}'.format(name, a) for name in names for a in range(ndim)
    )


def split_index(index, names, lengths):
    """CUDA statements that split the flat index ``index`` (a ``ptrdiff_t``
    variable, consumed) into one coordinate per axis, last axis fastest.

    Args:
        index (str): The variable holding the flat index.
        names (list of str): The coordinate variables to declare, in axis
            order.
        lengths (list of str): The length of each axis.

    Returns:
        str: The statements.

    """
    lines = []
    for name, length in reversed(list(zip(names, lengths))):
        lines.append('const int {} = {} % {};'.format(name, index, length))
        lines.append('{} /= {};'.format(index, length))
    return '\n'.join(lines)


def flat_index(head, names, lengths):
    """A C expression of the flat (C order) index of coordinates ``names``
    along axes of ``lengths``, after the leading flat index ``head``.

    Args:
        head (str): The flat index of the leading axes.
        names (list of str): Coordinates.
        lengths (list of str): Axis lengths.

    Returns:
        str: The expression.

    """
    expr = head
    for name, length in zip(names, lengths):
        expr = '({} * {} + {})'.format(expr, length, name)
    return expr


def _names(prefix, ndim):
    return ['{}_{}'.format(prefix, a) for a in range(ndim)]


class Im2colNDKernel(object):
    """Source of the N-d ``im2col`` kernel.

    It runs over the elements of the column array ``col`` (the output) and
    reads each from the images ``img`` (a raw input), zero where the tap
    falls in the padding.
    """

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        """Returns ``(in_params, out_params, operation, name)`` for ``ndim``
        spatial axes (written once per ``ndim`` until
        :func:`~chainerlite.backends.cuda.clear_memo`)."""
        return Im2colNDKernel._generate(ndim)

    @staticmethod
    def _generate(ndim):
        j, o, x = _names('j', ndim), _names('o', ndim), _names('x', ndim)
        lines = [
            'ptrdiff_t rest = i;',
            split_index('rest', j + o, _names('k', ndim) + _names('out', ndim)),
        ]
        for a in range(ndim):
            lines.append(
                'const int x_{a} = o_{a} * s_{a} - p_{a} + j_{a} * di_{a};'.format(a=a)
            )
        inside = ' && '.join(
            '0 <= x_{a} && x_{a} < d_{a}'.format(a=a) for a in range(ndim)
        )
        lines.append(
            'col = ({}) ? img[{}] : (T)0;'.format(
                inside, flat_index('rest', x, _names('d', ndim))
            )
        )
        return (
            'raw T img, ' + axis_params(ndim),
            'T col',
            '\n'.join(lines),
            'im2col_{}d'.format(ndim),
        )


class Col2imNDKernel(object):
    """Source of the N-d ``col2im`` kernel.

    It runs over the elements of the images ``img`` (the output) and sums,
    in the accumulation type of ``T``, the column entries of every tap and
    output position that reads the element.
    """

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        """Returns ``(in_params, out_params, operation, name)`` for ``ndim``
        spatial axes (written once per ``ndim`` until
        :func:`~chainerlite.backends.cuda.clear_memo`)."""
        return Col2imNDKernel._generate(ndim)

    @staticmethod
    def _generate(ndim):
        x, j, o = _names('x', ndim), _names('j', ndim), _names('o', ndim)
        lines = [
            'ptrdiff_t rest = i;',
            split_index('rest', x, _names('d', ndim)),
            'typename acc_type<T>::type sum = 0;',
        ]
        for a in range(ndim):
            lines.append(
                'for (int j_{a} = 0; j_{a} < k_{a}; ++j_{a}) {{\n'
                'const int t_{a} = x_{a} + p_{a} - j_{a} * di_{a};\n'
                'if (t_{a} < 0 || t_{a} % s_{a} != 0) continue;\n'
                'const int o_{a} = t_{a} / s_{a};\n'
                'if (o_{a} >= out_{a}) continue;'.format(a=a)
            )
        index = flat_index(
            flat_index('rest', j, _names('k', ndim)), o, _names('out', ndim)
        )
        lines.append('sum += (typename acc_type<T>::type)col[{}];'.format(index))
        lines.append('}' * ndim)
        lines.append('img = (T)sum;')
        return (
            'raw T col, ' + axis_params(ndim),
            'T img',
            '\n'.join(lines),
            'col2im_{}d'.format(ndim),
        )


_kernels = {}


def _kernel(generator, ndim):
    key = (generator, ndim)
    if key not in _kernels:
        in_params, out_params, operation, name = generator.generate(ndim)
        _kernels[key] = cuda_kernel.Elementwise(
            in_params, out_params, operation, name, preamble=cuda_kernel.ACC_TYPE
        )
    return _kernels[key]


def im2col_kernel(ndim):
    """The :class:`~chainerlite.backends.cuda_kernel.Elementwise` kernel of
    :class:`Im2colNDKernel` for ``ndim`` axes."""
    return _kernel(Im2colNDKernel, ndim)


def col2im_kernel(ndim):
    """The kernel of :class:`Col2imNDKernel` for ``ndim`` axes."""
    return _kernel(Col2imNDKernel, ndim)


for _ndim in (1, 2, 3):
    im2col_kernel(_ndim)
    col2im_kernel(_ndim)
