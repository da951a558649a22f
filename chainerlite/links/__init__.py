"""Links: parameterized building blocks of models, re-exported as ``L.*``."""

from chainerlite.links.connection.linear import Linear  # NOQA
