"""Differential probes of Chainer's object surface (``make diff-surface``).

The generated calls of ``tools/diff_chainer`` cover functions, links and
optimizers by their arguments; these probes cover what programs do around
them: a variable's gradient before and after ``backward``, links copied and
serialized, the draws of initial weights under a seed, optimizer states and
loss scaling, configuration and devices. Each probe is a small program run
once on Chainer 7.8.1 and once on chainerlite, each in its own process
(:mod:`.child`); the results are compared value by value, and an exception
agrees when chainerlite's is also of Chainer's type. ``known.json`` lists
the probes that differ on purpose, each with its reason (docs/differences.rst).
"""
