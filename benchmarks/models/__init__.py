"""Training steps of three real models, in chainerlite and in PyTorch.

resnet18     ResNet-18 for CIFAR-sized images (3x3 convolutions, 64 to 512
             channels, BatchNormalization), softmax cross entropy,
             MomentumSGD
transformer  4 post-LN Transformer encoder blocks (d 256, 4 heads, FFN 1024,
             dropout 0.1) on a sequence of 128, a linear head per token,
             softmax cross entropy, Adam
lstm_lm      2-layer LSTM language model (vocabulary 10k, 650 units, 35
             steps): EmbedID, NStepLSTM, Linear, softmax cross entropy, SGD

Each model is written once the way a Chainer user writes it (links, a
``Chain``, an optimizer; it runs on chainerlite or on Chainer 7.8.1) and once
the way a PyTorch user does (``torch.nn`` modules), with the same shapes and
the same initial parameters: NumPy draws them (:func:`arrays` of each
module), both libraries load them. A step is forward, backward and the
optimizer's update. ``size='tiny'`` gives small versions for the tests.
``device='gpu'`` builds the same step on the first CUDA device (CuPy for
chainerlite and Chainer, ``torch.device('cuda')`` for PyTorch).
"""

import importlib

from models import _devices

MODELS = ('resnet18', 'transformer', 'lstm_lm')
# the two batch sizes measured of each model
BATCHES = {'resnet18': (32, 128), 'transformer': (16, 32), 'lstm_lm': (20, 64)}
LIBRARIES = ('chainerlite', 'torch')


def model_module(model):
    """The module of a model (a name of :data:`MODELS`)."""
    if model not in MODELS:
        raise ValueError(f'unknown model {model!r}; one of {", ".join(MODELS)}')
    return importlib.import_module(f'{__name__}.{model}')


def make_step(library, model, batch, size='full', seed=0, dropout=None, device='cpu'):
    """A training step of ``model`` in ``library``: a callable that runs one
    step and returns the loss as a float.

    Args:
        library (str): ``'chainerlite'``, ``'chainer'`` or ``'torch'``.
        model (str): A name of :data:`MODELS`.
        batch (int): Batch size.
        size (str): ``'full'`` (the measured sizes) or ``'tiny'``.
        seed (int): Seed of the parameters and the data.
        dropout (float): Overrides the model's dropout ratio (``0.0`` makes
            the two libraries compute the same losses).
        device (str): ``'cpu'`` or ``'gpu'``.

    """
    module = model_module(model)
    dims = dict(module.SIZES[size])
    if dropout is not None:
        dims['dropout'] = dropout
    arrays = module.arrays(dims, seed)
    data = module.data(dims, batch, seed + 1)
    place = _devices.placement(library, device)
    if library == 'torch':
        with place.context():
            return module.torch_step(dims, arrays, data)
    step = module.chainer_step(
        importlib.import_module(library), dims, arrays, place.arrays(data)
    )
    place.link(step.model)
    return step
