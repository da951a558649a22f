"""Refusing the HDF5 features that read data from outside the group loaded.

An HDF5 file can hold links and datasets whose bytes live elsewhere: an
external link names another file, a dataset with external raw storage
reads its bytes from other files, a virtual dataset maps regions of
datasets of other files, and a soft link names any path, inside or outside
the group being loaded. A hostile model file could use them to pull the
bytes of a local file into the weights. :func:`check_group` walks every
link under a group before any data is read, and refuses:

* external links;
* soft links whose target is not inside the group tree being loaded (a
  soft link between two places of the loaded group is accepted: the
  target is itself walked and checked);
* datasets with external raw storage, and virtual datasets.

The walk follows hard links only and never opens another file.
"""


def _split(path):
    # HDF5 gives no meaning to '..'; '.' and empty components name the
    # group itself.
    return [part for part in path.split('/') if part not in ('', '.')]


def _inside(root, parent, target):
    """Whether the soft link ``target``, found in the group ``parent``
    (an absolute path), names a place inside the group ``root``."""
    if not target.startswith('/'):
        target = parent + '/' + target
    parts = _split(target)
    root_parts = _split(root)
    return parts[: len(root_parts)] == root_parts


def _refused(label, key, reason):
    return ValueError(
        '{}: key {!r} {}; a file is loaded only from its own data, so '
        'nothing was loaded'.format(label, key, reason)
    )


def _check_dataset(label, key, dataset):
    if dataset.external:
        files = sorted({str(entry[0]) for entry in dataset.external})
        raise _refused(
            label,
            key,
            'keeps its data in other files (external storage: {})'.format(
                ', '.join(files)
            ),
        )
    if dataset.is_virtual:
        raise _refused(label, key, 'is a virtual dataset (its data is in other files)')


def check_group(group, h5py, label):
    """Refuses a group under which data would be read from elsewhere.

    Args:
        group (h5py.Group): The group (or file) to be loaded.
        h5py: The h5py module.
        label (str): Who loads, for the error messages.

    Raises:
        ValueError: Naming the first offending key (its path from
            ``group``): an external link, a soft link leaving the group,
            a dataset with external storage or a virtual dataset.

    """
    root = '/' + '/'.join(_split(group.name))
    names = []
    group.id.links.visit(names.append)  # hard links only, no other file
    for raw in names:
        key = raw.decode('utf-8', 'replace')
        link = group.get(key, getlink=True)
        if isinstance(link, h5py.ExternalLink):
            raise _refused(
                label,
                key,
                'is an external link (to {!r} in {!r})'.format(
                    link.path, link.filename
                ),
            )
        if isinstance(link, h5py.SoftLink):
            parent = root.rstrip('/') + '/' + '/'.join(_split(key)[:-1])
            if not _inside(root, parent, link.path):
                raise _refused(
                    label,
                    key,
                    'is a soft link to {!r}, outside the group {!r} being '
                    'loaded'.format(link.path, root),
                )
            continue
        item = group[key]
        if isinstance(item, h5py.Dataset):
            _check_dataset(label, key, item)
