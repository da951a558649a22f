"""What the three model modules share: initial draws, loading parameters
and the shape of a step in each library."""

import numpy as np


def normal(rng, shape, fan_in):
    """He-scaled normal float32 draws of ``shape``."""
    return (rng.standard_normal(shape) * (2.0 / fan_in) ** 0.5).astype(np.float32)


def load_chainer(link, arrays):
    """Copies ``arrays`` (parameter path -> array) into the parameters of a
    Chainer-like ``link``; each parameter takes one array, each array goes
    to one parameter."""
    pairs = list(link.namedparams())
    unused = set(arrays) - {name for name, _ in pairs}
    missing = {name for name, _ in pairs} - set(arrays)
    if unused or missing:
        raise ValueError(
            f'load_chainer: no array for {sorted(missing)}; '
            f'arrays left unused: {sorted(unused)}'
        )
    for name, param in pairs:
        param.array[...] = arrays[name]


def load_torch(torch, pairs, arrays):
    """Copies ``arrays[name]`` into each torch parameter of ``pairs``
    (``(name, parameter)``) and checks that every array was used."""
    used = set()
    with torch.no_grad():
        for name, param in pairs:
            param.copy_(torch.from_numpy(arrays[name]))
            used.add(name)
    missing = set(arrays) - used
    if missing:
        raise ValueError(f'load_torch: arrays left unused: {sorted(missing)}')


def chainer_step(model, optimizer, loss_of):
    """Forward, backward, update: the step a Chainer user writes."""
    optimizer.setup(model)

    def step():
        model.cleargrads()
        loss = loss_of()
        loss.backward()
        optimizer.update()
        return float(loss.array)

    step.model = model  # for tools that change the model (benchmarks/forget)
    step.optimizer, step.loss_of = optimizer, loss_of  # (and the step)
    return step


def torch_step(model, optimizer, loss_of):
    """Forward, backward, update: the step a PyTorch user writes."""
    model.train()

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = loss_of()
        loss.backward()
        optimizer.step()
        return float(loss.detach())

    step.model = model
    return step
