"""Classifier link: a predictor with a loss and an accuracy."""

from __future__ import annotations

import typing

from chainerlite import link
from chainerlite import reporter
from chainerlite.functions.evaluation import accuracy
from chainerlite.functions.loss import softmax_cross_entropy


class Classifier(link.Chain):
    """Wraps a predictor and computes its loss (and accuracy) on labels.

    Calling it with ``(*args, t)`` (or with the label at ``label_key``)
    calls ``predictor(*args)``, computes ``lossfun(y, t)`` and, if
    :attr:`compute_accuracy` is set, ``accfun(y, t)``; it keeps them in
    :attr:`y`, :attr:`loss` and :attr:`accuracy`, reports ``loss`` and
    ``accuracy`` to the current ``chainerlite.reporter`` (if any), and
    returns the loss.

    Args:
        predictor (~chainerlite.Link): The model that outputs scores.
        lossfun (callable): Loss function of ``(y, t)``.
        accfun (callable): Accuracy function of ``(y, t)``.
        label_key (int or str): Position of the label among the positional
            arguments (``-1``: the last one), or its keyword name.

    Attributes:
        predictor (~chainerlite.Link): The predictor (a child link).
        lossfun (callable): The loss function.
        accfun (callable): The accuracy function.
        y (Variable): Prediction of the last call.
        loss (Variable): Loss of the last call.
        accuracy (Variable): Accuracy of the last call, or ``None``.
        compute_accuracy (bool): Whether to compute the accuracy.
        label_key (int or str): Where the label is found.

    Raises:
        TypeError: If ``label_key`` is neither an int nor a str.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> model = L.Classifier(L.Linear(3, 2))
        >>> x = np.ones((4, 3), np.float32)
        >>> t = np.array([0, 1, 1, 0], np.int32)
        >>> loss = model(x, t)
        >>> loss.shape, model.y.shape, float(model.accuracy.array)
        ((), (4, 2), 0.5)

    """

    compute_accuracy = True

    def __init__(
        self,
        predictor: typing.Callable[..., typing.Any],
        lossfun: typing.Callable[
            ..., typing.Any
        ] = softmax_cross_entropy.softmax_cross_entropy,
        accfun: typing.Callable[..., typing.Any] = accuracy.accuracy,
        label_key: int | str = -1,
    ) -> None:
        if not isinstance(label_key, (int, str)):
            raise TypeError(
                'label_key must be int or str, but is {}'.format(type(label_key))
            )
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def _split_label(self, args, kwargs):
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError('Label key {} is out of bounds'.format(key))
            index = key % len(args)
            return args[:index] + args[index + 1 :], kwargs, args[index]
        if key not in kwargs:
            raise ValueError('Label key "{}" is not found'.format(key))
        kwargs = dict(kwargs)
        t = kwargs.pop(key)
        return args, kwargs, t

    def forward(self, *args, **kwargs):
        """Predicts, then computes the loss (and accuracy) on the label.

        Args:
            *args: Inputs of the predictor, with the label at
                ``label_key`` if it is an int.
            **kwargs: Keyword inputs of the predictor, with the label under
                ``label_key`` if it is a str.

        Returns:
            Variable: The loss.

        Raises:
            ValueError: If the label is not found.

        """
        args, kwargs, t = self._split_label(args, kwargs)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss
