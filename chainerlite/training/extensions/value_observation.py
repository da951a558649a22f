"""Extensions that put a value into the observation."""

from chainerlite.training import extension


def observe_value(observation_key, target_func):
    """Returns an extension that stores ``target_func(trainer)`` in the
    observation under ``observation_key`` (once per epoch by default).

    Args:
        observation_key (str): Key of the value in the observation.
        target_func (callable): Function of the trainer that returns the
            value.

    Returns:
        The extension.

    """

    @extension.make_extension(trigger=(1, 'epoch'), priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name='main', observation_key='lr'):
    """Returns an extension that stores the learning rate (``lr``) of an
    optimizer in the observation (once per epoch by default).

    Args:
        optimizer_name (str): Name of the optimizer in the updater.
        observation_key (str): Key of the value in the observation.

    Returns:
        The extension.

    """
    return observe_value(
        observation_key,
        lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr,
    )
