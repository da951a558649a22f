"""Links: parameterized building blocks of models, re-exported as ``L.*``."""

from chainerlite.links.activation.maxout import Maxout  # NOQA
from chainerlite.links.activation.prelu import PReLU  # NOQA
from chainerlite.links.activation.swish import Swish  # NOQA
from chainerlite.links.caffe.caffe_function import CaffeFunction  # NOQA
from chainerlite.links.connection.bias import Bias  # NOQA
from chainerlite.links.connection.bilinear import Bilinear  # NOQA
from chainerlite.links.connection.convolution_2d import Convolution2D  # NOQA
from chainerlite.links.connection.convolution_nd import Convolution1D  # NOQA
from chainerlite.links.connection.convolution_nd import Convolution3D  # NOQA
from chainerlite.links.connection.convolution_nd import ConvolutionND  # NOQA
from chainerlite.links.connection.deconvolution_2d import Deconvolution2D  # NOQA
from chainerlite.links.connection.deconvolution_nd import Deconvolution1D  # NOQA
from chainerlite.links.connection.deconvolution_nd import Deconvolution3D  # NOQA
from chainerlite.links.connection.deconvolution_nd import DeconvolutionND  # NOQA
from chainerlite.links.connection.deformable_convolution_2d import (
    DeformableConvolution2D,
)  # NOQA
from chainerlite.links.connection.depthwise_convolution_2d import DepthwiseConvolution2D  # NOQA
from chainerlite.links.connection.dilated_convolution_2d import DilatedConvolution2D  # NOQA
from chainerlite.links.connection.embed_id import EmbedID  # NOQA
from chainerlite.links.connection.highway import Highway  # NOQA
from chainerlite.links.connection.inception import Inception  # NOQA
from chainerlite.links.connection.inceptionbn import InceptionBN  # NOQA
from chainerlite.links.connection.linear import Linear  # NOQA
from chainerlite.links.connection.local_convolution_2d import LocalConvolution2D  # NOQA
from chainerlite.links.connection.lstm import LSTM  # NOQA
from chainerlite.links.connection.mlp_convolution_2d import MLPConvolution2D  # NOQA
from chainerlite.links.connection.scale import Scale  # NOQA
from chainerlite.links.connection.parameter import Parameter  # NOQA
from chainerlite.links.activation.simplified_dropconnect import SimplifiedDropconnect  # NOQA
from chainerlite.links.loss.black_out import BlackOut  # NOQA
from chainerlite.links.loss.crf1d import CRF1d  # NOQA
from chainerlite.links.loss.hierarchical_softmax import BinaryHierarchicalSoftmax  # NOQA
from chainerlite.links.loss.negative_sampling import NegativeSampling  # NOQA
from chainerlite.links.model.classifier import Classifier  # NOQA
from chainerlite.links.model.vision.googlenet import GoogLeNet  # NOQA
from chainerlite.links.model.vision.resnet import ResNet101Layers  # NOQA
from chainerlite.links.model.vision.resnet import ResNet152Layers  # NOQA
from chainerlite.links.model.vision.resnet import ResNet50Layers  # NOQA
from chainerlite.links.model.vision.vgg import VGG16Layers  # NOQA
from chainerlite.links.model.vision.vgg import VGG19Layers  # NOQA
from chainerlite.links.normalization.batch_normalization import BatchNormalization  # NOQA
from chainerlite.links.normalization.batch_renormalization import BatchRenormalization  # NOQA
from chainerlite.links.normalization.decorrelated_batch_normalization import (
    DecorrelatedBatchNormalization,
)  # NOQA
from chainerlite.links.normalization.group_normalization import GroupNormalization  # NOQA
from chainerlite.links.normalization.layer_normalization import LayerNormalization  # NOQA
from chainerlite.links.rnn.gru import GRU  # NOQA
from chainerlite.links.rnn.gru import StatefulGRU  # NOQA
from chainerlite.links.rnn.gru import StatelessGRU  # NOQA
from chainerlite.links.rnn.lstm import StatelessLSTM  # NOQA
from chainerlite.links.rnn.mgu import StatefulMGU  # NOQA
from chainerlite.links.rnn.mgu import StatelessMGU  # NOQA
from chainerlite.links.rnn.n_step_gru import NStepBiGRU  # NOQA
from chainerlite.links.rnn.n_step_gru import NStepGRU  # NOQA
from chainerlite.links.rnn.n_step_lstm import NStepBiLSTM  # NOQA
from chainerlite.links.rnn.n_step_lstm import NStepLSTM  # NOQA
from chainerlite.links.rnn.n_step_rnn import NStepBiRNNReLU  # NOQA
from chainerlite.links.rnn.n_step_rnn import NStepBiRNNTanh  # NOQA
from chainerlite.links.rnn.n_step_rnn import NStepRNNReLU  # NOQA
from chainerlite.links.rnn.n_step_rnn import NStepRNNTanh  # NOQA
from chainerlite.links.rnn.peephole import StatefulPeepholeLSTM  # NOQA
from chainerlite.links.rnn.tree_lstm import ChildSumTreeLSTM  # NOQA
from chainerlite.links.rnn.tree_lstm import NaryTreeLSTM  # NOQA
from chainerlite.links.rnn.zoneoutlstm import StatefulZoneoutLSTM  # NOQA
from chainerlite.links.theano.theano_function import TheanoFunction  # NOQA
