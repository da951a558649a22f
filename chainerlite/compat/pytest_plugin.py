"""``pytest -p chainerlite.compat.pytest_plugin``: Chainer's tests on chainerlite.

Loading the plugin installs the import alias of :mod:`chainerlite.compat`
before any test module is collected, so upstream test files that
``import chainer`` or ``import chainermn`` run against chainerlite.
"""

from chainerlite import compat

compat.install()
