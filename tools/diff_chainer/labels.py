"""The nodes a hook sees: ``function.label`` of every node applied.

A FunctionHook sees each node in ``forward_preprocess`` (the nodes a call
applies, and the gradient nodes a backward applies) and in
``backward_preprocess`` (the nodes backpropagated through); profilers
(TimerHook, PrintHook) and users' summaries key their records by the label.

After each of the stages named in ``RECORDED``, a stage ``'<stage>
labels'`` replays it with a recording hook registered, in a scratch of its
own (``scratch['hooked']``), so that the stages compared for values run as
they do with no hook. The replay of a stage continues the replays of the
ones before it (the gradient stage's replay differentiates the hooked
forward's outputs), so each stage runs once more, not from the start.

What is compared, per stage: the forward labels in the order the nodes were
applied where the stage is a forward (the code run defines that order), and
as a multiset where it is a backward: Chainer's engine pops nodes by rank
(``_backprop.py``), so the order of nodes of one rank, and of the gradient
nodes each backward applies, is an implementation detail; the backward
labels as a multiset too.
"""

RECORDED = ('forward', 'grad', 'grad2')
_SEQUENCE = frozenset({'forward'})
_CLASSES = {}  # library module name -> its recording hook class


def _recorder_class(lib):
    cls = _CLASSES.get(lib.__name__)
    if cls is None:

        def forward_preprocess(self, function, in_data):
            self.seen_forward.append(function.label)

        def backward_preprocess(self, function, in_data, out_grad):
            self.seen_backward.append(function.label)

        cls = type(
            'LabelRecorder',
            (lib.FunctionHook,),
            {
                'name': 'LabelRecorder',
                'forward_preprocess': forward_preprocess,
                'backward_preprocess': backward_preprocess,
            },
        )
        _CLASSES[lib.__name__] = cls
    return cls


def _multiset(labels):
    counts = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    return ' '.join(
        label if n == 1 else f'{label} x{n}' for label, n in sorted(counts.items())
    )


def recorded(stage_name, stage):
    """The labels stage that replays ``stage`` with a recording hook."""

    def replay(lib, scratch):
        hook = _recorder_class(lib)()
        hook.seen_forward, hook.seen_backward = [], []
        with hook:
            stage(lib, scratch.setdefault('hooked', {}))
        forward = (
            ' '.join(hook.seen_forward)
            if stage_name in _SEQUENCE
            else _multiset(hook.seen_forward)
        )
        return {'forward': forward, 'backward': _multiset(hook.seen_backward)}

    return replay


def is_labels_aspect(aspect):
    """Whether ``aspect`` (as ``pair.aspect_of`` names it) is a labels stage's."""
    return aspect.split(':')[0].endswith(' labels')


def interleaved(stages):
    """``stages`` with a labels stage after each one of ``RECORDED``."""
    out = []
    for name, stage in stages:
        out.append((name, stage))
        if name in RECORDED:
            out.append((f'{name} labels', recorded(name, stage)))
    return out
