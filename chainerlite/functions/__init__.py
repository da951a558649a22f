"""Differentiable functions on variables, re-exported flat as ``F.*``.

One explicit import line per public function, grouped by category; keep each
group sorted.
"""

import sys as _sys

from chainerlite._core import handover as _handover

# --- activation ---
from chainerlite.functions.activation.clipped_relu import clipped_relu  # NOQA
from chainerlite.functions.activation.clipped_relu import relu6  # NOQA
from chainerlite.functions.activation.crelu import crelu  # NOQA
from chainerlite.functions.activation.elu import elu  # NOQA
from chainerlite.functions.activation.gelu import gelu  # NOQA
from chainerlite.functions.activation.hard_sigmoid import hard_sigmoid  # NOQA
from chainerlite.functions.activation.leaky_relu import leaky_relu  # NOQA
from chainerlite.functions.activation.log_softmax import log_softmax  # NOQA
from chainerlite.functions.activation.lstm import lstm  # NOQA
from chainerlite.functions.activation.maxout import maxout  # NOQA
from chainerlite.functions.activation.prelu import prelu  # NOQA
from chainerlite.functions.activation.relu import relu  # NOQA
from chainerlite.functions.activation.rrelu import rrelu  # NOQA
from chainerlite.functions.activation.selu import selu  # NOQA
from chainerlite.functions.activation.sigmoid import sigmoid  # NOQA
from chainerlite.functions.activation.softmax import softmax  # NOQA
from chainerlite.functions.activation.softplus import softplus  # NOQA
from chainerlite.functions.activation.swish import swish  # NOQA
from chainerlite.functions.activation.tanh import tanh  # NOQA

# --- array ---
from chainerlite.functions.array.as_strided import as_strided  # NOQA
from chainerlite.functions.array.broadcast import broadcast  # NOQA
from chainerlite.functions.array.broadcast import broadcast_to  # NOQA
from chainerlite.functions.array.cast import cast  # NOQA
from chainerlite.functions.array.concat import concat  # NOQA
from chainerlite.functions.array.copy import copy  # NOQA
from chainerlite.functions.array.depth2space import depth2space  # NOQA
from chainerlite.functions.array.diagonal import diagonal  # NOQA
from chainerlite.functions.array.dstack import dstack  # NOQA
from chainerlite.functions.array.expand_dims import expand_dims  # NOQA
from chainerlite.functions.array.flatten import flatten  # NOQA
from chainerlite.functions.array.flip import flip  # NOQA
from chainerlite.functions.array.fliplr import fliplr  # NOQA
from chainerlite.functions.array.flipud import flipud  # NOQA
from chainerlite.functions.array.get_item import get_item  # NOQA
from chainerlite.functions.array.hstack import hstack  # NOQA
from chainerlite.functions.array.im2col import im2col  # NOQA
from chainerlite.functions.array.moveaxis import moveaxis  # NOQA
from chainerlite.functions.array.pad import pad  # NOQA
from chainerlite.functions.array.pad_sequence import pad_sequence  # NOQA
from chainerlite.functions.array.permutate import permutate  # NOQA
from chainerlite.functions.array.repeat import repeat  # NOQA
from chainerlite.functions.array.resize_images import resize_images  # NOQA
from chainerlite.functions.array.reshape import reshape  # NOQA
from chainerlite.functions.array.rollaxis import rollaxis  # NOQA
from chainerlite.functions.array.scatter_add import scatter_add  # NOQA
from chainerlite.functions.array.select_item import select_item  # NOQA
from chainerlite.functions.array.separate import separate  # NOQA
from chainerlite.functions.array.space2depth import space2depth  # NOQA
from chainerlite.functions.array.spatial_transformer_grid import (
    spatial_transformer_grid,
)  # NOQA
from chainerlite.functions.array.spatial_transformer_sampler import (
    spatial_transformer_sampler,
)  # NOQA
from chainerlite.functions.array.split_axis import split_axis  # NOQA
from chainerlite.functions.array.squeeze import squeeze  # NOQA
from chainerlite.functions.array.stack import stack  # NOQA
from chainerlite.functions.array.sum_to import sum_to  # NOQA
from chainerlite.functions.array.swapaxes import swapaxes  # NOQA
from chainerlite.functions.array.tile import tile  # NOQA
from chainerlite.functions.array.transpose import transpose  # NOQA
from chainerlite.functions.array.transpose_sequence import transpose_sequence  # NOQA
from chainerlite.functions.array.vstack import vstack  # NOQA
from chainerlite.functions.array.where import where  # NOQA

# --- connection ---
from chainerlite.functions.connection.bilinear import bilinear  # NOQA
from chainerlite.functions.connection.convolution_2d import convolution_2d  # NOQA
from chainerlite.functions.connection.convolution_nd import convolution_1d  # NOQA
from chainerlite.functions.connection.convolution_nd import convolution_3d  # NOQA
from chainerlite.functions.connection.convolution_nd import convolution_nd  # NOQA
from chainerlite.functions.connection.deconvolution_2d import deconvolution_2d  # NOQA
from chainerlite.functions.connection.deconvolution_nd import deconvolution_1d  # NOQA
from chainerlite.functions.connection.deconvolution_nd import deconvolution_3d  # NOQA
from chainerlite.functions.connection.deconvolution_nd import deconvolution_nd  # NOQA
from chainerlite.functions.connection.deformable_convolution_2d_sampler import (
    deformable_convolution_2d_sampler,
)  # NOQA
from chainerlite.functions.connection.depthwise_convolution_2d import (
    depthwise_convolution_2d,
)  # NOQA
from chainerlite.functions.connection.dilated_convolution_2d import (
    dilated_convolution_2d,
)  # NOQA
from chainerlite.functions.connection.embed_id import embed_id  # NOQA
from chainerlite.functions.connection.linear import linear  # NOQA
from chainerlite.functions.connection.local_convolution_2d import local_convolution_2d  # NOQA
from chainerlite.functions.connection.shift import shift  # NOQA

# --- evaluation ---
from chainerlite.functions.evaluation.accuracy import accuracy  # NOQA
from chainerlite.functions.evaluation.binary_accuracy import binary_accuracy  # NOQA
from chainerlite.functions.evaluation.classification_summary import (
    classification_summary,
)  # NOQA
from chainerlite.functions.evaluation.classification_summary import f1_score  # NOQA
from chainerlite.functions.evaluation.classification_summary import precision  # NOQA
from chainerlite.functions.evaluation.classification_summary import recall  # NOQA
from chainerlite.functions.evaluation.r2_score import r2_score  # NOQA

# --- loss ---
from chainerlite.functions.loss.absolute_error import absolute_error  # NOQA
from chainerlite.functions.loss.black_out import black_out  # NOQA
from chainerlite.functions.loss.contrastive import contrastive  # NOQA
from chainerlite.functions.loss.cross_covariance import cross_covariance  # NOQA
from chainerlite.functions.loss.discriminative_margin_based_clustering_loss import (
    discriminative_margin_based_clustering_loss,
)  # NOQA
from chainerlite.functions.loss.crf1d import argmax_crf1d  # NOQA
from chainerlite.functions.loss.crf1d import crf1d  # NOQA
from chainerlite.functions.loss.ctc import connectionist_temporal_classification  # NOQA
from chainerlite.functions.loss.decov import decov  # NOQA
from chainerlite.functions.loss.hinge import hinge  # NOQA
from chainerlite.functions.loss.huber_loss import huber_loss  # NOQA
from chainerlite.functions.loss.mean_absolute_error import mean_absolute_error  # NOQA
from chainerlite.functions.loss.mean_squared_error import mean_squared_error  # NOQA
from chainerlite.functions.loss.negative_sampling import negative_sampling  # NOQA
from chainerlite.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy  # NOQA
from chainerlite.functions.loss.softmax_cross_entropy import softmax_cross_entropy  # NOQA
from chainerlite.functions.loss.squared_error import squared_difference  # NOQA
from chainerlite.functions.loss.squared_error import squared_error  # NOQA
from chainerlite.functions.loss.triplet import triplet  # NOQA
from chainerlite.functions.loss.vae import bernoulli_nll  # NOQA
from chainerlite.functions.loss.vae import gaussian_kl_divergence  # NOQA
from chainerlite.functions.loss.vae import gaussian_nll  # NOQA

# --- math: arithmetic ---
from chainerlite.functions.math.basic_math import add  # NOQA
from chainerlite.functions.math.basic_math import div  # NOQA
from chainerlite.functions.math.basic_math import mul  # NOQA
from chainerlite.functions.math.basic_math import neg  # NOQA
from chainerlite.functions.math.basic_math import pow  # NOQA
from chainerlite.functions.math.basic_math import sub  # NOQA

# --- math: elementwise ---
from chainerlite.functions.math.absolute import absolute  # NOQA
from chainerlite.functions.math.arctanh import arctanh  # NOQA
from chainerlite.functions.math.bias import bias  # NOQA
from chainerlite.functions.math.ceil import ceil  # NOQA
from chainerlite.functions.math.digamma import digamma  # NOQA
from chainerlite.functions.math.clip import clip  # NOQA
from chainerlite.functions.math.erf import erf  # NOQA
from chainerlite.functions.math.erfc import erfc  # NOQA
from chainerlite.functions.math.erfcinv import erfcinv  # NOQA
from chainerlite.functions.math.erfcx import erfcx  # NOQA
from chainerlite.functions.math.erfinv import erfinv  # NOQA
from chainerlite.functions.math.exponential import exp  # NOQA
from chainerlite.functions.math.exponential import log  # NOQA
from chainerlite.functions.math.exponential import log10  # NOQA
from chainerlite.functions.math.fix import fix  # NOQA
from chainerlite.functions.math.exponential import log2  # NOQA
from chainerlite.functions.math.exponential_m1 import expm1  # NOQA
from chainerlite.functions.math.fft import fft  # NOQA
from chainerlite.functions.math.fft import ifft  # NOQA
from chainerlite.functions.math.floor import floor  # NOQA
from chainerlite.functions.math.fmod import fmod  # NOQA
from chainerlite.functions.math.hyperbolic import cosh  # NOQA
from chainerlite.functions.math.hyperbolic import sinh  # NOQA
from chainerlite.functions.math.lgamma import lgamma  # NOQA
from chainerlite.functions.math.linear_interpolate import linear_interpolate  # NOQA
from chainerlite.functions.math.log_ndtr import log_ndtr  # NOQA
from chainerlite.functions.math.logarithm_1p import log1p  # NOQA
from chainerlite.functions.math.maximum import maximum  # NOQA
from chainerlite.functions.math.minimum import minimum  # NOQA
from chainerlite.functions.math.ndtr import ndtr  # NOQA
from chainerlite.functions.math.ndtri import ndtri  # NOQA
from chainerlite.functions.math.polygamma import polygamma  # NOQA
from chainerlite.functions.math.scale import scale  # NOQA
from chainerlite.functions.math.sign import sign  # NOQA
from chainerlite.functions.math.sqrt import rsqrt  # NOQA
from chainerlite.functions.math.sqrt import sqrt  # NOQA
from chainerlite.functions.math.square import square  # NOQA
from chainerlite.functions.math.trigonometric import arccos  # NOQA
from chainerlite.functions.math.trigonometric import arcsin  # NOQA
from chainerlite.functions.math.trigonometric import arctan  # NOQA
from chainerlite.functions.math.trigonometric import arctan2  # NOQA
from chainerlite.functions.math.trigonometric import cos  # NOQA
from chainerlite.functions.math.trigonometric import sin  # NOQA
from chainerlite.functions.math.trigonometric import tan  # NOQA
from chainerlite.functions.math.zeta import zeta  # NOQA

# --- math: reductions and products ---
from chainerlite.functions.math.average import average  # NOQA
from chainerlite.functions.math.average import average as mean  # NOQA  (as Chainer's)
from chainerlite.functions.math.batch_l2_norm_squared import batch_l2_norm_squared  # NOQA
from chainerlite.functions.math.cholesky import cholesky  # NOQA
from chainerlite.functions.math.cumprod import cumprod  # NOQA
from chainerlite.functions.math.cumsum import cumsum  # NOQA
from chainerlite.functions.math.det import batch_det  # NOQA
from chainerlite.functions.math.det import det  # NOQA
from chainerlite.functions.math.einsum import einsum  # NOQA
from chainerlite.functions.math.identity import identity  # NOQA
from chainerlite.functions.math.inv import batch_inv  # NOQA
from chainerlite.functions.math.inv import inv  # NOQA
from chainerlite.functions.math.logsumexp import logsumexp  # NOQA
from chainerlite.functions.math.matmul import matmul  # NOQA
from chainerlite.functions.math.matmul import batch_matmul  # NOQA
from chainerlite.functions.math.minmax import argmax  # NOQA
from chainerlite.functions.math.minmax import argmin  # NOQA
from chainerlite.functions.math.minmax import max  # NOQA
from chainerlite.functions.math.minmax import min  # NOQA
from chainerlite.functions.math.prod import prod  # NOQA
from chainerlite.functions.math.sparse_matmul import sparse_matmul  # NOQA
from chainerlite.functions.math.sum import sum  # NOQA
from chainerlite.functions.math.tensordot import tensordot  # NOQA

# --- noise ---
from chainerlite.functions.noise.dropout import dropout  # NOQA
from chainerlite.functions.noise.gaussian import gaussian  # NOQA
from chainerlite.functions.noise.gumbel_softmax import gumbel_softmax  # NOQA
from chainerlite.functions.noise.simplified_dropconnect import simplified_dropconnect  # NOQA
from chainerlite.functions.noise.zoneout import zoneout  # NOQA

# --- normalization ---
from chainerlite.functions.normalization.batch_normalization import batch_normalization  # NOQA
from chainerlite.functions.normalization.batch_normalization import (
    fixed_batch_normalization,
)  # NOQA
from chainerlite.functions.normalization.batch_renormalization import (
    batch_renormalization,
)  # NOQA
from chainerlite.functions.normalization.batch_renormalization import (
    fixed_batch_renormalization,
)  # NOQA
from chainerlite.functions.normalization.decorrelated_batch_normalization import (
    decorrelated_batch_normalization,
)  # NOQA
from chainerlite.functions.normalization.decorrelated_batch_normalization import (
    fixed_decorrelated_batch_normalization,
)  # NOQA
from chainerlite.functions.normalization.group_normalization import group_normalization  # NOQA
from chainerlite.functions.normalization.l2_normalization import normalize  # NOQA
from chainerlite.functions.normalization.layer_normalization import layer_normalization  # NOQA
from chainerlite.functions.normalization.local_response_normalization import (
    local_response_normalization,
)  # NOQA

# --- pooling ---
from chainerlite.functions.pooling.average_pooling_2d import average_pooling_2d  # NOQA
from chainerlite.functions.pooling.average_pooling_nd import average_pooling_1d  # NOQA
from chainerlite.functions.pooling.average_pooling_nd import average_pooling_3d  # NOQA
from chainerlite.functions.pooling.average_pooling_nd import average_pooling_nd  # NOQA
from chainerlite.functions.pooling.max_pooling_2d import max_pooling_2d  # NOQA
from chainerlite.functions.pooling.max_pooling_nd import max_pooling_1d  # NOQA
from chainerlite.functions.pooling.max_pooling_nd import max_pooling_3d  # NOQA
from chainerlite.functions.pooling.max_pooling_nd import max_pooling_nd  # NOQA
from chainerlite.functions.pooling.roi_average_align_2d import roi_average_align_2d  # NOQA
from chainerlite.functions.pooling.roi_average_pooling_2d import roi_average_pooling_2d  # NOQA
from chainerlite.functions.pooling.roi_max_align_2d import roi_max_align_2d  # NOQA
from chainerlite.functions.pooling.roi_max_pooling_2d import roi_max_pooling_2d  # NOQA
from chainerlite.functions.pooling.roi_pooling_2d import roi_pooling_2d  # NOQA
from chainerlite.functions.pooling.spatial_pyramid_pooling_2d import (
    spatial_pyramid_pooling_2d,
)  # NOQA
from chainerlite.functions.pooling.unpooling_2d import unpooling_2d  # NOQA
from chainerlite.functions.pooling.unpooling_nd import unpooling_1d  # NOQA
from chainerlite.functions.pooling.unpooling_nd import unpooling_3d  # NOQA
from chainerlite.functions.pooling.unpooling_nd import unpooling_nd  # NOQA
from chainerlite.functions.pooling.upsampling_2d import upsampling_2d  # NOQA

# --- rnn ---
from chainerlite.functions.rnn.n_step_gru import n_step_bigru  # NOQA
from chainerlite.functions.rnn.n_step_gru import n_step_gru  # NOQA
from chainerlite.functions.rnn.n_step_lstm import n_step_bilstm  # NOQA
from chainerlite.functions.rnn.n_step_lstm import n_step_lstm  # NOQA
from chainerlite.functions.rnn.n_step_rnn import n_step_birnn  # NOQA
from chainerlite.functions.rnn.n_step_rnn import n_step_rnn  # NOQA
from chainerlite.functions.rnn.slstm import slstm  # NOQA
from chainerlite.functions.rnn.tree_lstm import tree_lstm  # NOQA

# --- util ---
from chainerlite.functions.util.forget import forget  # NOQA

# Variable's methods (reshape, T, mean, [], @) and a few compiled nodes call
# F.* from the core.
_handover.provide(functions=_sys.modules[__name__])
