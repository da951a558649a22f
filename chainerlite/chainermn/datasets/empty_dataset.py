"""A dataset of empty examples with the length of another."""


def create_empty_dataset(dataset):
    """A list of ``len(dataset)`` empty tuples.

    Ranks that only pass activations along (e.g. in a model split over
    processes) iterate over it to keep in step with the ranks that read
    the real data.
    """
    return [()] * len(dataset)
