"""Skeletons of the CUDA kernels of N-d poolings (Chainer's
``chainer.functions.pooling.pooling_nd_kernel``).

A pooling kernel is an elementwise kernel whose loops over the ``N`` window
axes are unrolled in its source. :class:`PoolingNDKernelForward` runs over
the output elements and visits the taps of each one's window;
:class:`PoolingNDKernelBackward` runs over the input elements and visits
every window that reads each one. A subclass fills in what is done before,
at and after the visits (see the methods); ``generate(ndim)`` returns
``cupy.ElementwiseKernel``'s ``(in_params, out_params, operation, name)``.

In the source, ``nc`` is the flat index of the batch and channel axes,
``o_a`` the output and ``x_a`` the input coordinate along axis ``a``,
``j_a`` the tap, and ``tap`` the flat position of the tap in the window.
"""

from chainerlite.backends import cuda_kernel
from chainerlite.utils import conv_nd_kernel

_kernels = {}


def kernel(generator, ndim, check_types=None):
    """The :class:`~chainerlite.backends.cuda_kernel.Elementwise` kernel of
    ``generator`` (a pooling kernel class) for ``ndim`` axes, made once.

    Args:
        generator (type): The class whose ``generate(ndim)`` gives the
            source.
        ndim (int): Number of spatial axes.
        check_types (list of dict): As for
            :class:`~chainerlite.backends.cuda_kernel.Elementwise`.

    """
    key = (generator, ndim)
    if key not in _kernels:
        in_params, out_params, operation, name = generator.generate(ndim)
        _kernels[key] = cuda_kernel.Elementwise(
            in_params,
            out_params,
            operation,
            name,
            preamble=cuda_kernel.ACC_TYPE,
            check_types=check_types,
        )
    return _kernels[key]


def window_args(dims, outs, node):
    """The window arguments of a pooling kernel call: the input lengths
    ``dims``, the output lengths ``outs``, and the ``ksize``, ``stride``
    and ``pad`` of the pooling ``node``."""
    return (
        tuple(dims)
        + tuple(outs)
        + tuple(node.ksize)
        + tuple(node.stride)
        + tuple(node.pad)
    )


def _names(prefix, ndim):
    return ['{}_{}'.format(prefix, a) for a in range(ndim)]


class _PoolingNDKernel(object):
    #: kernel name, formatted with the number of axes
    name: str | None = None

    @classmethod
    def in_params(cls, ndim):
        """Parameters before the window's (``raw T in`` and the like)."""
        raise NotImplementedError

    @classmethod
    def extra_in_params(cls):
        """Parameters after the window's (``, T coeff``), or ``''``."""
        return ''

    @classmethod
    def out_params(cls):
        """Output parameters."""
        raise NotImplementedError

    @classmethod
    def before(cls):
        """Code run before the visits."""
        return ''

    @classmethod
    def at_tap(cls, ndim):
        """Code run at each visit."""
        raise NotImplementedError

    @classmethod
    def after(cls):
        """Code run after the visits."""
        return ''

    @classmethod
    def generate(cls, ndim):
        """Returns ``(in_params, out_params, operation, name)`` of the
        kernel for ``ndim`` spatial axes."""
        in_params = '{}, {}{}'.format(
            cls.in_params(ndim),
            conv_nd_kernel.axis_params(ndim, ('d', 'out', 'k', 's', 'p')),
            cls.extra_in_params(),
        )
        lines = ['ptrdiff_t nc = i;'] + cls._visit(ndim)
        return (in_params, cls.out_params(), '\n'.join(lines), cls.name.format(ndim))

    @classmethod
    def tap_index(cls, ndim):
        """C expression of ``tap``: the flat position of the tap."""
        return conv_nd_kernel.flat_index('0', _names('j', ndim), _names('k', ndim))


class PoolingNDKernelForward(_PoolingNDKernel):
    """A kernel over the output elements, visiting each window's taps; at
    a visit, ``inside`` tells whether the tap reads an input element (not
    the padding) and ``x_index`` is that element's flat index."""

    @classmethod
    def _visit(cls, ndim):
        x = _names('x', ndim)
        lines = [
            conv_nd_kernel.split_index('nc', _names('o', ndim), _names('out', ndim)),
            cls.before(),
        ]
        for a in range(ndim):
            lines.append('for (int j_{a} = 0; j_{a} < k_{a}; ++j_{a}) {{'.format(a=a))
            lines.append('const int x_{a} = o_{a} * s_{a} - p_{a} + j_{a};'.format(a=a))
        inside = ' && '.join(
            '0 <= x_{a} && x_{a} < d_{a}'.format(a=a) for a in range(ndim)
        )
        lines += [
            'const bool inside = {};'.format(inside),
            'const ptrdiff_t x_index = inside ? {} : 0;'.format(
                conv_nd_kernel.flat_index('nc', x, _names('d', ndim))
            ),
            'const int tap = {};'.format(cls.tap_index(ndim)),
            cls.at_tap(ndim),
            '}' * ndim,
            cls.after(),
        ]
        return lines


class PoolingNDKernelBackward(_PoolingNDKernel):
    """A kernel over the input elements, visiting each window that reads
    the element; at a visit, ``y_index`` is the flat index of the window's
    output element. Both poolings sum gradients into ``gx`` in the
    accumulation type."""

    @classmethod
    def out_params(cls):
        return 'T gx'

    @classmethod
    def before(cls):
        return 'typename acc_type<T>::type sum = 0;'

    @classmethod
    def _visit(cls, ndim):
        lines = [
            conv_nd_kernel.split_index('nc', _names('x', ndim), _names('d', ndim)),
            cls.before(),
        ]
        for a in range(ndim):
            lines.append(
                'for (int j_{a} = 0; j_{a} < k_{a}; ++j_{a}) {{\n'
                'const int t_{a} = x_{a} + p_{a} - j_{a};\n'
                'if (t_{a} < 0 || t_{a} % s_{a} != 0) continue;\n'
                'const int o_{a} = t_{a} / s_{a};\n'
                'if (o_{a} >= out_{a}) continue;'.format(a=a)
            )
        lines += [
            'const ptrdiff_t y_index = {};'.format(
                conv_nd_kernel.flat_index('nc', _names('o', ndim), _names('out', ndim))
            ),
            'const int tap = {};'.format(cls.tap_index(ndim)),
            cls.at_tap(ndim),
            '}' * ndim,
            cls.after(),
        ]
        return lines
