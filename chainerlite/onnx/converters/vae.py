"""The losses of variational auto-encoders (one fused node each here;
Chainer composes them from elementwise nodes, whose ONNX ops these emit)."""

import math

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


@register('BernoulliNLL', opsets=(1,))
def convert_bernoulli_nll(func, opset_version, input_names, output_names, context):
    # softplus(y) - x * y
    x, y = input_names
    gb = onnx_helper.GraphBuilder()
    gb.op('Sub', [gb.op('Softplus', [y]), gb.op('Mul', [x, y])])
    return gb.nodes(output_names)


@register('GaussianNLL', opsets=(1,))
def convert_gaussian_nll(func, opset_version, input_names, output_names, context):
    # (ln_var + log(2 pi)) / 2 + (x - mean)^2 exp(-ln_var) / 2
    x, mean, ln_var = input_names
    dtype = _util.in_dtype(func)
    half = _util.const(context, 0.5, 'half', dtype)
    log_2pi = _util.const(context, math.log(2 * math.pi), 'log_2pi', dtype)
    gb = onnx_helper.GraphBuilder()
    diff = gb.op('Sub', [x, mean])
    precision = gb.op('Exp', [gb.op('Neg', [ln_var])])
    power = gb.op('Mul', [gb.op('Mul', [diff, diff]), precision])
    total = gb.op('Add', [gb.op('Add', [ln_var, log_2pi]), power])
    gb.op('Mul', [total, half])
    return gb.nodes(output_names)


@register('GaussianKLDivergence', opsets=(1,))
def convert_gaussian_kl_divergence(
    func, opset_version, input_names, output_names, context
):
    # (mean^2 + exp(ln_var) - ln_var - 1) / 2
    mean, ln_var = input_names
    dtype = _util.in_dtype(func)
    half = _util.const(context, 0.5, 'half', dtype)
    one = _util.const(context, 1, 'one', dtype)
    gb = onnx_helper.GraphBuilder()
    total = gb.op('Add', [gb.op('Mul', [mean, mean]), gb.op('Exp', [ln_var])])
    total = gb.op('Sub', [gb.op('Sub', [total, ln_var]), one])
    gb.op('Mul', [total, half])
    return gb.nodes(output_names)
