"""Pre-trained image models: VGG, ResNet and GoogLeNet."""

from chainerlite.links.model.vision import googlenet  # NOQA
from chainerlite.links.model.vision import resnet  # NOQA
from chainerlite.links.model.vision import vgg  # NOQA
