"""``GetItem``: basic and advanced (integer and boolean array) indexing.

The result follows NumPy's rules: when the index holds arrays, its integers
are advanced indices too; the broadcast shape of the advanced indices takes
the place of the first of them when they are adjacent, else the front.
Slices and integers become a Slice (and Squeeze), one array a Gather,
several arrays a GatherND (opset 11) over the indexed axes moved to the
front, None an Unsqueeze at the end.
"""

import numpy as np

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register

_INT_MAX = np.iinfo(np.int64).max


def _items(slices, ndim):
    # one entry per input axis (None and Ellipsis add their own): slice, int
    # or int64 array
    slices = slices if isinstance(slices, tuple) else (slices,)
    items = []
    for s in slices:
        if s is None or s is Ellipsis or isinstance(s, slice):
            items.append(s)
            continue
        array = np.asarray(s)
        if array.dtype == np.bool_:
            if array.ndim == 0:
                raise ValueError('GetItem: a boolean scalar index cannot be exported')
            items.extend(index.astype(np.int64) for index in array.nonzero())
        elif array.dtype.kind not in 'iu':
            raise ValueError(
                'GetItem: an index of type {} cannot be exported'.format(array.dtype)
            )
        elif array.ndim == 0:
            items.append(int(array))
        else:
            items.append(array.astype(np.int64))
    n_real = sum(1 for s in items if s is not None and s is not Ellipsis)
    out = []
    for s in items:
        out.append(s)
        if s is Ellipsis:
            # kept before its slices: even when it stands for no axis, it
            # keeps the advanced indices on its two sides apart, as in NumPy
            out.extend([slice(None)] * (ndim - n_real))
    n_axes = sum(1 for s in out if s is not None and s is not Ellipsis)
    out.extend([slice(None)] * (ndim - n_axes))
    return out


class _Plan(object):
    """What the index does, axis by axis, before any ONNX node is made."""

    def __init__(self, shape, items):
        has_array = any(isinstance(s, np.ndarray) for s in items)
        self.starts, self.ends, self.steps, self.axes = [], [], [], []
        self.squeeze = []  # input axes an integer removes
        self.layout = []  # 's' (a kept axis) or 'n' (None), in output order
        self.arrays = []  # (position among the kept axes, index array)
        self.adv_items = []  # item positions of the advanced indices
        self.first_adv = None  # len(layout) at the first advanced index
        kept = 0
        axis = 0
        for pos, item in enumerate(items):
            if item is None:
                self.layout.append('n')
                continue
            if item is Ellipsis:
                continue
            size = shape[axis]
            if isinstance(item, slice):
                self._slice(axis, size, *item.indices(size))
                self.layout.append('s')
                kept += 1
            else:
                if has_array:
                    self.adv_items.append(pos)
                    if self.first_adv is None:
                        self.first_adv = len(self.layout)
                if isinstance(item, int):
                    index = item + size if item < 0 else item
                    self._slice(axis, size, index, index + 1, 1)
                    self.squeeze.append(axis)
                else:
                    self.arrays.append((kept, np.where(item < 0, item + size, item)))
                    kept += 1
            axis += 1

    def _slice(self, axis, size, start, stop, step):
        if (start, stop, step) == (0, size, 1):
            return
        self.starts.append(start)
        # a negative step ending before index 0: slice.indices gives -1,
        # which ONNX reads as the last element
        self.ends.append(-_INT_MAX if step < 0 and stop < 0 else stop)
        self.steps.append(step)
        self.axes.append(axis)

    def _adv_position(self):
        # index into layout where the advanced dims go: at the first advanced
        # index when the advanced indices are adjacent, else at the front
        first, last = self.adv_items[0], self.adv_items[-1]
        return self.first_adv if last - first + 1 == len(self.adv_items) else 0

    def advanced_at(self):
        """Where the advanced dims go among the non-None output dims."""
        return self.layout[: self._adv_position()].count('s')

    def unsqueeze_axes(self, n_advanced):
        """The output axes the Nones make."""
        layout = list(self.layout)
        if self.arrays:
            at = self._adv_position()
            layout[at:at] = ['b'] * n_advanced
        return [i for i, d in enumerate(layout) if d == 'n']


def _move(gb, x, ndim, start, length, to):
    # moves the block of axes [start, start + length) to begin at `to`
    if start == to:
        return x
    rest = [a for a in range(ndim) if not start <= a < start + length]
    block = list(range(start, start + length))
    return gb.op('Transpose', [x], perm=rest[:to] + block + rest[to:])


@register('GetItem', opsets=(1, 10, 11))
def convert_get_item(func, opset_version, input_names, output_names, context):
    shape = _util.in_shape(func)
    plan = _Plan(shape, _items(func.slices, len(shape)))
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if plan.axes:
        if any(step != 1 for step in plan.steps) and opset_version < 10:
            raise ValueError(
                'GetItem: a slice step needs opset 10 or later, not {}'.format(
                    opset_version
                )
            )
        if opset_version < 10:
            x = gb.op('Slice', [x], axes=plan.axes, starts=plan.starts, ends=plan.ends)
        else:
            x = gb.op(
                'Slice',
                [
                    x,
                    _util.int64s(context, plan.starts, 'starts'),
                    _util.int64s(context, plan.ends, 'ends'),
                    _util.int64s(context, plan.axes, 'axes'),
                    _util.int64s(context, plan.steps, 'steps'),
                ],
            )
    if plan.squeeze:
        x = gb.op('Squeeze', [x], axes=plan.squeeze)
    n_advanced = 0
    if plan.arrays:
        kept = len(shape) - len(plan.squeeze)
        positions = [p for p, _ in plan.arrays]
        indices = np.broadcast_arrays(*[a for _, a in plan.arrays])
        n_advanced = indices[0].ndim
        if len(indices) == 1:
            x = gb.op(
                'Gather',
                [x, _util.const(context, indices[0], 'indices', np.int64)],
                axis=positions[0],
            )
            at = positions[0]
        else:
            if opset_version < 11:
                raise ValueError(
                    'GetItem: several index arrays need GatherND, opset 11 or '
                    'later, not {}'.format(opset_version)
                )
            if positions != list(range(len(positions))):
                rest = [a for a in range(kept) if a not in positions]
                x = gb.op('Transpose', [x], perm=positions + rest)
            stacked = np.stack(indices, axis=-1)
            x = gb.op(
                'GatherND', [x, _util.const(context, stacked, 'indices', np.int64)]
            )
            at = 0
        ndim = kept - len(positions) + n_advanced
        x = _move(gb, x, ndim, at, n_advanced, plan.advanced_at())
    axes = plan.unsqueeze_axes(n_advanced)
    if axes:
        x = gb.op('Unsqueeze', [x], axes=axes)
    if not gb.nodes():
        gb.op('Identity', [x])
    return gb.nodes(output_names)
