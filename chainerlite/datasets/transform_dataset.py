"""TransformDataset: applies a function to each example on access."""

from chainerlite.dataset import dataset_mixin


class TransformDataset(dataset_mixin.DatasetMixin):
    """Dataset that returns ``transform(dataset[i])``.

    The transform runs each time an example is read (data augmentation can
    draw new random values every epoch).

    Args:
        dataset: The underlying dataset.
        transform (callable): Function applied to each example.

    """

    def __init__(self, dataset, transform):
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        if i >= len(self):
            raise IndexError(
                'TransformDataset: index {} out of range for {} examples'.format(
                    i, len(self)
                )
            )
        return self._transform(self._dataset[i])
