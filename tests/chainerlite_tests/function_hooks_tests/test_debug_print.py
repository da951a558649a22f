import io

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hooks
from chainerlite.backends import cuda
from chainerlite.function_hooks import debug_print
from chainerlite.testing import attr


def _blocks(text):
    # One list of lines per message (messages start with 'function\t').
    blocks = []
    for line in text.splitlines():
        if line.startswith('function\t'):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def _array_block(index, shape, dtype, stats):
    return [
        '<array %d>' % index,
        '- device: CPU',
        '- backend: numpy.ndarray',
        '- shape: %s' % (shape,),
        '- dtype: %s' % dtype,
        '- statistics: %s' % stats,
    ]


def test_exported_with_chainer_name():
    assert function_hooks.PrintHook is debug_print.PrintHook
    assert debug_print.PrintHook().name == 'PrintHook'


def test_forward_prints_label_and_input_summaries():
    out = io.StringIO()
    a = chainerlite.Variable(numpy.array([1.0, 3.0], numpy.float32))
    b = chainerlite.Variable(numpy.array([[-2, 2]], numpy.int32))
    with debug_print.PrintHook(file=out):
        a * b.array.astype(numpy.float32)
    assert _blocks(out.getvalue()) == [
        ['function\t_ * _', 'input data']
        + _array_block(0, (2,), 'float32', 'mean=2, std=1, min=1, max=3')
        + _array_block(1, (1, 2), 'float32', 'mean=0, std=2, min=-2, max=2')
    ]


def test_backward_prints_inputs_and_output_gradients():
    out = io.StringIO()
    x = chainerlite.Variable(numpy.array([0.0, 0.0], numpy.float32))
    with debug_print.PrintHook(file=out):
        y = F.exp(x)
        y.grad = numpy.array([2.0, 4.0], numpy.float32)
        y.backward()
    blocks = _blocks(out.getvalue())
    assert [block[0] for block in blocks] == [
        'function\texp',
        'function\texp',
        'function\t_ * _',
    ]
    # Exp keeps its output, not its input, for backward.
    assert blocks[1] == (
        ['function\texp', 'input data', '(removed)', 'output gradient']
        + _array_block(0, (2,), 'float32', 'mean=3, std=1, min=2, max=4')
    )


def test_integer_and_empty_arrays():
    out = io.StringIO()
    with debug_print.PrintHook(file=out):
        F.identity(numpy.array([1, 2], numpy.int32))
        F.identity(numpy.zeros((0, 3), numpy.float64))
    first, second = _blocks(out.getvalue())
    assert first[-1] == '- statistics: mean=1.5, std=0.5, min=1, max=2'
    assert first[-2] == '- dtype: int32'
    assert second[-2:] == ['- dtype: float64', '- statistics: (empty)']


def test_missing_output_gradient_is_shown_as_none():
    out = io.StringIO()
    x = chainerlite.Variable(numpy.ones((2, 2), numpy.float32))
    y0, y1 = F.split_axis(x, 2, 0)
    with debug_print.PrintHook(file=out):
        y0.grad = numpy.ones((1, 2), numpy.float32)
        y0.backward()
    block = _blocks(out.getvalue())[0]
    assert block[0] == 'function\tSplitAxis'
    gradients = block[block.index('output gradient') + 1 :]
    assert gradients[0] == '<array 0>'
    assert gradients[-1] == '(None)'


class _CountingStream(io.StringIO):
    def __init__(self):
        super().__init__()
        self.flushes = 0

    def flush(self):
        self.flushes += 1
        super().flush()


@pytest.mark.parametrize('flush', [True, False])
def test_end_and_flush(flush):
    out = _CountingStream()
    x = chainerlite.Variable(numpy.ones(2, numpy.float32))
    with debug_print.PrintHook(end='<END>\n', file=out, flush=flush):
        F.exp(F.exp(x))
    messages = out.getvalue().split('<END>\n')
    assert len(messages) == 3 and messages[-1] == ''
    assert all(m.startswith('function\texp\n') for m in messages[:2])
    assert out.flushes == (2 if flush else 0)


def test_sep_is_deprecated_and_ignored():
    with pytest.warns(DeprecationWarning, match='sep'):
        hook = debug_print.PrintHook(sep=' ', file=io.StringIO())
    with hook:
        F.exp(numpy.ones(1, numpy.float32))
    assert hook.file.getvalue().startswith('function\texp\ninput data\n')


def test_nothing_printed_outside_the_hook():
    out = io.StringIO()
    hook = debug_print.PrintHook(file=out)
    x = numpy.ones(1, numpy.float32)
    with hook:
        F.exp(x)
    F.exp(x)
    assert len(_blocks(out.getvalue())) == 1


@attr.gpu
def test_gpu_arrays_are_described():
    out = io.StringIO()
    x = chainerlite.Variable(cuda.cupy.array([1.0, 3.0], numpy.float32))
    with debug_print.PrintHook(file=out):
        F.exp(x)
    lines = out.getvalue().splitlines()
    assert '- device: GPU 0' in lines
    assert '- statistics: mean=2, std=1, min=1, max=3' in lines
