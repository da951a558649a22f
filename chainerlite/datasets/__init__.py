"""Datasets and dataset loaders (``chainer.datasets``), plus the bundled
digits."""

from chainerlite.datasets.digits import get_digits  # NOQA

from chainerlite.datasets.cifar import get_cifar10  # NOQA
from chainerlite.datasets.cifar import get_cifar100  # NOQA
from chainerlite.datasets.concatenated_dataset import ConcatenatedDataset  # NOQA
from chainerlite.datasets.dict_dataset import DictDataset  # NOQA
from chainerlite.datasets.fashion_mnist import get_fashion_mnist  # NOQA
from chainerlite.datasets.fashion_mnist import get_fashion_mnist_labels  # NOQA
from chainerlite.datasets.image_dataset import ImageDataset  # NOQA
from chainerlite.datasets.image_dataset import LabeledImageDataset  # NOQA
from chainerlite.datasets.kuzushiji_mnist import get_kuzushiji_mnist  # NOQA
from chainerlite.datasets.kuzushiji_mnist import get_kuzushiji_mnist_labels  # NOQA
from chainerlite.datasets.mnist import get_mnist  # NOQA
from chainerlite.datasets.pickle_dataset import open_pickle_dataset  # NOQA
from chainerlite.datasets.pickle_dataset import open_pickle_dataset_writer  # NOQA
from chainerlite.datasets.pickle_dataset import PickleDataset  # NOQA
from chainerlite.datasets.pickle_dataset import PickleDatasetWriter  # NOQA
from chainerlite.datasets.ptb import get_ptb_words  # NOQA
from chainerlite.datasets.ptb import get_ptb_words_vocabulary  # NOQA
from chainerlite.datasets.sub_dataset import get_cross_validation_datasets  # NOQA
from chainerlite.datasets.sub_dataset import get_cross_validation_datasets_random  # NOQA
from chainerlite.datasets.sub_dataset import split_dataset  # NOQA
from chainerlite.datasets.sub_dataset import split_dataset_n  # NOQA
from chainerlite.datasets.sub_dataset import split_dataset_n_random  # NOQA
from chainerlite.datasets.sub_dataset import split_dataset_random  # NOQA
from chainerlite.datasets.sub_dataset import SubDataset  # NOQA
from chainerlite.datasets.svhn import get_svhn  # NOQA
from chainerlite.datasets.text_dataset import TextDataset  # NOQA
from chainerlite.datasets.transform_dataset import TransformDataset  # NOQA
from chainerlite.datasets.tuple_dataset import TupleDataset  # NOQA
