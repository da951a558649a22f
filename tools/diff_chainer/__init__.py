"""Differential harness: the same generated calls on Chainer 7.8.1 and chainerlite.

``make diff-chainer`` runs ``python -m tools.diff_chainer`` in a venv that
holds both libraries. Every public name of Chainer's module tree (see
``names.py``) is routed to a runner for its kind (functions, links,
optimizers, optimizer hooks, initializers, iterators, datasets,
distributions, triggers, reporter). A runner draws inputs from hypothesis
strategies (``strategies.py``), runs the same call on both libraries in
this one process and compares the outcomes (``compare.py``): raised or not
and the exception type, output types, dtypes, shapes and values,
gradients, second-order gradients, the indexes a node retains, warnings,
``repr``, serializer keys, iterator order, optimizer states, reported
observations. ``report.py`` scores each name (equal / different / not
covered, with the reason) against the baseline of known differences.
"""
