"""Initial weights under one seed: initializers and each link's draws."""

import numpy

NAMES = (
    'Normal',
    'LeCunNormal',
    'GlorotNormal',
    'HeNormal',
    'LeCunUniform',
    'GlorotUniform',
    'HeUniform',
    'Uniform',
    'Orthogonal',
    'Identity',
    'Zero',
    'One',
)


def initializers(c):
    out = {}
    for name in NAMES:
        for shape in ((4, 4), (2, 3, 3, 3)):
            for dtype in (numpy.float32, numpy.float64):
                numpy.random.seed(1)
                a = numpy.empty(shape, dtype)
                try:
                    getattr(c.I, name)()(a)
                    out['%s %s %s' % (name, shape, dtype.__name__)] = a
                except Exception as e:  # noqa: BLE001
                    out['%s %s %s' % (name, shape, dtype.__name__)] = type(e).__name__
    return out


def _params(link, call=None):
    if call is not None:
        call(link)
    return {n: p.array for n, p in link.namedparams() if p.array is not None}


def _x(*shape):
    return numpy.ones(shape, numpy.float32)


LINKS = {
    'Linear': lambda L: L.Linear(5, 4),
    'Linear lazy': lambda L: _params(L.Linear(None, 4), lambda l: l(_x(2, 3))),
    'Convolution2D': lambda L: L.Convolution2D(3, 4, 3),
    'Convolution2D groups': lambda L: L.Convolution2D(4, 4, 3, groups=2),
    'Convolution2D lazy': lambda L: _params(
        L.Convolution2D(None, 4, 3), lambda l: l(_x(1, 2, 5, 5))
    ),
    'Deconvolution2D': lambda L: L.Deconvolution2D(3, 4, 3),
    'ConvolutionND': lambda L: L.ConvolutionND(2, 2, 3, 2),
    'DeconvolutionND': lambda L: L.DeconvolutionND(2, 2, 3, 2),
    'DilatedConvolution2D': lambda L: L.DilatedConvolution2D(2, 3, 3, dilate=2),
    'DepthwiseConvolution2D': lambda L: L.DepthwiseConvolution2D(2, 2, 3),
    'DeformableConvolution2D': lambda L: L.DeformableConvolution2D(2, 3, 3),
    'LocalConvolution2D': lambda L: L.LocalConvolution2D(2, 3, (4, 4), 2),
    'EmbedID': lambda L: L.EmbedID(10, 4, ignore_label=-1),
    'LSTM': lambda L: L.LSTM(3, 4),
    'LSTM lazy': lambda L: _params(L.LSTM(None, 4), lambda l: l(_x(2, 3))),
    'StatelessLSTM lazy': lambda L: _params(
        L.StatelessLSTM(None, 4), lambda l: l(None, None, _x(2, 3))
    ),
    'StatefulPeepholeLSTM': lambda L: L.StatefulPeepholeLSTM(3, 4),
    'StatefulZoneoutLSTM': lambda L: L.StatefulZoneoutLSTM(3, 4),
    'GRU': lambda L: L.GRU(3, 4),
    'StatelessGRU': lambda L: L.StatelessGRU(3, 4),
    'StatefulMGU': lambda L: L.StatefulMGU(3, 4),
    'ChildSumTreeLSTM': lambda L: L.ChildSumTreeLSTM(3, 4),
    'NaryTreeLSTM': lambda L: L.NaryTreeLSTM(3, 4, n_ary=2),
    'NStepLSTM': lambda L: L.NStepLSTM(1, 3, 4, 0.0),
    'NStepBiGRU': lambda L: L.NStepBiGRU(2, 3, 4, 0.0),
    'NStepRNNTanh': lambda L: L.NStepRNNTanh(2, 3, 4, 0.0),
    'BatchNormalization': lambda L: L.BatchNormalization(4),
    'BatchRenormalization': lambda L: L.BatchRenormalization(3),
    'GroupNormalization': lambda L: L.GroupNormalization(2, 4),
    'LayerNormalization': lambda L: L.LayerNormalization(4),
    'DecorrelatedBatchNormalization': lambda L: L.DecorrelatedBatchNormalization(
        4, groups=2
    ),
    'Bilinear': lambda L: L.Bilinear(2, 3, 4),
    'Highway': lambda L: L.Highway(3),
    'Maxout': lambda L: L.Maxout(3, 2, 2),
    'PReLU': lambda L: L.PReLU(),
    'Swish': lambda L: L.Swish((3,)),
    'Inception': lambda L: L.Inception(3, 2, 2, 2, 2, 2, 2),
    'MLPConvolution2D': lambda L: L.MLPConvolution2D(3, (2, 2), 3),
    'Scale': lambda L: L.Scale(W_shape=(3,), bias_term=True),
    'NegativeSampling': lambda L: L.NegativeSampling(3, [1, 2, 3], 2),
    'BinaryHierarchicalSoftmax': lambda L: L.BinaryHierarchicalSoftmax(
        3, L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 1, 1: 2, 2: 3})
    ),
    'BlackOut': lambda L: L.BlackOut(3, [1, 2, 3], 2),
    'CRF1d': lambda L: L.CRF1d(3),
    'SimplifiedDropconnect': lambda L: L.SimplifiedDropconnect(3, 2),
}


def _link_probe(make):
    def probe(c):
        numpy.random.seed(2)
        made = make(c.L)
        return made if isinstance(made, dict) else _params(made)

    return probe


PROBES = {name: _link_probe(make) for name, make in LINKS.items()}
PROBES['initializers'] = initializers
