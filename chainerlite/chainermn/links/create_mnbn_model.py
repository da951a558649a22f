"""Turning every BatchNormalization of a model into the multi-node one."""

import copy

from chainerlite import backend
from chainerlite import link as link_module
from chainerlite import sequential
from chainerlite.chainermn.links import batch_normalization as mnbn
from chainerlite.links.normalization import batch_normalization


def _convert(bn, comm, communication_backend):
    if bn.avg_mean is None:
        raise ValueError(
            'create_mnbn_model: a BatchNormalization without a '
            'size cannot be converted before its first call'
        )
    new = mnbn.MultiNodeBatchNormalization(
        bn.avg_mean.shape[0],
        comm,
        decay=bn.decay,
        eps=bn.eps,
        dtype=bn._dtype,
        use_gamma=bn.gamma is not None,
        use_beta=bn.beta is not None,
        communication_backend=communication_backend,
    )
    new.to_device(bn.device)
    for name in ('gamma', 'beta'):
        if getattr(bn, name) is not None:
            backend.copyto(getattr(new, name).array, getattr(bn, name).array)
    backend.copyto(new.avg_mean, bn.avg_mean)
    backend.copyto(new.avg_var, bn.avg_var)
    new.N = bn.N
    return new


def _is_plain_bn(link):
    return isinstance(link, batch_normalization.BatchNormalization) and not isinstance(
        link, mnbn.MultiNodeBatchNormalization
    )


def _replace_children(link, convert):
    if isinstance(link, sequential.Sequential):
        for i, layer in enumerate(list(link)):
            if _is_plain_bn(layer):
                link[i] = convert(layer)
            elif isinstance(layer, link_module.Link):
                _replace_children(layer, convert)
    elif isinstance(link, link_module.ChainList):
        for i, child in enumerate(list(link)):
            if _is_plain_bn(child):
                link._children[i] = convert(child)
                link._children[i].name = str(i)
            else:
                _replace_children(child, convert)
    elif isinstance(link, link_module.Chain):
        for name, child in link._named_children():
            if _is_plain_bn(child):
                delattr(link, name)
                with link.init_scope():
                    setattr(link, name, convert(child))
            else:
                _replace_children(child, convert)


def create_mnbn_model(link, comm, communication_backend='auto'):
    """A deep copy of ``link`` with each BatchNormalization made multi-node.

    Every :class:`chainer.links.BatchNormalization` (in a Chain, ChainList
    or Sequential, at any depth) becomes a
    :class:`MultiNodeBatchNormalization` with the same parameters and
    running statistics; the original model is left as it was.
    """

    def convert(bn):
        return _convert(bn, comm, communication_backend)

    if _is_plain_bn(link):
        return convert(link)
    new = copy.deepcopy(link)
    _replace_children(new, convert)
    return new
