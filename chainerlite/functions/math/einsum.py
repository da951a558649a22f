"""Einstein summation over any number of operands."""

import string

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

# Subscript letters; a sublist's int ``k`` stands for ``einsum_symbols[k]``.
einsum_symbols = string.ascii_uppercase + string.ascii_lowercase


def _einsum(xp, in_subs, out_sub, inputs, out_shape):
    # Like xp.einsum, but the output subscripts may repeat a letter (the
    # result fills that diagonal of zeros) or hold letters that no input
    # has (the result is broadcast along them); ``out_shape`` gives their
    # sizes.
    present = set(''.join(in_subs))
    labels = ''.join(dict.fromkeys(out_sub))
    direct = ''.join(c for c in labels if c in present)
    y = xp.einsum(
        '{}->{}'.format(','.join(in_subs), direct), *inputs, optimize=len(inputs) > 1
    )
    if direct != labels:
        sizes = [out_shape[out_sub.index(c)] for c in labels]
        y = y.reshape([n if c in present else 1 for c, n in zip(labels, sizes)])
        y = xp.broadcast_to(y, sizes)
    if labels != out_sub:
        out = xp.zeros(out_shape, y.dtype)
        index = tuple(
            xp.arange(n).reshape([-1 if c == d else 1 for d in labels])
            for c, n in zip(out_sub, out_shape)
        )
        out[index] = y
        y = out
    return y


class EinSum(function_node.FunctionNode):
    """Einstein summation.

    Args:
        in_subs (sequence of str): Subscripts of each input, one letter per
            axis (no ellipsis).
        out_sub (str): Subscripts of the output. Letters may repeat or be
            absent from the inputs (as in the gradients), if ``out_shape``
            is given.
        out_shape (tuple of int or None): Shape of the output; needed only
            for such output subscripts.
        out_dtype: The output dtype; by default, the result type of the
            inputs.

    """

    def __init__(self, in_subs, out_sub, out_shape=None, out_dtype=None):
        self.subs = tuple(in_subs)
        self.out_sub = out_sub
        self.out_shape = out_shape
        self.out_dtype = out_dtype

    @property
    def in_subs(self):
        """The inputs' subscripts joined by commas (Chainer's attribute);
        ``subs`` holds them one per input."""
        return ','.join(self.subs)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == len(self.subs))
        sizes = {}
        for i, (sub, in_type) in enumerate(zip(self.subs, in_types)):
            type_check._argname((in_type,), ('x{}'.format(i),))
            # Chainer's parsing of the subscripts fails first: IndexError for
            # fewer axes than subscripts, ValueError for more
            fewer = type_check.eval(in_type.ndim) < len(sub)
            with type_check.invalid_as(IndexError if fewer else ValueError):
                type_check.expect(in_type.ndim == len(sub))
            type_check.expect(in_type.dtype.kind == 'f')
            for axis, c in enumerate(sub):
                if c in sizes:
                    type_check.expect(in_type.shape[axis] == sizes[c])
                else:
                    sizes[c] = in_type.shape[axis]

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._in_shapes = [x.shape for x in inputs]
        self._in_dtypes = [x.dtype for x in inputs]
        # every input is kept, as Chainer's node keeps them (one input's
        # gradient does not read it)
        self.retain_inputs(tuple(range(len(inputs))))
        # computed in the promotion of the dtypes (NumPy 1 would promote a
        # 0-d operand by its value: a float64 scalar times float16 in float16)
        common = numpy.result_type(*self._in_dtypes)
        inputs = [x.astype(common, copy=False) for x in inputs]
        dtype = common if self.out_dtype is None else self.out_dtype
        return (utils.force_array(self._contract(xp, inputs), dtype),)

    def _contract(self, xp, inputs):
        return _einsum(xp, self.subs, self.out_sub, inputs, self.out_shape)

    def backward(self, indexes, grad_outputs):
        # The gradient of an input is the einsum of the output gradient with
        # the other inputs, onto the subscripts of that input.
        inputs = list(self.get_retained_inputs())
        grads = []
        for i in indexes:
            subs = list(self.subs)
            subs[i] = self.out_sub
            operands = list(inputs)
            operands[i] = grad_outputs[0]
            # Chainer's gradient node (hooks see it), in the input's dtype
            node = DiagEinSum(subs, self.subs[i], self._in_shapes[i])
            node.out_dtype = self._in_dtypes[i]
            grads.append(node.apply(operands)[0])
        return tuple(grads)


class DiagEinSum(EinSum):
    """Einstein summation whose output subscripts may repeat a letter or
    hold letters that no input has.

    The output is zero off the diagonal of a repeated letter and is
    broadcast along a new letter; ``out_shape`` gives the sizes.

    Args:
        in_subs (str or sequence of str): Subscripts of the inputs, as one
            comma-separated string (``',ij'``) or one string per input.
        out_sub (str): Subscripts of the output.
        out_shape (tuple of int): Shape of the output.

    """

    def __init__(self, in_subs, out_sub, out_shape):
        if isinstance(in_subs, str):
            in_subs = in_subs.split(',')
        if out_shape is None or len(out_shape) != len(out_sub):
            raise ValueError(
                'DiagEinSum: out_shape {} does not match the output '
                'subscripts {!r}'.format(out_shape, out_sub)
            )
        super().__init__(in_subs, out_sub, tuple(out_shape))


def _sublist_to_subscripts(sublist):
    subscripts = ''
    for s in sublist:
        if s is Ellipsis:
            subscripts += '...'
        elif isinstance(s, int) and 0 <= s < len(einsum_symbols):
            subscripts += einsum_symbols[s]
        elif isinstance(s, int):
            raise ValueError(
                'einsum: subscript {} is out of range [0, {})'.format(
                    s, len(einsum_symbols)
                )
            )
        else:
            raise TypeError(
                'einsum: for this input type lists must contain either int or Ellipsis'
            )
    return subscripts


def _parse(operands):
    # Returns the subscripts of the inputs (a list, '...' kept), of the
    # output (None when implicit) and the operands.
    if not operands:
        raise ValueError('einsum: no input operands')
    if isinstance(operands[0], str):
        subscripts = operands[0].replace(' ', '')
        arrays = operands[1:]
        for c in subscripts:
            if c not in '.,->' and c not in einsum_symbols:
                raise ValueError('einsum: character {} is not a valid symbol'.format(c))
    else:
        n = len(operands) // 2
        arrays = operands[0 : 2 * n : 2]
        subscripts = ','.join(
            _sublist_to_subscripts(s) for s in operands[1 : 2 * n : 2]
        )
        if len(operands) % 2:
            subscripts += '->' + _sublist_to_subscripts(operands[-1])
    if '-' in subscripts or '>' in subscripts:
        if (
            subscripts.count('->') != 1
            or subscripts.count('-') != 1
            or subscripts.count('>') != 1
        ):
            raise ValueError("einsum: subscripts can only contain one '->'")
        in_part, out_sub = subscripts.split('->')
    else:
        in_part, out_sub = subscripts, None
    in_subs = in_part.split(',')
    for sub in in_subs + ([] if out_sub is None else [out_sub]):
        if sub.replace('...', '', 1).count('.'):
            raise ValueError('einsum: invalid ellipses in {!r}'.format(sub))
    if len(in_subs) != len(arrays):
        raise ValueError(
            'einsum: number of einsum subscripts must be equal '
            'to the number of operands'
        )
    if out_sub is not None:
        letters = out_sub.replace('...', '')
        for c in letters:
            if c not in in_part:
                raise ValueError(
                    'einsum: output character {} did not appear in the input'.format(c)
                )
        if len(set(letters)) != len(letters):
            raise ValueError(
                'einsum: output subscripts {!r} repeat a letter'.format(out_sub)
            )
    return in_subs, out_sub, arrays


def _expand_ellipsis(in_subs, out_sub, arrays):
    # Replaces '...' by the same unused letters in every operand,
    # and builds the implicit output subscripts (ellipsis axes first, then
    # the letters that occur once, sorted).
    used = set(''.join(in_subs))
    fresh = [c for c in einsum_symbols if c not in used]
    ndims = [
        x.ndim - len(sub.replace('...', '')) if '...' in sub else 0
        for sub, x in zip(in_subs, arrays)
    ]
    n = max([0] + ndims)
    if n > len(fresh):
        raise ValueError('einsum: too many subscripts')
    ellipsis = ''.join(fresh[:n])
    # Every '...' stands for all n axes: an operand with fewer would be
    # broadcast, which einsum does not do (its type check rejects it).
    expanded = [sub.replace('...', ellipsis) for sub in in_subs]
    if out_sub is None:
        letters = ''.join(in_subs).replace('...', '').replace(',', '')
        return expanded, ellipsis + ''.join(
            sorted(c for c in set(letters) if letters.count(c) == 1)
        )
    if '...' not in out_sub and n > 0:
        raise ValueError('einsum: summing over Ellipsis is not supported')
    if '...' in out_sub and not any('...' in sub for sub in in_subs):
        raise ValueError("einsum: output has '...' but no input has")
    return expanded, out_sub.replace('...', ellipsis)


def einsum(*operands):
    """Einstein summation.

    The two forms of :func:`numpy.einsum` are accepted:

    - ``einsum(subscripts, x0, x1, ...)``, e.g. ``'ij,jk->ik'``;
    - ``einsum(x0, sublist0, x1, sublist1, ..., [sublistout])``, where a
      sublist holds ints (``0`` to ``51``) and ``Ellipsis``.

    Without ``->`` the output holds the ellipsis axes, then the letters that
    occur once, in alphabetical order. ``...`` stands for the same axes in
    every operand and the output; summing over it (an ellipsis in the
    inputs but not in an explicit output) is not supported. An axis named
    by a letter has the same size wherever that letter occurs.

    The gradient of each operand is the einsum of the output gradient with
    the other operands, so gradients of any order are available.

    Args:
        *operands: The subscripts and the operands, each a Variable or
            array of a floating point dtype.

    Returns:
        Variable: The result, of the result type of the operands.

    Raises:
        ValueError: If the subscripts are malformed or do not match the
            number of operands.
        TypeError: If a sublist holds something other than ints and
            ``Ellipsis``.
        ~chainerlite.utils.type_check.InvalidType: If an operand is not of
            a floating point dtype, its number of axes differs from its
            subscripts, or the sizes of one letter differ.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> b = np.arange(3, dtype=np.float32)
        >>> F.einsum('ij,j->i', a, b).array
        array([ 5., 14.], dtype=float32)
        >>> F.einsum('ij->ji', a).shape
        (3, 2)
        >>> F.einsum(a, [0, 1], b, [1]).array
        array([ 5., 14.], dtype=float32)

    """
    in_subs, out_sub, arrays = _parse(operands)
    in_subs, out_sub = _expand_ellipsis(in_subs, out_sub, arrays)
    return EinSum(in_subs, out_sub).apply(arrays)[0]
