"""Libraries built on Chainer, run on Chainer 7.8.1 and on chainerlite.

``python -m tools.downstream`` (``make downstream``): ChainerCV's own test
suite, scored test by test, and the chainercv2 model zoo, each model's
output and parameter gradients compared between the two. See
docs/downstream.md.
"""
