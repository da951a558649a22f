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
    # One list of lines per message (messages start with 'function\t'),
    # with the addresses of the printed variables left out.
    blocks = []
    for line in text.splitlines():
        if line.startswith('function\t'):
            blocks.append([])
        blocks[-1].append('<variable>' if line.startswith('<variable at 0x') else line)
    return blocks


def _variable_block(shape, dtype, stats, grad='None'):
    return [
        '<variable>',
        '- device: CPU',
        "- backend: <class 'numpy.ndarray'>",
        '- shape: %s' % (shape,),
        '- dtype: %s' % dtype,
        '- statistics: %s' % stats,
        '- grad: %s' % grad,
    ]


# what an empty variable shows (a missing output gradient)
_KEYS = ('device', 'backend', 'shape', 'dtype', 'statistics', 'grad')
_EMPTY = ['<variable>'] + ['- %s: None' % key for key in _KEYS]


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
        + _variable_block((2,), 'float32', 'mean=2.00000000, std=1.00000000')
        + _variable_block((1, 2), 'float32', 'mean=0.00000000, std=2.00000000')
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
    # Exp keeps its output, not its input, for backward; an output
    # gradient is shown as the grad of a variable of zeros.
    assert blocks[1] == (
        ['function\texp', 'input data', '(removed)', 'output gradient']
        + _variable_block(
            (2,),
            'float32',
            'mean=0.00000000, std=0.00000000',
            grad='mean=3.00000000, std=1.00000000',
        )
    )


def test_integer_arrays():
    out = io.StringIO()
    with debug_print.PrintHook(file=out):
        F.identity(numpy.array([1, 2], numpy.int32))
    (block,) = _blocks(out.getvalue())
    assert block[-3:] == [
        '- dtype: int32',
        '- statistics: mean=1.50000000, std=0.50000000',
        '- grad: None',
    ]


def test_missing_output_gradient_is_an_empty_variable():
    out = io.StringIO()
    x = chainerlite.Variable(numpy.ones((2, 2), numpy.float32))
    y0, y1 = F.split_axis(x, 2, 0)
    with debug_print.PrintHook(file=out):
        y0.grad = numpy.ones((1, 2), numpy.float32)
        y0.backward()
    block = _blocks(out.getvalue())[0]
    assert block[0] == 'function\tSplitAxis'
    gradients = block[block.index('output gradient') + 1 :]
    assert gradients[-1 - len(_EMPTY) + 1 :] == _EMPTY
    assert gradients[:7][-1] == '- grad: mean=1.00000000, std=0.00000000'


def test_gradient_sums_are_printed_as_add_calls():
    out = io.StringIO()
    x = chainerlite.Variable(numpy.array([1.0, 2.0], numpy.float32))
    with debug_print.PrintHook(file=out):
        F.sum(x * x).backward()
    labels = [block[0] for block in _blocks(out.getvalue())]
    assert labels[-2:] == ['function\t_ * _', 'function\t_ + _']


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
    # each line ends with `end`; the stream is flushed once per message
    pieces = out.getvalue().split('<END>\n')
    assert pieces[-1] == ''
    assert pieces[:3] == ['function\texp', 'input data', pieces[2]]
    assert pieces[2].startswith('<variable at 0x')
    assert pieces[2].endswith('- grad: None')
    assert pieces.count('function\texp') == 2 and len(pieces) == 7
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
    assert '- device: <CUDA Device 0>' in lines
    assert '- statistics: mean=2.00000000, std=1.00000000' in lines


def test_the_deprecated_sep_is_kept_as_an_attribute():
    with pytest.warns(DeprecationWarning):
        hook = debug_print.PrintHook(sep=', ', file=io.StringIO())
    assert hook.sep == ', '
    assert debug_print.PrintHook(file=io.StringIO()).sep is None
