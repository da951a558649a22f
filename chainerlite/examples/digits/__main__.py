"""Runs the digits demo: ``python -m chainerlite.examples.digits``."""

from chainerlite.examples.digits import cli

cli.main()
